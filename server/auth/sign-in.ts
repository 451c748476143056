// Signing a member in: the one path behind the sign-in page, Auth.js's credentials endpoint
// and so the assistant consent (which sends the member through the sign-in page). In order:
//   1. the attempt is taken from the account's and the address's throttle (sign-in-throttle.ts):
//      while either waits it is refused unchecked, with when to retry;
//   2. the password is checked, against a stand-in hash when no account has the email, so an
//      unknown email costs the same work and gets the same answer as a wrong password;
//   3. a member with a second factor gets a challenge (five minutes) instead of a session, and
//      the code or a recovery code is checked under the same throttle;
//   4. success forgets the account's failures and creates the session row.
// Failures, locks and sign-ins are security events; the lock emails the account's owner.
import { createHash, randomBytes } from 'node:crypto';
import { db } from '@/server/db/client';
import { sendEmail } from '@/server/email/mailer';
import { log } from '@/server/observability/log';
import type { RequestOrigin } from '@/server/observability/request-origin';
import { homeWorkspaceOf, recordSecurityEvent, type SecurityEventKind } from '@/server/security-events/security-events';
import { hashPassword, verifyPassword } from './password';
import { ACCOUNT_POLICY, ADDRESS_POLICY, justLocked, signInSucceeded, takeSignInAttempt, waitAfter } from './sign-in-throttle';
import { createSession } from './staff-session';
import { hasTwoFactor, verifySecondFactor } from './two-factor';

export const CHALLENGE_TTL_MS = 5 * 60_000;

export type SignInOutcome =
  | { kind: 'signed-in'; user: { id: string; email: string; name: string | null }; sessionToken: string }
  /** The password was right; a second factor is due, with this challenge. */
  | { kind: 'second-factor'; challenge: string }
  /**
   * Not signed in: wrong email, password or code (one answer for all), or refused unchecked
   * while the account or address waits. `retryAt` says when the next attempt is looked at.
   */
  | { kind: 'refused'; retryAt: Date | null; locked: boolean };

let standIn: Promise<string> | undefined;
/** A hash no password matches, checked when no account has the email (the same scrypt work). */
const standInHash = () => (standIn ??= hashPassword(randomBytes(32).toString('base64url')));

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const addressOf = (origin: RequestOrigin) => origin.address ?? 'unknown';

/** Records without making the answer wait on it: an unknown email answers as fast as a known one. */
function inBackground(work: Promise<unknown>): void {
  work.catch((err) => log.error('sign-in', 'background work failed', err));
}

async function fileEvent(kind: SecurityEventKind, email: string, userId: string | null, origin: RequestOrigin, detail: Record<string, unknown> = {}) {
  await recordSecurityEvent({
    kind,
    email,
    userId,
    workspaceId: userId ? await homeWorkspaceOf(userId) : null,
    address: origin.address,
    userAgent: origin.userAgent,
    detail,
  });
}

/** Tells the account's owner their sign-in was locked: when, from where, until when. */
async function tellOwnerOfLock(userId: string | null, email: string, origin: RequestOrigin, until: Date) {
  if (!userId) return;
  await sendEmail({
    to: email,
    subject: 'Herald: sign-in to your account was locked',
    text:
      `Someone failed to sign in to your Herald account ${ACCOUNT_POLICY.lockAt} times in a row` +
      `${origin.address ? `, last from the address ${origin.address}` : ''}, so sign-in is locked until ${until.toUTCString()}.\n\n` +
      'If it was you, wait until then. If it was not, nothing was opened: your password held. Consider a longer password ' +
      'and two-factor sign-in (Security, in the app). Owners of your agency see these attempts under Security.\n',
  });
}

