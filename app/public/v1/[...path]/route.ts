// The public REST API v1: one handler for every route (server/http/rest-handler.ts).
import { handlePublicApi } from '@/server/http/rest-handler';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = handlePublicApi;
export const POST = handlePublicApi;
export const PATCH = handlePublicApi;
export const PUT = handlePublicApi;
export const DELETE = handlePublicApi;
