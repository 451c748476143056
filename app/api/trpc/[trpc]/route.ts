// The app's tRPC endpoint: the same router as the REST API, for signed-in staff.
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { currentSessionToken, currentStaffUserId } from '@/server/auth/staff-auth';
import { toErrorResponse } from '@/server/errors/http';
import { appRouter } from '@/server/root';
import { createRequestContext } from '@/server/trpc/context';
import { withRequestId } from '@/server/observability/request-id';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

async function handler(req: Request): Promise<Response> {
  return withRequestId(req, () => respond(req));
}

async function respond(req: Request): Promise<Response> {
  const staffUserId = await currentStaffUserId();
  const sessionToken = staffUserId ? await currentSessionToken() : null;
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: () => createRequestContext({ transport: 'trpc', headers: req.headers, staffUserId, sessionToken }),
    // Same status codes and headers (Retry-After …) as the REST surface (server/errors/http.ts).
    responseMeta: ({ errors }) => {
      if (!errors[0]) return {};
      const mapped = toErrorResponse(errors[0]);
      return { status: mapped.status, headers: new Headers(mapped.headers) };
    },
  });
}

export { handler as GET, handler as POST };