/** A failed check after the attempt was taken: the event, and the lock when this failure made it. */
async function failed(
  kind: 'sign_in.failed' | 'two_factor.failed',
  email: string,
  userId: string | null,
  origin: RequestOrigin,
  gate: { accountFailures: number; addressFailures: number },
  now: Date,
): Promise<SignInOutcome> {
  inBackground(fileEvent(kind, email, userId, origin, { failures: gate.accountFailures }));
  const accountLocked = justLocked(gate.accountFailures, ACCOUNT_POLICY);
  const addressLocked = justLocked(gate.addressFailures, ADDRESS_POLICY);
  if (accountLocked || addressLocked) {
    const until = new Date(now.getTime() + ACCOUNT_POLICY.lockSeconds * 1000);
    inBackground(fileEvent('sign_in.locked', email, userId, origin, { by: accountLocked ? 'account' : 'address', until: until.toISOString() }));
    if (accountLocked) inBackground(tellOwnerOfLock(userId, email, origin, until));
    return { kind: 'refused', retryAt: until, locked: true };
  }
  const waitS = Math.max(waitAfter(gate.accountFailures, ACCOUNT_POLICY), waitAfter(gate.addressFailures, ADDRESS_POLICY));
  return { kind: 'refused', retryAt: waitS > 0 ? new Date(now.getTime() + waitS * 1000) : null, locked: false };
}

async function succeeded(user: { id: string; email: string; name: string | null }, email: string, origin: RequestOrigin): Promise<SignInOutcome> {
  await signInSucceeded(email, addressOf(origin));
  const sessionToken = await createSession(user.id, origin);
  inBackground(fileEvent('sign_in.succeeded', email, user.id, origin));
  return { kind: 'signed-in', user: { id: user.id, email: user.email, name: user.name }, sessionToken };
}

/** The first step: email and password. */
export async function signInWithPassword(input: { email: string; password: string }, origin: RequestOrigin, now = new Date()): Promise<SignInOutcome> {
  const email = input.email.trim().toLowerCase();
  const gate = await takeSignInAttempt(email, addressOf(origin), now);
  if (!gate.ok) {
    inBackground(
      (async () => {
        const user = await db.user.findUnique({ where: { email }, select: { id: true } });
        await fileEvent('sign_in.throttled', email, user?.id ?? null, origin, { until: gate.retryAt.toISOString() });
      })(),
    );
    return { kind: 'refused', retryAt: gate.retryAt, locked: gate.locked };
  }
  const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true, name: true, passwordHash: true } });
  const matches = await verifyPassword(input.password, user?.passwordHash ?? (await standInHash()));
  if (!user?.passwordHash || !matches) return failed('sign_in.failed', email, user?.id ?? null, origin, gate, now);
  if (await hasTwoFactor(user.id)) {
    const challenge = randomBytes(32).toString('base64url');
    await db.signInChallenge.create({ data: { tokenHash: hashToken(challenge), userId: user.id, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS) } });
    return { kind: 'second-factor', challenge };
  }
  return succeeded(user, email, origin);
}

/** The second step: the challenge from the first and a code from the app (or a recovery code). */
export async function signInWithSecondFactor(input: { challenge: string; code: string }, origin: RequestOrigin, now = new Date()): Promise<SignInOutcome> {
  const row = await db.signInChallenge.findUnique({ where: { tokenHash: hashToken(input.challenge) } });
  if (!row || row.expiresAt <= now) return { kind: 'refused', retryAt: null, locked: false };
  const user = await db.user.findUnique({ where: { id: row.userId }, select: { id: true, email: true, name: true } });
  if (!user) return { kind: 'refused', retryAt: null, locked: false };
  const gate = await takeSignInAttempt(user.email, addressOf(origin), now);
  if (!gate.ok) return { kind: 'refused', retryAt: gate.retryAt, locked: gate.locked };
  if (!(await verifySecondFactor(user.id, input.code, now))) return failed('two_factor.failed', user.email, user.id, origin, gate, now);
  // One challenge, one session: a second use of the same challenge finds nothing.
  const { count } = await db.signInChallenge.deleteMany({ where: { id: row.id } });
  if (count === 0) return { kind: 'refused', retryAt: null, locked: false };
  await db.signInChallenge.deleteMany({ where: { expiresAt: { lt: now } } });
  return succeeded(user, user.email, origin);
}

/** "in 4 seconds", "in 15 minutes", "at 14:05 UTC": when a refused member may try again, in words. */
export function retryInWords(retryAt: Date, now = new Date()): string {
  const s = Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000));
  if (s < 90) return `in ${s} second${s === 1 ? '' : 's'}`;
  const m = Math.ceil(s / 60);
  return `in ${m} minutes (at ${retryAt.toISOString().slice(11, 16)} UTC)`;
}
