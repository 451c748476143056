// Resetting a forgotten password by email: the "Forgot your password?" of the sign-in page.
//
//   1. A request names an email. It is taken from the sign-in throttle's gate under keys of its
//      own (per email typed, whether or not an account has it, and per address), so a script
//      cannot flood a mailbox nor probe addresses at speed.
//   2. The answer is the same whatever the address: no oracle. Before answering, a known and an
//      unknown email do the same work (the gate, a token drawn and hashed, one lookup); the
//      link is written and mailed after the answer, as sign-in files its events, so neither
//      the words nor the timing say whether an account exists.
//   3. The link works once, for RESET_LINK_MINUTES; only the sha256 of its token is stored. A
//      newer link voids the older ones.
//   4. Setting the new password (the rules of sign-up, password-rules.ts) spends the link,
//      voids every other, ends every session of the member (the reset itself opens none: a
//      second factor, if on, is still asked at sign-in), forgets the account's failed
//      sign-ins (the mailbox is proven: a lock set by guessers ends), counts the address as
//      confirmed, and is a security event; the member is told by email.
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { env } from '@/server/config/env';
import { db } from '@/server/db/client';
import { sendEmail } from '@/server/email/mailer';
import { AppError } from '@/server/errors/app-error';
import { log } from '@/server/observability/log';
import type { RequestOrigin } from '@/server/observability/request-origin';
import { homeWorkspaceOf, recordSecurityEvent } from '@/server/security-events/security-events';
import { hashPassword } from './password';
import { checkNewPassword, MAX_PASSWORD_LENGTH } from './password-rules';
import { retryInWords } from './sign-in';
import { forgetAccountFailures, takeAttempts, type ThrottlePolicy } from './sign-in-throttle';
import { endSessionsOf } from './staff-session';

/** How long a reset link works: long enough to switch to the mailbox, short enough to go stale unused. */
export const RESET_LINK_MINUTES = 60;

/** Requests per email typed: three at once, then growing waits; the fifth in an hour pauses it for an hour. */
export const RESET_EMAIL_POLICY: ThrottlePolicy = { free: 3, lockAt: 5, lockSeconds: 60 * 60, forgetSeconds: 60 * 60 };
/** Requests per address: room for an office asking for several people, then the same shape. */
export const RESET_ADDRESS_POLICY: ThrottlePolicy = { free: 10, lockAt: 20, lockSeconds: 60 * 60, forgetSeconds: 60 * 60 };

export const resetEmailKey = (email: string) => `reset:account:${email.trim().toLowerCase()}`;
export const resetAddressKey = (address: string) => `reset:address:${address}`;

export const ZRequestResetInput = z.strictObject({ email: z.string().trim().toLowerCase().pipe(z.email().max(254)) });
export const ZCompleteResetInput = z.strictObject({ password: z.string().min(1).max(MAX_PASSWORD_LENGTH) });

export type ResetRequestOutcome =
  /** The one answer for every address: if an account has it, a link is on its way. */
  | { kind: 'sent' }
  /** Too many requests for this email or from this address: nothing sent; ask again then. */
  | { kind: 'throttled'; retryAt: Date; inWords: string };

/** What the reset link's page shows: the form while the link is live, else why not (no ids). */
export type ResetLinkView = { state: 'live'; email: string; expiresAt: string } | { state: 'invalid' | 'used' | 'replaced' | 'expired' };

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
/** Tokens Herald issues (256 random bits, base64url); anything else is refused without a lookup. */
const wellFormed = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);
export const resetLink = (token: string) => `${env.baseUrl()}/signin/reset/${token}`;

/** Runs without making the answer wait on it; a failure is logged (the member can ask again). */
function inBackground(work: Promise<unknown>): void {
  work.catch((err) => log.error('password-reset', 'background work failed', err));
}

/** Writes the link (voiding older ones), records the request, and mails it. */
async function issue(user: { id: string; email: string }, token: string, tokenHash: string, origin: RequestOrigin, now: Date): Promise<void> {
  const workspaceId = await homeWorkspaceOf(user.id);
  await db.$transaction(async (tx) => {
    await tx.passwordReset.updateMany({ where: { userId: user.id, usedAt: null, replacedAt: null }, data: { replacedAt: now } });
    await tx.passwordReset.create({
      data: { userId: user.id, tokenHash, expiresAt: new Date(now.getTime() + RESET_LINK_MINUTES * 60_000), address: origin.address, createdAt: now },
    });
    await recordSecurityEvent(
      { kind: 'password.reset_requested', userId: user.id, email: user.email, workspaceId, address: origin.address, userAgent: origin.userAgent },
      tx,
    );
  });
  await sendEmail({
    to: user.email,
    subject: 'Reset your Herald password',
    text:
      `Someone asked to reset the password of your Herald account (${user.email})` +
      `${origin.address ? ` from the address ${origin.address}` : ''}.\n\n` +
      `To choose a new password, open this link within ${RESET_LINK_MINUTES} minutes. It works once, and signs out every session of your account:\n\n` +
      `${resetLink(token)}\n\n` +
      'If it was not you, ignore this message: your password stays as it is, and the link is of no use without this mailbox.\n',
  });
}

