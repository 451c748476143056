// A new agency's way in (first run, sign-up modes, invitations, email verification and what
// an unverified owner may do) and its way out (export without secrets, deletion that closes
// every door at once, the purge), against a real database and the real HTTP API.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { requestPasswordReset, viewPasswordReset } from '@/server/auth/password-reset';
import { signInWithPassword } from '@/server/auth/sign-in';
import { resolveStaffActor } from '@/server/auth/staff-actor';
import { createSession, sessionUser } from '@/server/auth/staff-session';
import { db } from '@/server/db/client';
import { readMailbox } from '@/server/email/mailer';
import { HEADERS } from '@/server/shared/headers';
import { createRequestContext } from '@/server/trpc/context';
import { createCaller } from '@/server/root';
import { createKey } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';
import { deleteAgency, exportAgency, purgeDeletedAgencies } from './leave';
import { releasedPlaceholder } from './released-accounts';
import { createSignupInvite, EMAIL_TAKEN, isEmailTaken, signUpAgency, signUpOpen, verifyEmail } from './sign-up';

const api = usePublicApi();
beforeAll(() => {
  vi.stubEnv('DATA_DIR', mkdtempSync(path.join(tmpdir(), 'herald-mail-')));
  vi.stubEnv('SMTP_URL', '');
});
afterAll(() => vi.unstubAllEnvs());

const caller = (userId: string, workspaceId?: string) =>
  createCaller(createRequestContext({ transport: 'trpc', headers: new Headers(workspaceId ? { [HEADERS.workspace]: workspaceId } : {}), staffUserId: userId }));

const owner = (n: string) => ({
  agencyName: `Agency ${n}`,
  name: `Owner ${n}`,
  email: `owner-${n}@agency-${n}.example`,
  password: 'correct horse battery staple',
  timeZone: 'Europe/Berlin',
});

/** The link in the newest mail to `email`. */
async function verificationLink(email: string): Promise<string> {
  const [mail] = await readMailbox(email);
  expect(mail?.subject).toBe('Confirm your email for Herald');
  return /https?:\/\/\S+\/verify-email\?token=\S+/.exec(mail!.text)![0];
}

describe('the first run and sign-up modes', () => {
  it('on an empty Herald anyone creates the first agency, whatever the mode; then the mode decides', async () => {
    vi.stubEnv('SIGNUP_MODE', 'single');
    expect(await signUpOpen(undefined)).toEqual({ open: true, firstRun: true });
    const first = await signUpAgency(owner('first'));
    expect(await db.membership.findFirstOrThrow({ where: { userId: first.userId } })).toMatchObject({ workspaceId: first.workspaceId, role: 'owner' });
    expect(await db.workspace.findUniqueOrThrow({ where: { id: first.workspaceId } })).toMatchObject({
      name: 'Agency first',
      timeZone: 'Europe/Berlin',
      managedById: null,
    });

    // single: nobody else.
    expect(await signUpOpen(undefined)).toEqual({ open: false, reason: 'single' });
    await expect(signUpAgency(owner('second'))).rejects.toMatchObject({ code: 'FORBIDDEN' });

    // open: anyone, one account per email.
    vi.stubEnv('SIGNUP_MODE', 'open');
    await signUpAgency(owner('open'));
    await expect(signUpAgency({ ...owner('open'), agencyName: 'Again' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'email' });

    // invite: only with a live invitation, once, for its address.
    vi.stubEnv('SIGNUP_MODE', 'invite');
    await expect(signUpAgency(owner('uninvited'))).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('invite-only') });
    const link = await createSignupInvite('owner-invited@agency-invited.example');
    const invite = new URL(link).searchParams.get('invite')!;
    expect(await signUpOpen(invite)).toEqual({ open: true, firstRun: false });
    await expect(signUpAgency({ ...owner('other'), invite })).rejects.toMatchObject({ field: 'email', message: expect.stringContaining('owner-invited@') });
    await signUpAgency({ ...owner('invited'), invite });
    await expect(signUpAgency({ ...owner('invited2'), email: 'x2@agency-invited.example', invite })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await signUpOpen(invite)).toEqual({ open: false, reason: 'invite' });
  });

  it('refuses weak passwords and malformed fields, and writes nothing then', async () => {
    vi.stubEnv('SIGNUP_MODE', 'open');
    const before = await db.workspace.count();
    await expect(signUpAgency({ ...owner('weak'), password: 'short' })).rejects.toMatchObject({
      field: 'password',
      message: expect.stringContaining('10 characters'),
    });
    await expect(signUpAgency({ ...owner('weak'), password: 'password123' })).rejects.toMatchObject({ field: 'password' });
    await expect(signUpAgency({ ...owner('weak'), password: 'owner-weak is my password' })).rejects.toMatchObject({
      field: 'password',
      message: 'The password must not contain “owner-weak”, the name in your email address',
    });
    await expect(signUpAgency({ ...owner('weak'), password: 'owner-weak@agency-weak.example!' })).rejects.toMatchObject({
      field: 'password',
      message: 'The password must not contain your email address',
    });
    await expect(signUpAgency({ ...owner('weak'), timeZone: 'Mars/Olympus' })).rejects.toThrow();
    expect(await db.workspace.count()).toBe(before);
  });
});

