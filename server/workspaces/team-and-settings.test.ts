// A team and its settings, against a real database and the real HTTP API: invitations by
// email (a new account with a password, or an existing one signing in; once, until expiry,
// withdrawn), leaving (never the last owner), the workspace's settings changed only by
// owners and admins, each change in the audit trail, and the brand new client links show.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyPassword } from '@/server/auth/password';
import { hashLinkToken } from '@/server/client-links/link-tokens';
import { db } from '@/server/db/client';
import { readMailbox } from '@/server/email/mailer';
import { createCaller } from '@/server/root';
import { HEADERS } from '@/server/shared/headers';
import { createKey, createWorkspace, uniq } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';
import { createRequestContext } from '@/server/trpc/context';
import { acceptInvitationAsMember, acceptInvitationWithPassword, viewInvitation } from './member-invitations';

const api = usePublicApi();
beforeAll(() => {
  vi.stubEnv('DATA_DIR', mkdtempSync(path.join(tmpdir(), 'herald-team-')));
  vi.stubEnv('SMTP_URL', '');
});
afterAll(() => vi.unstubAllEnvs());

const caller = (userId: string, workspaceId?: string) =>
  createCaller(createRequestContext({ transport: 'trpc', headers: new Headers(workspaceId ? { [HEADERS.workspace]: workspaceId } : {}), staffUserId: userId }));

async function agencyWithOwner() {
  const agency = await createWorkspace({ name: uniq('Agency') });
  const owner = await db.user.create({ data: { email: `${uniq('owner')}@agency.example`, name: 'Olive Owner', emailVerified: new Date() } });
  await db.membership.create({ data: { userId: owner.id, workspaceId: agency.id, role: 'owner' } });
  return { agency, owner };
}

async function person(email = `${uniq('person')}@example.com`) {
  return db.user.create({ data: { email, emailVerified: new Date() } });
}

const tokenOf = (link: string) => link.slice(link.lastIndexOf('/') + 1);

