// The networks' own webhooks (Meta, X, Google; no login: each delivery carries the network's
// proof): the route table's handlers (server/runtime/api-routes.ts), which Herald's own server
// also serves on its fast path.
import { API_ROUTE_FILES } from '@/server/runtime/api-routes';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = API_ROUTE_FILES.networkWebhook.GET;
export const POST = API_ROUTE_FILES.networkWebhook.POST;
