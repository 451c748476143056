// Resetting a forgotten password by email, against a real database and the local mailbox: the
// link mailed to an account (stored only as its hash), one answer and the same work for an
// unknown email, one use, the lifetime, a newer link voiding older ones, the new password's
// rules, every session ended, the throttle per email and per address, the security events,
// and what the reset forgives (a sign-in lock) and proves (the address).
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { readMailbox } from '@/server/email/mailer';
import { createWorkspace, uniq } from '@/server/testing/fixtures';
import { hashPassword } from './password';
import {
  completePasswordReset,
  RESET_LINK_MINUTES,
  requestPasswordReset,
  resetAddressKey,
  resetEmailKey,
  viewPasswordReset,
  type ResetRequestOutcome,
} from './password-reset';
import { signInWithPassword } from './sign-in';
import { accountKey } from './sign-in-throttle';
import { createSession, sessionUser } from './staff-session';

const OLD_PASSWORD = 'the old and forgotten passphrase';
const NEW_PASSWORD = 'a brand new morning passphrase';

beforeAll(() => {
  vi.stubEnv('DATA_DIR', mkdtempSync(path.join(tmpdir(), 'herald-mail-')));
  vi.stubEnv('SMTP_URL', '');
});
afterAll(() => vi.unstubAllEnvs());

