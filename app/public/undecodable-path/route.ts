// Where proxy.ts sends an API request whose path Next.js cannot decode (`/public/v1/posts/%ZZ`):
// a static route, so Next has no parameters to decode and fail on. The original path rides
// in a request header the proxy sets; the REST facade then answers it like any other path.
import { handleUndecodablePath } from '@/server/http/rest-handler';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = handleUndecodablePath;
export const POST = handleUndecodablePath;
export const PATCH = handleUndecodablePath;
export const PUT = handleUndecodablePath;
export const DELETE = handleUndecodablePath;
