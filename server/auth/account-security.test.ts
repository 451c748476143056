// Protecting staff accounts, against a real database: the sign-in throttle (the 6th to 10th
// failure, counted by two separate instances), no oracle for unknown emails, the lock told to
// the owner; two-factor enrolment, sign-in and recovery; sessions ended (and refused on their
// next request), expiring when idle and at the absolute limit; what ends sessions; the
// agency's requirement; common passwords; security events kept append-only.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { readMailbox } from '@/server/email/mailer';
import { createRequestContext } from '@/server/trpc/context';
import { createCaller } from '@/server/root';
import { createWorkspace, uniq } from '@/server/testing/fixtures';
import { startSignInInstance, type SignInInstance } from '@/server/testing/sign-in-instances';
import { changeMemberRole, removeMember } from '@/server/workspaces/members';
import { changePassword } from './account';
import { hashPassword } from './password';
import { checkNewPassword } from './password-rules';
import { signInWithPassword, signInWithSecondFactor, type SignInOutcome } from './sign-in';
import { resolveStaffActor } from './staff-actor';
import { createSession, endSession, listSessions, SESSION_ABSOLUTE_S, SESSION_IDLE_S, sessionUser } from './staff-session';
import { totpCode, totpStep } from './totp';
import { confirmEnrolment, disableTwoFactor, regenerateRecoveryCodes, setTwoFactorRequirement, startEnrolment } from './two-factor';

