// The staff session behind a sign-in cookie. Sessions are rows (server/auth/staff-auth.ts
// issues an opaque token as the cookie); pages and route handlers outside the tRPC endpoint
// (the OAuth consent for assistant clients) resolve the member from the cookie here.
import { db } from '@/server/db/client';

/** Auth.js cookie names: plain over http, `__Secure-` over https. */
const SESSION_COOKIES = ['__Secure-authjs.session-token', 'authjs.session-token'];

/** The live session's user, or null for an unknown or expired token. */
export async function sessionUser(token: string): Promise<{ id: string; email: string; name: string | null } | null> {
  const session = await db.session.findUnique({ where: { sessionToken: token }, include: { user: true } });
  if (!session || session.expires.getTime() <= Date.now()) return null;
  return { id: session.userId, email: session.user.email, name: session.user.name };
}

function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** The signed-in member of a request, from its session cookie; null when there is none. */
export async function staffUserIdFromRequest(headers: Headers): Promise<string | null> {
  for (const name of SESSION_COOKIES) {
    const token = cookieValue(headers.get('cookie'), name);
    if (token) return (await sessionUser(token))?.id ?? null;
  }
  return null;
}