/**
 * Asks for a reset link for `email`. The same answer whether or not an account has it; the
 * link (if any) is written and sent after the answer.
 */
export async function requestPasswordReset(raw: z.input<typeof ZRequestResetInput>, origin: RequestOrigin, now = new Date()): Promise<ResetRequestOutcome> {
  const { email } = ZRequestResetInput.parse(raw);
  const gate = await takeAttempts(
    [
      { key: resetEmailKey(email), policy: RESET_EMAIL_POLICY },
      { key: resetAddressKey(origin.address ?? 'unknown'), policy: RESET_ADDRESS_POLICY },
    ],
    now,
  );
  if (!gate.ok) return { kind: 'throttled', retryAt: gate.retryAt, inWords: retryInWords(gate.retryAt, now) };
  // Drawn and hashed for every request, so an unknown email costs what a known one does.
  const token = randomBytes(32).toString('base64url');
  const tokenHash = sha256(token);
  // A released account's placeholder is no one's address: it gets no link.
  const user = await db.user.findFirst({ where: { email, releasedAt: null }, select: { id: true, email: true } });
  if (user) inBackground(issue(user, token, tokenHash, origin, now));
  else log.info('password-reset', 'a reset was asked for an email no account has; nothing sent');
  return { kind: 'sent' };
}

async function findLink(token: string) {
  if (!wellFormed(token)) return null;
  return db.passwordReset.findUnique({
    where: { tokenHash: sha256(token) },
    include: { user: { select: { id: true, email: true, emailVerified: true, releasedAt: true } } },
  });
}
type LinkRow = NonNullable<Awaited<ReturnType<typeof findLink>>>;

/** Where a link stands: one rule for the page and for setting the password. */
function stateOf(row: LinkRow | null, now: Date): ResetLinkView['state'] {
  if (!row || row.user.releasedAt) return 'invalid';
  if (row.usedAt) return 'used';
  if (row.replacedAt) return 'replaced';
  return row.expiresAt <= now ? 'expired' : 'live';
}

const NOT_LIVE: Record<Exclude<ResetLinkView['state'], 'live'>, string> = {
  invalid: 'This reset link is not valid: ask for a new one',
  used: 'This reset link was used already: ask for a new one if you need to',
  replaced: 'A newer reset link replaced this one: use the newest email, or ask again',
  expired: `This reset link has expired (links work for ${RESET_LINK_MINUTES} minutes): ask for a new one`,
};

/** What the reset link's page shows. */
export async function viewPasswordReset(token: string, now = new Date()): Promise<ResetLinkView> {
  const row = await findLink(token);
  const state = stateOf(row, now);
  return state === 'live' ? { state, email: row!.user.email, expiresAt: row!.expiresAt.toISOString() } : { state };
}

/**
 * Sets a new password from a live link. Refused with FORBIDDEN (the link's state in words) when
 * the link cannot be used, VALIDATION_FAILED on `password` when the password breaks a rule.
 */
export async function completePasswordReset(
  token: string,
  raw: z.input<typeof ZCompleteResetInput>,
  origin: RequestOrigin,
  now = new Date(),
): Promise<{ email: string; endedSessions: number }> {
  const input = ZCompleteResetInput.parse(raw);
  const row = await findLink(token);
  const state = stateOf(row, now);
  if (state !== 'live') throw new AppError('FORBIDDEN', NOT_LIVE[state]);
  const { user } = row!;
  checkNewPassword(input.password, user.email);
  const passwordHash = await hashPassword(input.password);
  const workspaceId = await homeWorkspaceOf(user.id);
  const endedSessions = await db.$transaction(async (tx) => {
    // Spent exactly once, even with two tabs submitting at the same moment: the update's own
    // condition decides.
    const spent = await tx.passwordReset.updateMany({
      where: { id: row!.id, usedAt: null, replacedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (spent.count !== 1) throw new AppError('FORBIDDEN', NOT_LIVE.used);
    await tx.passwordReset.updateMany({ where: { userId: user.id, usedAt: null, replacedAt: null }, data: { replacedAt: now } });
    // The link reached the mailbox, so the address is confirmed (as a team invitation does).
    await tx.user.update({ where: { id: user.id }, data: { passwordHash, passwordChangedAt: now, emailVerified: user.emailVerified ?? now } });
    const ended = await endSessionsOf(user.id, { tx });
    // A password step passed with the old password no longer leads to a session.
    await tx.signInChallenge.deleteMany({ where: { userId: user.id } });
    await recordSecurityEvent(
      {
        kind: 'password.reset',
        userId: user.id,
        actorUserId: user.id,
        email: user.email,
        workspaceId,
        address: origin.address,
        userAgent: origin.userAgent,
        detail: { endedSessions: ended },
      },
      tx,
    );
    return ended;
  });
  await forgetAccountFailures(user.email);
  inBackground(
    sendEmail({
      to: user.email,
      subject: 'Herald: your password was reset',
      text:
        `The password of your Herald account was reset with a link sent to this address${origin.address ? `, from the address ${origin.address}` : ''}. ` +
        'Every session of your account was signed out.\n\n' +
        'If it was not you, someone can read this mailbox: secure it, reset your password again, and turn on two-factor sign-in (Security, in the app).\n',
    }),
  );
  return { email: user.email, endedSessions };
}