const PASSWORD = 'a long and unusual passphrase';
const here = { address: '198.51.100.7', userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Chrome/130.0 Safari/537.36' };

beforeAll(() => {
  vi.stubEnv('DATA_DIR', mkdtempSync(path.join(tmpdir(), 'herald-mail-')));
  vi.stubEnv('SMTP_URL', '');
});
afterAll(() => vi.unstubAllEnvs());

async function member(opts: { role?: string; workspaceId?: string } = {}) {
  const workspaceId = opts.workspaceId ?? (await createWorkspace()).id;
  const email = `${uniq('m')}@agency.example`;
  const user = await db.user.create({ data: { email, passwordHash: await hashPassword(PASSWORD) } });
  const membership = await db.membership.create({ data: { userId: user.id, workspaceId, role: opts.role ?? 'owner' } });
  return { userId: user.id, email, workspaceId, membershipId: membership.id };
}

const at = (base: Date, seconds: number) => new Date(base.getTime() + seconds * 1000);
/** A fresh address per test, so one test's failures never throttle another's. */
const address = () => `203.0.113.${Math.floor(Math.random() * 250) + 1}`;

describe('the sign-in throttle', () => {
  let a: SignInInstance;
  let b: SignInInstance;
  beforeAll(() => {
    a = startSignInInstance();
    b = startSignInInstance();
  });
  afterAll(() => {
    a.stop();
    b.stop();
  });

  it('answers the 6th to 10th failures only after a growing wait, then locks: counted alike by two instances', async () => {
    const { email } = await member();
    const from = address();
    const t0 = new Date();
    const send = (instance: SignInInstance, seconds: number, password = 'wrong password here') =>
      instance.attempt({ email, password, now: at(t0, seconds), address: from });
    const retryIn = (answer: { retryAt?: string | null }, seconds: number) => (new Date(answer.retryAt!).getTime() - at(t0, seconds).getTime()) / 1000;

    // Five free failures, alternating instances; the fifth announces the first wait.
    for (let i = 1; i <= 4; i++) expect(await send(i % 2 ? a : b, 0)).toMatchObject({ kind: 'refused', retryAt: null, locked: false });
    const fifth = await send(b, 0);
    expect(retryIn(fifth, 0)).toBe(2);
    expect(a.pid).not.toBe(b.pid);

    // 6th to 10th: each must wait twice as long as the one before; early, even the right
    // password is refused unchecked, on either instance.
    let t = 0;
    for (const [n, wait] of [
      [6, 2],
      [7, 4],
      [8, 8],
      [9, 16],
      [10, 32],
    ] as const) {
      const early = await send(n % 2 ? b : a, t + wait - 1, PASSWORD);
      expect(early, `attempt ${n} sent early`).toMatchObject({ kind: 'refused', locked: false });
      expect(retryIn(early, t + wait - 1)).toBe(1);
      t += wait;
      const answer = await send(n % 2 ? a : b, t);
      if (n < 10) expect(retryIn(answer, t), `wait after failure ${n}`).toBe(2 * wait);
      else expect(answer).toMatchObject({ kind: 'refused', locked: true });
    }
    // Locked 15 minutes: the right password is refused until then, then accepted.
    expect(await send(a, t + 60, PASSWORD)).toMatchObject({ kind: 'refused', locked: true });
    expect(await send(b, t + 15 * 60 - 1, PASSWORD)).toMatchObject({ kind: 'refused', locked: true });
    expect(await send(b, t + 15 * 60, PASSWORD)).toMatchObject({ kind: 'signed-in' });

    // The owner was told, once.
    const mails = (await readMailbox(email)).filter((m) => m.subject.includes('locked'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(from);
  });

  it('answers an unknown email exactly like a wrong password, and does the same work', async () => {
    const { email } = await member();
    const unknown = `${uniq('nobody')}@agency.example`;
    const t0 = new Date();
    const run = async (who: string) => {
      const from = address();
      const answers: Array<SignInOutcome & { ms: number }> = [];
      for (const s of [0, 0, 0, 0, 0, 1, 2, 3, 7, 15]) {
        const started = performance.now();
        const outcome = await signInWithPassword({ email: who, password: 'not the password' }, { address: from, userAgent: null }, at(t0, s));
        answers.push({ ...outcome, ms: performance.now() - started });
      }
      return answers;
    };
    const known = await run(email);
    const none = await run(unknown);
    const shape = (o: SignInOutcome) => (o.kind === 'refused' ? { kind: o.kind, locked: o.locked, waits: o.retryAt !== null } : o);
    expect(none.map(shape)).toEqual(known.map(shape));
    // The password hash is computed for an unknown email too (scrypt takes milliseconds).
    const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    const checked = (rs: typeof known) => rs.slice(0, 5).map((r) => r.ms);
    expect(median(checked(none))).toBeGreaterThan(median(checked(known)) / 3);
  });

  it('records failures, the lock and sign-ins as security events with where from', async () => {
    const { email, userId, workspaceId } = await member();
    const from = address();
    const t0 = new Date(Date.now() - 3600_000);
    for (let i = 0; i < 5; i++) await signInWithPassword({ email, password: 'nope nope nope' }, { address: from, userAgent: 'test-agent' }, t0);
    await vi.waitFor(async () => expect(await db.securityEvent.count({ where: { userId, kind: 'sign_in.failed' } })).toBe(5));
    const event = await db.securityEvent.findFirstOrThrow({ where: { userId, kind: 'sign_in.failed' } });
    expect(event).toMatchObject({ workspaceId, email, address: from, userAgent: 'test-agent' });
  });
});

describe('two-factor sign-in', () => {
  it('enrols with a code from the app, then asks for one at sign-in; recovery codes work once', async () => {
    const { email, userId } = await member();
    const origin = { address: address(), userAgent: here.userAgent };
    const keep = await createSession(userId, origin);
    const other = await createSession(userId, origin);
    const { secret, uri } = await startEnrolment(userId);
    expect(uri).toContain(`secret=${secret}`);
    const now = new Date();
    await expect(confirmEnrolment(userId, '000000', keep, now)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'code' });
    const { recoveryCodes } = await confirmEnrolment(userId, totpCode(secret, totpStep(now)), keep, now);
    expect(recoveryCodes).toHaveLength(10);
    // Turning it on ends the member's other sessions, not the one they acted from.
    expect(await sessionUser(keep)).not.toBeNull();
    expect(await sessionUser(other)).toBeNull();

    // The password alone no longer signs in: a challenge, then the code.
    const later = at(now, 60);
    const first = await signInWithPassword({ email, password: PASSWORD }, origin, later);
    expect(first.kind).toBe('second-factor');
    const challenge = (first as { challenge: string }).challenge;
    expect(await signInWithSecondFactor({ challenge, code: '123456' }, origin, later)).toMatchObject({ kind: 'refused' });
    const code = totpCode(secret, totpStep(later));
    const signedIn = await signInWithSecondFactor({ challenge, code }, origin, later);
    expect(signedIn.kind).toBe('signed-in');
    // A code is good once; a challenge too.
    const again = (await signInWithPassword({ email, password: PASSWORD }, origin, later)) as { challenge: string };
    expect(await signInWithSecondFactor({ challenge: again.challenge, code }, origin, later)).toMatchObject({ kind: 'refused' });
    expect(await signInWithSecondFactor({ challenge, code: totpCode(secret, totpStep(later) + 1) }, origin, later)).toMatchObject({ kind: 'refused' });

    // A recovery code instead of the app, once, in any case and with or without its dash.
    const recovery = recoveryCodes[0]!;
    expect(await signInWithSecondFactor({ challenge: again.challenge, code: recovery.toUpperCase().replace('-', ' ') }, origin, later)).toMatchObject({
      kind: 'signed-in',
    });
    const third = (await signInWithPassword({ email, password: PASSWORD }, origin, later)) as { challenge: string };
    expect(await signInWithSecondFactor({ challenge: third.challenge, code: recovery }, origin, later)).toMatchObject({ kind: 'refused' });

    // New codes replace the old; turning it off needs a current code.
    const fresh = await regenerateRecoveryCodes(userId, recoveryCodes[1]!, keep);
    expect(await signInWithSecondFactor({ challenge: third.challenge, code: recoveryCodes[2]! }, origin, later)).toMatchObject({ kind: 'refused' });
    await expect(disableTwoFactor(userId, 'wrong-code1', keep)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await disableTwoFactor(userId, fresh.recoveryCodes[0]!, keep);
    expect(await signInWithPassword({ email, password: PASSWORD }, origin, later)).toMatchObject({ kind: 'signed-in' });
    const kinds = (await db.securityEvent.findMany({ where: { userId }, select: { kind: true } })).map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['two_factor.enabled', 'two_factor.recovery_used', 'two_factor.recovery_regenerated', 'two_factor.disabled']));
  });

  it('an agency that requires it lets a member without it do nothing but set it up', async () => {
    const owner = await member();
    const staff = await member({ workspaceId: owner.workspaceId, role: 'member' });
    await expect(setTwoFactorRequirement(owner.userId, owner.workspaceId, true)).rejects.toThrow(/yourself first/);
    const { secret } = await startEnrolment(owner.userId);
    await confirmEnrolment(owner.userId, totpCode(secret, totpStep(new Date())), null);
    await expect(setTwoFactorRequirement(staff.userId, owner.workspaceId, true)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await setTwoFactorRequirement(owner.userId, owner.workspaceId, true);

    await expect(resolveStaffActor(staff.userId, null)).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('two-factor') });
    // Their own account's procedures stay open, to set it up.
    const caller = createCaller(createRequestContext({ transport: 'trpc', headers: new Headers(), staffUserId: staff.userId }));
    await expect(caller.posts.list({})).rejects.toMatchObject({ message: expect.stringContaining('two-factor') });
    expect((await caller.security.overview()).data.twoFactor).toEqual({ enabled: false, required: true, recoveryCodesLeft: 0 });
    const started = (await caller.security.startTwoFactor()).data;
    await caller.security.confirmTwoFactor({ code: totpCode(started.secret, totpStep(new Date())) });
    expect((await resolveStaffActor(staff.userId, null)).workspaceId).toBe(owner.workspaceId);
    // Required, it cannot be turned off.
    await expect(disableTwoFactor(staff.userId, totpCode(started.secret, totpStep(new Date()) + 1), null)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('sessions', () => {
  it('lists device, address and last seen; an ended session is refused on its next request', async () => {
    const { userId } = await member();
    const mine = await createSession(userId, here);
    const phone = await createSession(userId, { address: '192.0.2.9', userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1' });
    const list = await listSessions(userId, mine);
    expect(list.map((s) => [s.current, s.device, s.address])).toEqual([
      [true, 'Chrome on macOS', here.address],
      [false, 'Safari on iOS', '192.0.2.9'],
    ]);
    await endSession(userId, list[1]!.id);
    expect(await sessionUser(phone)).toBeNull();
    expect(await sessionUser(mine)).not.toBeNull();
    // Nobody ends another member's session.
    const other = await member();
    await expect(endSession(other.userId, list[0]!.id)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('ends when unused for the idle limit and at the absolute limit, renewed by use in between', async () => {
    const { userId } = await member();
    const token = await createSession(userId, here);
    const start = new Date();
    expect(await sessionUser(token, at(start, SESSION_IDLE_S - 60))).not.toBeNull();
    // That use renewed it: another idle period from then.
    expect(await sessionUser(token, at(start, 2 * SESSION_IDLE_S - 120))).not.toBeNull();
    expect(await sessionUser(token, at(start, 3 * SESSION_IDLE_S))).toBeNull();

    const busy = await createSession(userId, here);
    let t = 0;
    while (t + SESSION_IDLE_S / 2 < SESSION_ABSOLUTE_S) {
      t += SESSION_IDLE_S / 2;
      expect(await sessionUser(busy, at(start, t))).not.toBeNull();
    }
    expect(await sessionUser(busy, at(start, SESSION_ABSOLUTE_S + 1))).toBeNull();
  });

  it('a password change, a role change and a removal end the sessions they concern', async () => {
    const owner = await member();
    const staff = await member({ workspaceId: owner.workspaceId, role: 'member' });
    const ownerHere = await createSession(owner.userId, here);
    const ownerElsewhere = await createSession(owner.userId, here);
    await expect(changePassword(owner.userId, { current: 'not it at all', next: 'another long passphrase' }, ownerHere)).rejects.toMatchObject({
      field: 'current',
    });
    await expect(changePassword(owner.userId, { current: PASSWORD, next: 'password1234' }, ownerHere)).rejects.toMatchObject({ field: 'password' });
    await changePassword(owner.userId, { current: PASSWORD, next: 'another long passphrase' }, ownerHere);
    expect(await sessionUser(ownerHere)).not.toBeNull();
    expect(await sessionUser(ownerElsewhere)).toBeNull();
    expect((await readMailbox(owner.email))[0]?.subject).toBe('Herald: your password was changed');

    const s1 = await createSession(staff.userId, here);
    await changeMemberRole(owner.userId, { membershipId: staff.membershipId, role: 'reviewer' });
    expect(await sessionUser(s1)).toBeNull();
    const s2 = await createSession(staff.userId, here);
    await expect(removeMember(staff.userId, { membershipId: owner.membershipId })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(removeMember(owner.userId, { membershipId: owner.membershipId })).rejects.toThrow(/keep an owner/);
    await removeMember(owner.userId, { membershipId: staff.membershipId });
    expect(await sessionUser(s2)).toBeNull();
    const kinds = (await db.securityEvent.findMany({ where: { workspaceId: owner.workspaceId }, select: { kind: true } })).map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['password.changed', 'member.role_changed', 'member.removed']));
  });
});

describe('passwords and the record', () => {
  it('refuses the most common passwords and short ones', () => {
    for (const weak of ['password123', 'qwerty123456', 'iloveyou2024', 'p@ssw0rd123', 'football1234', '1234567890']) {
      expect(() => checkNewPassword(weak, 'someone@agency.example'), weak).toThrow(/first ones guessed/);
    }
    expect(() => checkNewPassword('short1', 'someone@agency.example')).toThrow(/at least 10/);
    expect(() => checkNewPassword('correct horse battery staple', 'someone@agency.example')).not.toThrow();
  });

  it('keeps security events append-only: the database refuses to change or delete one', async () => {
    const { userId } = await member();
    const event = await db.securityEvent.create({ data: { kind: 'sign_in.failed', userId } });
    await expect(db.securityEvent.update({ where: { id: event.id }, data: { kind: 'sign_in.succeeded' } })).rejects.toThrow(/append-only/);
    await expect(db.securityEvent.delete({ where: { id: event.id } })).rejects.toThrow(/append-only/);
    await expect(db.$executeRawUnsafe(`DELETE FROM "SecurityEvent"`)).rejects.toThrow(/append-only/);
  });

  it('shows owners the events of their agency and its clients, and nobody else', async () => {
    const owner = await member();
    const reviewer = await member({ workspaceId: owner.workspaceId, role: 'reviewer' });
    const client = await createWorkspace({ managedById: owner.workspaceId });
    const caller = (userId: string) =>
      createCaller(createRequestContext({ transport: 'trpc', headers: new Headers({ 'x-forwarded-for': '192.0.2.44' }), staffUserId: userId }));
    await db.securityEvent.create({ data: { kind: 'key.minted', workspaceId: client.id, actorUserId: owner.userId, address: '192.0.2.44' } });
    const events = (await caller(owner.userId).security.events({ limit: 50 })).data;
    expect(events[0]).toMatchObject({ kind: 'key.minted', label: 'API key created', workspace: { id: client.id }, actor: owner.email, address: '192.0.2.44' });
    await expect(caller(reviewer.userId).security.events({ limit: 50 })).rejects.toMatchObject({ message: expect.stringContaining('owner') });
  });
});