/** A fresh address per request series, so one test's requests never throttle another's. */
let addresses = 0;
const address = () => `192.0.2.${++addresses}`;
const from = (addr = address()) => ({ address: addr, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0' });
const at = (base: Date, minutes: number) => new Date(base.getTime() + minutes * 60_000);
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

async function member(opts: { verified?: boolean } = {}) {
  const workspace = await createWorkspace();
  const email = `${uniq('reset')}@agency.example`;
  const user = await db.user.create({
    data: { email, passwordHash: await hashPassword(OLD_PASSWORD), emailVerified: opts.verified === false ? null : new Date() },
  });
  await db.membership.create({ data: { userId: user.id, workspaceId: workspace.id, role: 'owner' } });
  return { userId: user.id, email, workspaceId: workspace.id };
}

/** The token of the newest reset mail to `email`, once the mail (sent after the answer) is there. */
async function linkTokenFor(email: string, count = 1): Promise<string> {
  let token = '';
  await vi.waitFor(
    async () => {
      const mails = (await readMailbox(email)).filter((m) => m.subject === 'Reset your Herald password');
      expect(mails).toHaveLength(count);
      token = /\/signin\/reset\/([A-Za-z0-9_-]+)/.exec(mails[0]!.text)![1]!;
    },
    { timeout: 5_000 },
  );
  return token;
}

/** Asks for a link for a member and returns its token. */
async function resetLinkOf(email: string, now = new Date(), origin = from()): Promise<string> {
  const before = (await readMailbox(email)).filter((m) => m.subject === 'Reset your Herald password').length;
  expect(await requestPasswordReset({ email }, origin, now)).toEqual({ kind: 'sent' });
  return linkTokenFor(email, before + 1);
}

describe('asking for a reset link', () => {
  it('mails a link to the account, stored only as its hash, working for an hour', async () => {
    const { email, userId } = await member();
    const origin = from();
    const t0 = new Date();
    // As typed: spaces and capitals do not matter.
    expect(await requestPasswordReset({ email: ` ${email.toUpperCase()} ` }, origin, t0)).toEqual({ kind: 'sent' });
    const token = await linkTokenFor(email);
    const [mail] = await readMailbox(email);
    expect(mail!.text).toContain(`within ${RESET_LINK_MINUTES} minutes`);
    expect(mail!.text).toContain(origin.address);

    const rows = await db.passwordReset.findMany({ where: { userId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.expiresAt.getTime() - t0.getTime()).toBe(RESET_LINK_MINUTES * 60_000);
    expect(rows[0]!.address).toBe(origin.address);

    expect(await viewPasswordReset(token, t0)).toEqual({ state: 'live', email, expiresAt: rows[0]!.expiresAt.toISOString() });
    expect(await viewPasswordReset('x'.repeat(43))).toEqual({ state: 'invalid' });
    expect(await viewPasswordReset('not even the right shape')).toEqual({ state: 'invalid' });
  });

  it('answers an unknown email exactly as a known one, with the same work before the answer, and sends nothing', async () => {
    const known = await member();
    const unknown = `${uniq('nobody')}@agency.example`;
    // Spaced two hours apart, so the throttle never answers instead.
    const t0 = new Date(Date.now() - 48 * 3600_000);
    const timed = async (email: string, i: number): Promise<{ outcome: ResetRequestOutcome; ms: number }> => {
      const started = performance.now();
      const outcome = await requestPasswordReset({ email }, from(), at(t0, i * 120));
      return { outcome, ms: performance.now() - started };
    };
    const knownAnswers: Array<{ outcome: ResetRequestOutcome; ms: number }> = [];
    const unknownAnswers: Array<{ outcome: ResetRequestOutcome; ms: number }> = [];
    for (let i = 0; i < 7; i++) {
      knownAnswers.push(await timed(known.email, i));
      unknownAnswers.push(await timed(unknown, i));
    }
    expect(unknownAnswers.map((a) => a.outcome)).toEqual(knownAnswers.map((a) => a.outcome));
    expect(new Set(knownAnswers.map((a) => JSON.stringify(a.outcome)))).toEqual(new Set([JSON.stringify({ kind: 'sent' })]));
    // The known account's work (the link, the event, the mail) happens after the answer: the
    // answers take alike (loose bounds: one shared machine).
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    const k = median(knownAnswers.map((a) => a.ms));
    const u = median(unknownAnswers.map((a) => a.ms));
    expect(u).toBeGreaterThan(k / 3);
    expect(k).toBeLessThan(u * 3);

    await linkTokenFor(known.email, 7);
    expect(await readMailbox(unknown)).toEqual([]);
    expect(await db.passwordReset.count({ where: { user: { email: unknown } } })).toBe(0);
  });

  it('refuses a malformed email as a field problem, not as an answer about accounts', async () => {
    await expect(requestPasswordReset({ email: 'not an email' }, from())).rejects.toThrow();
  });

  it('is throttled per email typed (known or not, alike) and per address, through the sign-in gate', async () => {
    const { email } = await member();
    const unknown = `${uniq('nobody')}@agency.example`;
    const t0 = new Date();
    const series = async (who: string) => {
      const origin = from();
      const answers: ResetRequestOutcome[] = [];
      // Three at once, then a wait of 2 s, then 4 s; the fifth request locks for an hour.
      for (const s of [0, 0, 0, 0, 2, 6, 6 + 8, 60]) answers.push(await requestPasswordReset({ email: who }, origin, new Date(t0.getTime() + s * 1000)));
      return answers;
    };
    const knownAnswers = await series(email);
    const unknownAnswers = await series(unknown);
    const shape = (o: ResetRequestOutcome) => (o.kind === 'throttled' ? { kind: o.kind, waitS: Math.round((o.retryAt.getTime() - t0.getTime()) / 1000) } : o);
    expect(knownAnswers.map(shape)).toEqual(unknownAnswers.map(shape));
    expect(knownAnswers.map(shape)).toEqual([
      { kind: 'sent' },
      { kind: 'sent' },
      { kind: 'sent' },
      { kind: 'throttled', waitS: 2 },
      { kind: 'sent' },
      { kind: 'sent' },
      // The fifth request locked the email for an hour from the 6th second.
      { kind: 'throttled', waitS: 6 + 3600 },
      { kind: 'throttled', waitS: 6 + 3600 },
    ]);
    const throttled = knownAnswers[3] as Extract<ResetRequestOutcome, { kind: 'throttled' }>;
    expect(throttled.inWords).toBe('in 2 seconds');
    // Five links were asked for and sent; the refused ones sent nothing.
    await linkTokenFor(email, 5);
    // Its own keys: sign-in's counts are untouched.
    expect(await db.signInThrottle.findUnique({ where: { key: accountKey(email) } })).toBeNull();
    expect(await db.signInThrottle.findUnique({ where: { key: resetEmailKey(email) } })).toMatchObject({ failures: 5 });

    // Per address: ten emails from one address at once, then it waits.
    const office = from();
    for (let i = 0; i < 10; i++) expect(await requestPasswordReset({ email: `${uniq('o')}@agency.example` }, office, t0)).toEqual({ kind: 'sent' });
    const eleventh = await requestPasswordReset({ email: `${uniq('o')}@agency.example` }, office, t0);
    expect(eleventh).toMatchObject({ kind: 'throttled' });
    expect(await db.signInThrottle.findUnique({ where: { key: resetAddressKey(office.address) } })).toMatchObject({ failures: 10 });
  });

  it('files the request as a security event of the member’s agency, with where from', async () => {
    const { email, userId, workspaceId } = await member();
    const origin = from();
    await resetLinkOf(email, new Date(), origin);
    const event = await db.securityEvent.findFirstOrThrow({ where: { userId, kind: 'password.reset_requested' } });
    expect(event).toMatchObject({ workspaceId, email, address: origin.address, userAgent: origin.userAgent });
  });
});

describe('setting a new password from the link', () => {
  it('works once: the password changes, every session ends, the link then says it was used', async () => {
    const { email, userId, workspaceId } = await member();
    const phone = await createSession(userId, { address: '192.0.2.10', userAgent: 'Safari on iPhone' });
    const laptop = await createSession(userId, { address: '192.0.2.11', userAgent: 'Chrome on macOS' });
    await db.signInChallenge.create({ data: { tokenHash: sha256(uniq('challenge')), userId, expiresAt: at(new Date(), 5) } });
    const token = await resetLinkOf(email);

    const origin = from();
    expect(await completePasswordReset(token, { password: NEW_PASSWORD }, origin)).toEqual({ email, endedSessions: 2 });
    expect(await sessionUser(phone)).toBeNull();
    expect(await sessionUser(laptop)).toBeNull();
    expect(await db.signInChallenge.count({ where: { userId } })).toBe(0);

    // The new password signs in; the old one does not.
    expect(await signInWithPassword({ email, password: OLD_PASSWORD }, from())).toMatchObject({ kind: 'refused' });
    expect(await signInWithPassword({ email, password: NEW_PASSWORD }, from())).toMatchObject({ kind: 'signed-in' });

    // Once.
    expect(await viewPasswordReset(token)).toEqual({ state: 'used' });
    await expect(completePasswordReset(token, { password: 'yet another fine passphrase' }, origin)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('used already'),
    });
    expect(await signInWithPassword({ email, password: NEW_PASSWORD }, from())).toMatchObject({ kind: 'signed-in' });

    // The security event, and the member told by email.
    const event = await db.securityEvent.findFirstOrThrow({ where: { userId, kind: 'password.reset' } });
    expect(event).toMatchObject({ workspaceId, email, actorUserId: userId, address: origin.address, detail: { endedSessions: 2 } });
    await vi.waitFor(async () => expect((await readMailbox(email)).map((m) => m.subject)).toContain('Herald: your password was reset'));
  });

  it('expires after its lifetime', async () => {
    const { email } = await member();
    const t0 = new Date(Date.now() - 2 * 3600_000);
    const token = await resetLinkOf(email, t0);
    expect(await viewPasswordReset(token, at(t0, RESET_LINK_MINUTES - 1))).toMatchObject({ state: 'live' });
    expect(await viewPasswordReset(token, at(t0, RESET_LINK_MINUTES))).toEqual({ state: 'expired' });
    await expect(completePasswordReset(token, { password: NEW_PASSWORD }, from())).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('expired'),
    });
    expect(await signInWithPassword({ email, password: OLD_PASSWORD }, from())).toMatchObject({ kind: 'signed-in' });
  });

  it('takes only the newest link; setting the password voids any other still outstanding', async () => {
    const { email, userId } = await member();
    const first = await resetLinkOf(email);
    const second = await resetLinkOf(email);
    expect(await viewPasswordReset(first)).toEqual({ state: 'replaced' });
    await expect(completePasswordReset(first, { password: NEW_PASSWORD }, from())).rejects.toMatchObject({ message: expect.stringContaining('newer') });

    // One more live link, as two requests racing could leave.
    const stray = randomBytes(32).toString('base64url');
    await db.passwordReset.create({ data: { userId, tokenHash: sha256(stray), expiresAt: at(new Date(), 30) } });
    expect(await viewPasswordReset(stray)).toMatchObject({ state: 'live' });

    await completePasswordReset(second, { password: NEW_PASSWORD }, from());
    expect(await viewPasswordReset(stray)).toEqual({ state: 'replaced' });
    expect(await db.passwordReset.count({ where: { userId, usedAt: null, replacedAt: null } })).toBe(0);
  });

  it('holds the new password to the sign-up rules, and a refused password leaves the link usable', async () => {
    const { email } = await member();
    const token = await resetLinkOf(email);
    await expect(completePasswordReset(token, { password: 'short' }, from())).rejects.toMatchObject({
      field: 'password',
      message: expect.stringContaining('10'),
    });
    await expect(completePasswordReset(token, { password: 'password123' }, from())).rejects.toMatchObject({
      field: 'password',
      message: expect.stringContaining('guessed'),
    });
    const local = email.split('@')[0]!;
    await expect(completePasswordReset(token, { password: `${local} likes long walks` }, from())).rejects.toMatchObject({
      field: 'password',
      message: expect.stringContaining(`“${local}”, the name in your email address`),
    });
    expect(await viewPasswordReset(token)).toMatchObject({ state: 'live' });
    await completePasswordReset(token, { password: NEW_PASSWORD }, from());
  });

  it('ends a sign-in lock set by guessers, and counts the address as confirmed', async () => {
    const { email, userId } = await member({ verified: false });
    await db.signInThrottle.create({ data: { key: accountKey(email), failures: 10, lastFailedAt: new Date(), retryAt: at(new Date(), 15) } });
    expect(await signInWithPassword({ email, password: OLD_PASSWORD }, from())).toMatchObject({ kind: 'refused', locked: true });
    const token = await resetLinkOf(email);
    await completePasswordReset(token, { password: NEW_PASSWORD }, from());
    expect(await signInWithPassword({ email, password: NEW_PASSWORD }, from())).toMatchObject({ kind: 'signed-in' });
    expect((await db.user.findUniqueOrThrow({ where: { id: userId } })).emailVerified).not.toBeNull();
  });

  it('of two tabs submitting at once, exactly one sets the password', async () => {
    const { email } = await member();
    const token = await resetLinkOf(email);
    const results = await Promise.allSettled([
      completePasswordReset(token, { password: 'first tab passphrase here' }, from()),
      completePasswordReset(token, { password: 'second tab passphrase here' }, from()),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'FORBIDDEN' } });
    // The notice is sent after the answer: into this file's mailbox, before it goes.
    await vi.waitFor(async () => expect((await readMailbox(email)).map((m) => m.subject)).toContain('Herald: your password was reset'));
  });
});
