// The reference renderer's bundle, served from the installed package (server/http/api-reference.ts).
import { handleApiReferenceRenderer } from '@/server/http/api-reference';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = handleApiReferenceRenderer;
