// Staff sign-in (next-auth v5): email + password, sessions kept in the database.
// Auth.js only issues credentials sign-ins through its JWT path, so the "JWT" here is an
// opaque session token: encode() creates (or keeps) a Session row and returns its token,
// decode() looks the row up. Revoking a session is deleting its row.
import { randomBytes } from 'node:crypto';
import NextAuth, { type NextAuthConfig } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { z } from 'zod';
import { db } from '@/server/db/client';
import { verifyPassword } from './password';
import { sessionUser } from './staff-session';
import { log } from '@/server/observability/log';

const SESSION_MAX_AGE_S = 30 * 24 * 3600;
const ZCredentials = z.object({ email: z.email(), password: z.string().min(1).max(200) });

export const authConfig: NextAuthConfig = {
  trustHost: true,
  // A wrong password is an expected outcome, not a server error worth a stack trace.
  logger: {
    error(error) {
      if ((error as { type?: string }).type === 'CredentialsSignin' || error.name === 'CredentialsSignin') return;
      log.error('auth', 'sign-in error', error);
    },
  },
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_S },
  pages: { signIn: '/signin' },
  providers: [
    Credentials({
      credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
      async authorize(raw) {
        const parsed = ZCredentials.safeParse(raw);
        if (!parsed.success) return null;
        const user = await db.user.findUnique({ where: { email: parsed.data.email.toLowerCase() } });
        if (!user?.passwordHash || !(await verifyPassword(parsed.data.password, user.passwordHash))) return null;
        return { id: user.id, email: user.email, name: user.name };
      },
    }),
  ],
  jwt: {
    async encode({ token }) {
      if (!token) return '';
      const existing = typeof token.sessionToken === 'string' ? token.sessionToken : undefined;
      if (existing) return existing;
      const sessionToken = randomBytes(32).toString('base64url');
      await db.session.create({
        data: { sessionToken, userId: String(token.sub), expires: new Date(Date.now() + SESSION_MAX_AGE_S * 1000) },
      });
      return sessionToken;
    },
    async decode({ token }) {
      if (!token) return null;
      const user = await sessionUser(token);
      if (!user) return null;
      return { sub: user.id, email: user.email, name: user.name, sessionToken: token };
    },
  },
  callbacks: {
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
