// Staff sessions. Sessions are rows (server/auth/staff-auth.ts issues an opaque token as the
// cookie), so every instance checks each request against the database: a session ended here
// is refused on its next request wherever it lands. A session lives while it is used: each
// use renews it for SESSION_IDLE_S, never past SESSION_ABSOLUTE_S from its sign-in (numbers
// in docs/decisions.md). Pages and route handlers outside the tRPC endpoint (the OAuth
// consent for assistant clients) resolve the member from the cookie here.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { db, type Tx } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { ZTimestamp } from '@/server/shared/schemas';

/** A session unused this long ends. */
export const SESSION_IDLE_S = 30 * 60;
/** No session outlives this from its sign-in, however used. */
export const SESSION_ABSOLUTE_S = 12 * 3600;
/** Renewal is written at most this often (each request would otherwise write a row). */
const RENEW_EVERY_MS = 60_000;

/** Auth.js cookie names: plain over http, `__Secure-` over https. */
export const SESSION_COOKIES = ['__Secure-authjs.session-token', 'authjs.session-token'];

const expiryFrom = (createdAt: Date, now: Date) => new Date(Math.min(now.getTime() + SESSION_IDLE_S * 1000, createdAt.getTime() + SESSION_ABSOLUTE_S * 1000));

/** A new session for a member who just signed in; its token becomes the cookie. */
export async function createSession(userId: string, origin: { address: string | null; userAgent: string | null }): Promise<string> {
  const sessionToken = randomBytes(32).toString('base64url');
  const now = new Date();
  await db.session.create({
    data: {
      sessionToken,
      userId,
      createdAt: now,
      lastSeenAt: now,
      expires: expiryFrom(now, now),
      address: origin.address,
      userAgent: origin.userAgent?.slice(0, 300) ?? null,
    },
  });
  return sessionToken;
}

/** The live session's user, or null for an unknown, ended or expired token; a use renews it. */
export async function sessionUser(token: string, now = new Date()): Promise<{ id: string; email: string; name: string | null; sessionId: string } | null> {
  const session = await db.session.findUnique({ where: { sessionToken: token }, include: { user: { select: { email: true, name: true } } } });
  if (!session || session.expires.getTime() <= now.getTime()) return null;
  if (now.getTime() - session.lastSeenAt.getTime() >= RENEW_EVERY_MS) {
    await db.session.updateMany({ where: { id: session.id }, data: { lastSeenAt: now, expires: expiryFrom(session.createdAt, now) } });
  }
  return { id: session.userId, email: session.user.email, name: session.user.name, sessionId: session.id };
}

function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** The session token a request carries, if any. */
export function sessionTokenFromHeaders(headers: Headers): string | null {
  for (const name of SESSION_COOKIES) {
    const token = cookieValue(headers.get('cookie'), name);
    if (token) return token;
  }
  return null;
}

/** The signed-in member of a request, from its session cookie; null when there is none. */
export async function staffUserIdFromRequest(headers: Headers): Promise<string | null> {
  const token = sessionTokenFromHeaders(headers);
  return token ? ((await sessionUser(token))?.id ?? null) : null;
}

export const ZSession = z.object({
  id: z.uuid(),
  current: z.boolean(),
  device: z.string(),
  userAgent: z.string().nullable(),
  address: z.string().nullable(),
  signedInAt: ZTimestamp,
  lastSeenAt: ZTimestamp,
  expiresAt: ZTimestamp,
});
export type SessionDto = z.infer<typeof ZSession>;

/** "Chrome on macOS": enough to tell one's own devices apart, from the browser's User-Agent. */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /(Chrome|Chromium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : /curl|node|python|Go-http/i.test(userAgent)
            ? 'A script'
            : 'A browser';
  const system = /iPhone|iPad/.test(userAgent)
    ? 'iOS'
    : /Android/.test(userAgent)
      ? 'Android'
      : /Mac OS X|Macintosh/.test(userAgent)
        ? 'macOS'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Linux|X11/.test(userAgent)
            ? 'Linux'
            : null;
  return system ? `${browser} on ${system}` : browser;
}

/** A member's live sessions, the one asking first, then the most recently used. */
export async function listSessions(userId: string, currentToken: string | null): Promise<SessionDto[]> {
  const rows = await db.session.findMany({ where: { userId, expires: { gt: new Date() } }, orderBy: { lastSeenAt: 'desc' } });
  return rows
    .map((s) => ({
      id: s.id,
      current: s.sessionToken === currentToken,
      device: deviceOf(s.userAgent),
      userAgent: s.userAgent,
      address: s.address,
      signedInAt: s.createdAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
      expiresAt: s.expires.toISOString(),
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** Ends one of the member's own sessions (their current one signs them out). */
export async function endSession(userId: string, sessionId: string): Promise<void> {
  const { count } = await db.session.deleteMany({ where: { id: sessionId, userId } });
  if (count === 0) throw new AppError('VALIDATION_FAILED', 'No such session of yours', { field: 'sessionId' });
}

/**
 * Ends a member's sessions, all of them or all but the one they act from: what a password or
 * second-factor change, a removal or a role change does. In the caller's transaction if given.
 */
export async function endSessionsOf(userId: string, opts: { keepToken?: string | null; tx?: Tx } = {}): Promise<number> {
  const { count } = await (opts.tx ?? db).session.deleteMany({ where: { userId, ...(opts.keepToken ? { sessionToken: { not: opts.keepToken } } : {}) } });
  return count;
}
