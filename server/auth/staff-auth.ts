// Staff sign-in (next-auth v5): email + password, then a second factor for members who have
// one; sessions kept in the database. Auth.js only issues credentials sign-ins through its
// JWT path, so the "JWT" here is an opaque session token: the sign-in (server/auth/sign-in.ts)
// creates the Session row and its token, encode() hands that token to the cookie, decode()
// looks the row up (and renews it). Ending a session is deleting its row.
//
// Both the sign-in page and Auth.js's own credentials endpoint run authorize(), so the
// throttle and the second factor hold whichever is used. A refusal carries a code the page
// words: `credentials` (wrong email, password or code: one answer), `wait-<epoch s>` or
// `locked-<epoch s>` (when to retry), `second-factor` (the challenge is in a cookie).
import NextAuth, { CredentialsSignin, type NextAuthConfig } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { cookies } from 'next/headers';
import { z } from 'zod';
import { db } from '@/server/db/client';
import { originOf, withRequestOrigin } from '@/server/observability/request-origin';
import { log } from '@/server/observability/log';
import { signInWithPassword, signInWithSecondFactor, CHALLENGE_TTL_MS, type SignInOutcome } from './sign-in';
import { SESSION_ABSOLUTE_S, sessionUser } from './staff-session';

/** The cookie holding a sign-in's second-factor challenge between the two steps. */
export const CHALLENGE_COOKIE = 'herald.sign-in-challenge';

const ZPassword = z.object({ email: z.email(), password: z.string().min(1).max(200) });
const ZSecondFactor = z.object({ code: z.string().min(1).max(40) });

class SignInRefused extends CredentialsSignin {
  constructor(code: string) {
    super();
    this.code = code;
  }
}

function refusalCode(outcome: Extract<SignInOutcome, { kind: 'refused' }>): string {
  if (!outcome.retryAt) return 'credentials';
  return `${outcome.locked ? 'locked' : 'wait'}-${Math.ceil(outcome.retryAt.getTime() / 1000)}`;
}

/** The sign-in under the request's origin, which the security events it causes record. */
const authorize = (raw: Partial<Record<string, unknown>>, request: Request) => withRequestOrigin(request.headers, () => checkCredentials(raw, request));

async function checkCredentials(raw: Partial<Record<string, unknown>>, request: Request) {
  const origin = originOf(request.headers);
  const jar = await cookies();
  let outcome: SignInOutcome;
  const second = ZSecondFactor.safeParse(raw);
  const challenge = jar.get(CHALLENGE_COOKIE)?.value;
  if (second.success && challenge && raw.email === undefined) {
    outcome = await signInWithSecondFactor({ challenge, code: second.data.code }, origin);
  } else {
    const parsed = ZPassword.safeParse(raw);
    if (!parsed.success) throw new SignInRefused('credentials');
    outcome = await signInWithPassword(parsed.data, origin);
  }
  if (outcome.kind === 'second-factor') {
    jar.set(CHALLENGE_COOKIE, outcome.challenge, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      maxAge: CHALLENGE_TTL_MS / 1000,
      secure: new URL(request.url).protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https',
    });
    throw new SignInRefused('second-factor');
  }
  if (outcome.kind === 'refused') throw new SignInRefused(refusalCode(outcome));
  jar.delete(CHALLENGE_COOKIE);
  return { ...outcome.user, sessionToken: outcome.sessionToken };
}

export const authConfig: NextAuthConfig = {
  trustHost: true,
  // A refused sign-in, or a cookie whose session ended or expired, is an expected outcome,
  // not a server error worth a stack trace.
  logger: {
    error(error) {
      if (error instanceof CredentialsSignin || ['CredentialsSignin', 'JWTSessionError'].includes((error as { type?: string }).type ?? error.name)) return;
      log.error('auth', 'sign-in error', error);
    },
  },
  // The cookie lasts as long as a session can; the row decides (idle and absolute limits).
  session: { strategy: 'jwt', maxAge: SESSION_ABSOLUTE_S },
  pages: { signIn: '/signin' },
  providers: [
    Credentials({
      credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' }, code: { label: 'Code', type: 'text' } },
      authorize,
    }),
  ],
  jwt: {
    async encode({ token }) {
      return typeof token?.sessionToken === 'string' ? token.sessionToken : '';
    },
    async decode({ token }) {
      if (!token) return null;
      const user = await sessionUser(token);
      if (!user) return null;
      return { sub: user.id, email: user.email, name: user.name, sessionToken: token };
    },
  },
  callbacks: {
    jwt({ token, user }) {
      // The sign-in created the row; its token is what the cookie carries.
      if (user && 'sessionToken' in user && typeof user.sessionToken === 'string') token.sessionToken = user.sessionToken;
      return token;
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      return session;
    },
  },
  events: {
    async signOut(message) {
      const token = 'token' in message ? message.token : null;
      if (token && typeof token.sessionToken === 'string') {
        await db.session.deleteMany({ where: { sessionToken: token.sessionToken } });
      }
    },
  },
};

export const { handlers, auth, signIn, signOut } = NextAuth(authConfig);

/** The signed-in staff member's user id, or null. */
export async function currentStaffUserId(): Promise<string | null> {
  const session = await auth();
  return session?.user?.id ?? null;
}

/** The session token of the signed-in member's own request (the session they act from). */
export async function currentSessionToken(): Promise<string | null> {
  const jar = await cookies();
  return jar.get('__Secure-authjs.session-token')?.value ?? jar.get('authjs.session-token')?.value ?? null;
}