describe('the demo seed', () => {
  it('refuses a database that serves a real agency, unless asked in so many words', () => {
    // Agencies signed up above are real: the demo owner's published password must not join them.
    const seed = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'prisma/seed.ts'], { env: process.env, encoding: 'utf8', timeout: 60_000 });
    expect(seed.status).toBe(1);
    expect(seed.stderr).toContain('the demo (with its published password) is not added');
    expect(seed.stderr).toContain('--with-real-agencies');
  });
});

describe('email verification', () => {
  it('sends a link to the local mailbox; until it is opened the owner tries everything inside but cannot let others in', async () => {
    vi.stubEnv('SIGNUP_MODE', 'open');
    const me = await signUpAgency(owner('verify'));
    const before = await resolveStaffActor(me.userId, null);
    expect(before.unverified).toBe(true);
    expect(before.scopes).toContain('posts:write');
    expect(before.scopes).not.toContain('workspaces:manage');
    expect(before.scopes).not.toContain('webhooks:manage');
    // The app's own calls say so: no key minted, no webhook registered.
    await expect(caller(me.userId).apiKeys.create({ name: 'too early', scopes: ['posts:read'] })).rejects.toMatchObject({
      message: expect.stringContaining('scope'),
    });

    const link = await verificationLink(me.email);
    const token = new URL(link).searchParams.get('token')!;
    expect(await verifyEmail('not-a-real-token-at-all-1234')).toEqual({ state: 'invalid' });
    expect(await verifyEmail(token)).toEqual({ state: 'confirmed', email: me.email });
    // Spent: opened again, it says so instead of asking for a new link.
    expect(await verifyEmail(token)).toEqual({ state: 'already', email: me.email });
    expect(await db.user.findUniqueOrThrow({ where: { id: me.userId } })).toMatchObject({ emailVerified: expect.any(Date) });
    const after = await resolveStaffActor(me.userId, null);
    expect(after.unverified).toBeUndefined();
    expect(after.scopes).toContain('workspaces:manage');
  });
});