describe('team invitations', () => {
  it('emails a link; a person without an account sets a password and joins with the role; the link works once', async () => {
    const { agency, owner } = await agencyWithOwner();
    const email = `${uniq('new')}@example.com`;
    const sent = (await caller(owner.id).security.invite({ email: email.toUpperCase(), role: 'reviewer' })).data;
    expect(sent.invitation).toMatchObject({ email, role: 'reviewer', expired: false, invitedBy: owner.email });

    // The mail carries the same link, and says who invites to what.
    const [mail] = await readMailbox(email);
    expect(mail!.subject).toContain(agency.name);
    expect(mail!.text).toContain(sent.link);
    // Only the token's hash is stored.
    const token = tokenOf(sent.link);
    expect(await db.memberInvitation.count({ where: { tokenHash: token } })).toBe(0);
    expect(await db.memberInvitation.count({ where: { tokenHash: hashLinkToken(token) } })).toBe(1);

    expect(await viewInvitation(token)).toMatchObject({ state: 'live', agencyName: agency.name, email, role: 'reviewer', hasAccount: false });
    await expect(acceptInvitationWithPassword(token, { name: 'Rae', password: 'short' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'password',
    });
    await acceptInvitationWithPassword(token, { name: 'Rae Reviewer', password: 'a long enough passphrase here' });

    const user = await db.user.findUniqueOrThrow({ where: { email }, include: { memberships: true } });
    expect(user.emailVerified).not.toBeNull();
    expect(await verifyPassword('a long enough passphrase here', user.passwordHash!)).toBe(true);
    expect(user.memberships).toEqual([expect.objectContaining({ workspaceId: agency.id, role: 'reviewer' })]);
    expect(await viewInvitation(token)).toEqual({ state: 'used' });
    await expect(acceptInvitationWithPassword(token, { name: 'Again', password: 'a long enough passphrase here' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect((await caller(owner.id).security.invitations()).data).toEqual([]);
    const kinds = (await db.securityEvent.findMany({ where: { workspaceId: agency.id }, orderBy: { createdAt: 'asc' } })).map((e) => e.kind);
    expect(kinds).toEqual(['member.invited', 'member.added']);

    // The reviewer's role reaches the agency's clients too (the agency's roles apply there).
    const client = await createWorkspace({ name: uniq('Client'), managedById: agency.id });
    const shell = (await caller(user.id, client.id).app.shell()).data;
    expect(shell.current).toMatchObject({ id: client.id, role: 'reviewer' });
  });

  it('an existing account accepts by signing in with the invited email, and nobody else can', async () => {
    const { agency, owner } = await agencyWithOwner();
    const invited = await person();
    const other = await person();
    const { link } = (await caller(owner.id).security.invite({ email: invited.email, role: 'member' })).data;
    const token = tokenOf(link);
    expect(await viewInvitation(token)).toMatchObject({ state: 'live', hasAccount: true });
    await expect(acceptInvitationWithPassword(token, { name: 'X', password: 'a long enough passphrase here' })).rejects.toMatchObject({ field: 'email' });
    await expect(acceptInvitationAsMember(token, other.id)).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining(invited.email) });
    expect(await acceptInvitationAsMember(token, invited.id)).toEqual({ workspaceId: agency.id });
    expect(await db.membership.findFirstOrThrow({ where: { userId: invited.id } })).toMatchObject({ workspaceId: agency.id, role: 'member' });
    expect(await db.membership.count({ where: { userId: other.id } })).toBe(0);
  });

  it('refuses members and non-owners; a new invitation replaces the pending one; withdrawn and expired links are dead', async () => {
    const { agency, owner } = await agencyWithOwner();
    const admin = await person();
    await db.membership.create({ data: { userId: admin.id, workspaceId: agency.id, role: 'admin' } });
    await expect(caller(admin.id).security.invite({ email: 'x@example.com', role: 'member' })).rejects.toMatchObject({
      message: expect.stringContaining('owner'),
    });
    await expect(caller(owner.id).security.invite({ email: admin.email, role: 'member' })).rejects.toMatchObject({ message: 'They are a member already' });

    const email = `${uniq('twice')}@example.com`;
    const first = (await caller(owner.id).security.invite({ email, role: 'member' })).data;
    const second = (await caller(owner.id).security.invite({ email, role: 'admin' })).data;
    expect(await viewInvitation(tokenOf(first.link))).toEqual({ state: 'revoked' });
    expect((await caller(owner.id).security.invitations()).data.map((i) => [i.email, i.role])).toEqual([[email, 'admin']]);

    await caller(owner.id).security.revokeInvitation({ invitationId: second.invitation.id });
    expect(await viewInvitation(tokenOf(second.link))).toEqual({ state: 'revoked' });
    await expect(caller(owner.id).security.revokeInvitation({ invitationId: second.invitation.id })).rejects.toMatchObject({
      cause: { field: 'invitationId' },
    });

    const third = (await caller(owner.id).security.invite({ email, role: 'member' })).data;
    await db.memberInvitation.update({ where: { id: third.invitation.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await viewInvitation(tokenOf(third.link))).toEqual({ state: 'expired', agencyName: agency.name });
    await expect(acceptInvitationWithPassword(tokenOf(third.link), { name: 'Late', password: 'a long enough passphrase here' })).rejects.toMatchObject({
      message: expect.stringContaining('expired'),
    });
    expect(await viewInvitation('not-a-token')).toEqual({ state: 'invalid' });
  });

  it('another agency’s owner cannot see or withdraw the invitations', async () => {
    const a = await agencyWithOwner();
    const b = await agencyWithOwner();
    const sent = (await caller(a.owner.id).security.invite({ email: `${uniq('iso')}@example.com`, role: 'member' })).data;
    expect((await caller(b.owner.id).security.invitations()).data).toEqual([]);
    await expect(caller(b.owner.id).security.revokeInvitation({ invitationId: sent.invitation.id })).rejects.toMatchObject({
      cause: { field: 'invitationId' },
    });
    expect((await caller(a.owner.id).security.invitations()).data).toHaveLength(1);
  });

  it('a member leaves; the last owner cannot', async () => {
    const { agency, owner } = await agencyWithOwner();
    const member = await person();
    await db.membership.create({ data: { userId: member.id, workspaceId: agency.id, role: 'member' } });
    await caller(member.id).security.leave({ workspaceId: agency.id });
    expect(await db.membership.count({ where: { userId: member.id } })).toBe(0);
    await expect(caller(owner.id).security.leave({ workspaceId: agency.id })).rejects.toMatchObject({ message: expect.stringContaining('keep an owner') });
    const second = await person();
    await db.membership.create({ data: { userId: second.id, workspaceId: agency.id, role: 'owner' } });
    await caller(owner.id).security.leave({ workspaceId: agency.id });
    expect(await db.membership.findMany({ where: { workspaceId: agency.id }, select: { userId: true } })).toEqual([{ userId: second.id }]);
  });
});

describe('workspace settings', () => {
  it('owners and admins change them; every change is audited with who, from and to; members only read', async () => {
    const { agency, owner } = await agencyWithOwner();
    const member = await person();
    await db.membership.create({ data: { userId: member.id, workspaceId: agency.id, role: 'member' } });

    const before = (await caller(member.id).settings.get()).data;
    expect(before).toMatchObject({ name: agency.name, timeZone: 'UTC', requireApproval: false, brand: { name: null, logoUrl: null } });
    expect(before.effectiveBrand).toEqual({ name: agency.name, logoUrl: null, from: 'name' });
    await expect(caller(member.id).settings.update({ requireApproval: true })).rejects.toMatchObject({ message: expect.stringContaining('workspaces:manage') });

    const after = (await caller(owner.id).settings.update({ name: 'Northwind Agency', timeZone: 'Asia/Calcutta', requireApproval: true })).data;
    expect(after).toMatchObject({ name: 'Northwind Agency', timeZone: 'Asia/Kolkata', requireApproval: true });
    // Sending what is already there records nothing.
    await caller(owner.id).settings.update({ requireApproval: true });
    const history = (await caller(owner.id).settings.history()).data;
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      by: owner.email,
      changes: {
        name: { from: agency.name, to: 'Northwind Agency' },
        timeZone: { from: 'UTC', to: 'Asia/Kolkata' },
        requireApproval: { from: false, to: true },
      },
    });
    await expect(caller(member.id).settings.history()).rejects.toMatchObject({ message: expect.stringContaining('workspaces:manage') });
  });

  it('over REST: a key with workspaces:manage changes its clients’ settings through the header; bad input is refused', async () => {
    const { agency } = await agencyWithOwner();
    const client = await createWorkspace({ name: uniq('Client'), managedById: agency.id });
    const { secret } = await createKey(agency.id);
    const changed = await api('PATCH', '/settings', {
      key: secret,
      headers: { [HEADERS.workspace]: client.id },
      body: { brand: { name: 'Acme for Clients', logoUrl: 'https://cdn.acme.example/logo.png' } },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ workspaceId: client.id, effectiveBrand: { name: 'Acme for Clients', from: 'workspace' } });
    expect((await db.securityEvent.findFirstOrThrow({ where: { workspaceId: client.id, kind: 'settings.changed' } })).actorKeyId).not.toBeNull();

    for (const body of [{ timeZone: 'Mars/Olympus' }, { brand: { logoUrl: 'http://plain.example/logo.png' } }, { name: '' }, { colour: 'red' }]) {
      const res = await api('PATCH', '/settings', { key: secret, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const readOnly = await createKey(agency.id, { scopes: ['posts:read'] });
    expect((await api('GET', '/settings', { key: readOnly.secret })).status).toBe(200);
    const refused = await api('PATCH', '/settings', { key: readOnly.secret, body: { requireApproval: true } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('SCOPE_MISSING');
    // A client's own key never holds workspaces:manage, and cannot reach another workspace.
    const other = await agencyWithOwner();
    const foreign = await api('PATCH', '/settings', { key: secret, headers: { [HEADERS.workspace]: other.agency.id }, body: { name: 'Taken over' } });
    expect(foreign.status).toBe(403);
    expect((await db.workspace.findUniqueOrThrow({ where: { id: other.agency.id } })).name).toBe(other.agency.name);
  });

  it('new client links show the client’s brand, else the agency’s, else the agency’s name; a link’s own brand wins', async () => {
    const { agency } = await agencyWithOwner();
    const client = await createWorkspace({ name: uniq('Client'), managedById: agency.id });
    const { secret } = await createKey(agency.id);
    const issue = async (body: object = {}) => {
      const res = await api('POST', `/workspaces/${client.id}/connect-url`, { key: secret, body: { rotate: true, ...body } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return db.clientLink.findFirstOrThrow({ where: { workspaceId: client.id, revokedAt: null }, orderBy: { createdAt: 'desc' } });
    };
    expect(await issue()).toMatchObject({ brandName: agency.name, brandLogoUrl: null });
    await db.workspace.update({ where: { id: agency.id }, data: { brandName: 'Northwind', brandLogoUrl: 'https://cdn.northwind.example/n.png' } });
    expect(await issue()).toMatchObject({ brandName: 'Northwind', brandLogoUrl: 'https://cdn.northwind.example/n.png' });
    await db.workspace.update({ where: { id: client.id }, data: { brandName: 'Acme Studio' } });
    expect(await issue()).toMatchObject({ brandName: 'Acme Studio', brandLogoUrl: 'https://cdn.northwind.example/n.png' });
    expect(await issue({ brand: { name: 'Just this link' } })).toMatchObject({ brandName: 'Just this link', brandLogoUrl: null });
  });
});
