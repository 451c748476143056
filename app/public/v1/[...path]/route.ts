// The public REST API v1 (server/http/rest-handler.ts), from the API's route table, which
// Herald's own server also serves on its fast path (server/runtime/api-routes.ts).
import { API_ROUTE_FILES } from '@/server/runtime/api-routes';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const { GET, POST, PATCH, PUT, DELETE, OPTIONS } = API_ROUTE_FILES.rest;