describe('leaving', () => {
  it('exports without any token or secret, then deletion closes every door at once and the purge removes the rows', async () => {
    vi.stubEnv('SIGNUP_MODE', 'open');
    const me = await signUpAgency(owner('leave'));
    await verifyEmail(new URL(await verificationLink(me.email)).searchParams.get('token')!);
    const other = await signUpAgency(owner('stays'));
    const staff = caller(me.userId);
    const client = (await staff.workspaces.create({ name: 'Leaving Client' })).data;
    const connection = await db.connection.create({
      data: {
        workspaceId: client.id,
        platform: 'linkedin',
        externalId: 'li-1',
        accountName: 'c',
        displayName: 'Client LinkedIn',
        accessToken: 'sealed-access',
        refreshToken: 'sealed-refresh',
      },
    });
    const key = await createKey(me.workspaceId);
    const otherKey = await createKey(other.workspaceId);
    expect((await api('GET', '/connections', { key: key.secret })).status).toBe(200);
    await db.session.create({ data: { sessionToken: 'leaving-session', userId: me.userId, expires: new Date(Date.now() + 86_400_000) } });

    const actor = await resolveStaffActor(me.userId, null);
    const exported = JSON.stringify(await exportAgency(actor));
    expect(exported).toContain('Client LinkedIn');
    expect(exported).not.toContain('sealed-access');
    expect(exported).not.toContain(key.secret);
    expect(exported).not.toContain('secretSealed');

    await expect(deleteAgency(actor, 'Not the name')).rejects.toMatchObject({ field: 'confirmName' });
    await expect(deleteAgency(await resolveStaffActor(me.userId, client.id), 'Leaving Client')).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const { purgeAfter } = await deleteAgency(actor, 'Agency leave');
    expect(new Date(purgeAfter).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    // At once: the key refused, the tokens gone, the member signed out and without a workspace.
    const refused = await api('GET', '/connections', { key: key.secret });
    expect(refused.status).toBe(401);
    expect(await db.connection.findUniqueOrThrow({ where: { id: connection.id } })).toMatchObject({
      accessToken: null,
      refreshToken: null,
      status: 'inactive',
    });
    expect(await db.session.count({ where: { userId: me.userId } })).toBe(0);
    await expect(resolveStaffActor(me.userId, null)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // The other agency is untouched.
    expect((await api('GET', '/connections', { key: otherKey.secret })).status).toBe(200);
    // Each key closed is a security event, with why.
    const revoked = await db.securityEvent.findMany({ where: { kind: 'key.revoked', workspaceId: me.workspaceId } });
    expect(revoked.map((e) => (e.detail as { reason?: string }).reason)).toContain('agency_deleted');

    expect(await purgeDeletedAgencies(new Date())).toBe(0);
    expect(await purgeDeletedAgencies(new Date(Date.now() + 31 * 86_400_000))).toBe(2);
    expect(await db.workspace.count({ where: { id: { in: [me.workspaceId, client.id] } } })).toBe(0);
    expect(await db.user.count({ where: { id: me.userId } })).toBe(0);
    expect(await db.workspace.count({ where: { id: other.workspaceId } })).toBe(1);
  });
});

describe('coming back after leaving', () => {
  const here = { address: '198.51.100.40', userAgent: 'test-agent' };

  it('frees the owner’s email at once: the same email signs up again, and the new account reaches nothing of the old agency', async () => {
    vi.stubEnv('SIGNUP_MODE', 'open');
    const me = await signUpAgency(owner('back'));
    await verifyEmail(new URL(await verificationLink(me.email)).searchParams.get('token')!);
    const staff = caller(me.userId);
    const client = (await staff.workspaces.create({ name: 'Back Client' })).data;
    const oldPost = await db.post.create({ data: { workspaceId: me.workspaceId, content: 'The old agency’s private plan', status: 'draft' } });
    const oldKey = await createKey(me.workspaceId);
    // A teammate who works only here, and one who also works for another agency.
    const elsewhere = await signUpAgency(owner('elsewhere'));
    const onlyHere = await db.user.create({ data: { email: 'only-here@agency-back.example', passwordHash: 'x' } });
    const alsoThere = await db.user.create({ data: { email: 'also-there@agency-back.example', passwordHash: 'x' } });
    await db.membership.createMany({
      data: [
        { userId: onlyHere.id, workspaceId: me.workspaceId, role: 'member' },
        { userId: alsoThere.id, workspaceId: me.workspaceId, role: 'member' },
        { userId: alsoThere.id, workspaceId: elsewhere.workspaceId, role: 'member' },
      ],
    });
    const alsoThereSession = await createSession(alsoThere.id, here);
    // A reset link asked for before leaving.
    await requestPasswordReset({ email: me.email }, here);
    let resetToken = '';
    await vi.waitFor(async () => {
      const mail = (await readMailbox(me.email)).find((m) => m.subject === 'Reset your Herald password');
      resetToken = /\/signin\/reset\/([A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    });

    const deleted = await deleteAgency(await resolveStaffActor(me.userId, null), 'Agency back');
    expect(deleted.accountReleased).toBe(true);

    // The old account lets go of the address (kept aside until the purge) and of its password.
    expect(await db.user.findUniqueOrThrow({ where: { id: me.userId } })).toMatchObject({
      email: releasedPlaceholder(me.userId),
      releasedEmail: me.email,
      releasedAt: expect.any(Date),
      passwordHash: null,
    });
    expect(await viewPasswordReset(resetToken)).toEqual({ state: 'invalid' });
    // So does the teammate with nowhere else to go; the one who works elsewhere keeps everything.
    expect(await db.user.findUniqueOrThrow({ where: { id: onlyHere.id } })).toMatchObject({ releasedEmail: 'only-here@agency-back.example' });
    expect(await db.user.findUniqueOrThrow({ where: { id: alsoThere.id } })).toMatchObject({ email: 'also-there@agency-back.example', releasedAt: null });
    expect(await sessionUser(alsoThereSession)).toMatchObject({ id: alsoThere.id });
    const released = await db.securityEvent.findMany({ where: { kind: 'account.released', workspaceId: me.workspaceId } });
    expect(released.map((e) => e.email).sort()).toEqual([me.email, 'only-here@agency-back.example'].sort());
    expect(released.every((e) => (e.detail as { reason?: string }).reason === 'agency_deleted')).toBe(true);

    // The same minute, the same email signs up again: a new account, a new agency.
    const again = await signUpAgency({ ...owner('back'), agencyName: 'Back Again', password: 'a second start this spring' });
    expect(again.email).toBe(me.email);
    expect(again.userId).not.toBe(me.userId);
    expect(again.workspaceId).not.toBe(me.workspaceId);
    // Its email, its password: the old password opens nothing.
    expect(await signInWithPassword({ email: me.email, password: owner('back').password }, here)).toMatchObject({ kind: 'refused' });
    const signedIn = await signInWithPassword({ email: me.email, password: 'a second start this spring' }, here);
    expect(signedIn).toMatchObject({ kind: 'signed-in', user: { id: again.userId } });

    // Nothing of the old agency is reachable from the new account.
    expect((await db.membership.findMany({ where: { userId: again.userId } })).map((m) => m.workspaceId)).toEqual([again.workspaceId]);
    await expect(resolveStaffActor(again.userId, me.workspaceId)).rejects.toMatchObject({ code: 'WORKSPACE_NOT_MANAGED' });
    await expect(resolveStaffActor(again.userId, client.id)).rejects.toMatchObject({ code: 'WORKSPACE_NOT_MANAGED' });
    const posts = await caller(again.userId).posts.list({});
    expect(JSON.stringify(posts)).not.toContain(oldPost.id);
    const shell = await caller(again.userId).app.shell();
    expect(JSON.stringify(shell)).not.toContain(me.workspaceId);
    expect(JSON.stringify(shell)).not.toContain('Agency back');
    expect((await api('GET', '/connections', { key: oldKey.secret })).status).toBe(401);

    // The purge takes the old account and agency, never the new ones.
    await purgeDeletedAgencies(new Date(Date.now() + 31 * 86_400_000));
    expect(await db.user.count({ where: { id: { in: [me.userId, onlyHere.id] } } })).toBe(0);
    expect(await db.user.findUniqueOrThrow({ where: { id: again.userId } })).toMatchObject({ email: me.email, releasedAt: null });
    expect(await db.workspace.count({ where: { id: again.workspaceId } })).toBe(1);
    expect(await db.user.count({ where: { id: alsoThere.id } })).toBe(1);
  });

  it('keeps the account of an owner who works for another agency too: sign-up still sends them to sign in', async () => {
    vi.stubEnv('SIGNUP_MODE', 'open');
    const me = await signUpAgency(owner('twohats'));
    await verifyEmail(new URL(await verificationLink(me.email)).searchParams.get('token')!);
    const other = await signUpAgency(owner('hosts'));
    await db.membership.create({ data: { userId: me.userId, workspaceId: other.workspaceId, role: 'admin' } });

    const deleted = await deleteAgency(await resolveStaffActor(me.userId, me.workspaceId), 'Agency twohats');
    expect(deleted.accountReleased).toBe(false);
    expect(await db.user.findUniqueOrThrow({ where: { id: me.userId } })).toMatchObject({ email: me.email, releasedAt: null });
    const refused = await signUpAgency({ ...owner('twohats'), agencyName: 'Twohats Again' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ field: 'email', message: EMAIL_TAKEN });
    expect(isEmailTaken(refused)).toBe(true);
    expect(await resolveStaffActor(me.userId, null)).toMatchObject({ workspaceId: other.workspaceId });
  });

  it('lets a sign-up take the email of an account that belongs to no live workspace', async () => {
    vi.stubEnv('SIGNUP_MODE', 'open');
    // A member removed from every team, or an agency deleted before releases existed.
    const stranded = await db.user.create({ data: { email: 'owner-stranded@agency-stranded.example', passwordHash: 'x' } });
    const fresh = await signUpAgency(owner('stranded'));
    expect(fresh.userId).not.toBe(stranded.id);
    expect(await db.user.findUniqueOrThrow({ where: { id: stranded.id } })).toMatchObject({
      email: releasedPlaceholder(stranded.id),
      releasedEmail: 'owner-stranded@agency-stranded.example',
    });
    const event = await db.securityEvent.findFirstOrThrow({ where: { kind: 'account.released', userId: stranded.id } });
    expect(event.detail).toEqual({ reason: 'sign_up' });
  });
});
