// Listing and revoking a managed workspace's client links, and the one-hour link a member
// opens from the app's Connections screen (the same hosted page and flow a client uses).
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { createRequestContext } from '@/server/trpc/context';
import { createCaller } from '@/server/root';
import { HEADERS } from '@/server/shared/headers';
import { useClientLinkApi } from '@/server/testing/client-link-api';
import { createWorkspace, createWorkspaceWithKey } from '@/server/testing/fixtures';

const { api, raw } = useClientLinkApi();
type Links = {
  data: { id: string; kind: string; brand: { name: string; logoUrl: string | null }; expiresAt: string }[];
  error: { code: string; field?: string };
};

beforeAll(() => {
  process.env.CONNECT_BASE_URL = 'https://connect.agency.test';
  process.env.CONNECT_SANDBOX = 'on';
});

async function agencyWithClient() {
  const agency = await createWorkspaceWithKey();
  const client = await api('POST', '/workspaces', { key: agency.secret, body: { name: 'Client Co' } });
  return { agency, clientId: client.body.data.id as string };
}
const tokenOf = (url: string) => url.split('/').at(-1)!;

describe('GET /workspaces/{id}/links', () => {
  it('lists live connect and review links with brand and expiry, never a URL or token', async () => {
    const { agency, clientId } = await agencyWithClient();
    const c = await api('POST', `/workspaces/${clientId}/connect-url`, {
      key: agency.secret,
      body: { brand: { name: 'Acme', logoUrl: 'https://cdn.test/l.png' } },
    });
    const r = await api('POST', `/workspaces/${clientId}/review-url`, { key: agency.secret, body: { expiresInDays: 2 } });
    // Expired and revoked links are not listed.
    const old = await api('POST', `/workspaces/${clientId}/connect-url`, { key: agency.secret, body: {} });
    await db.clientLink.updateMany({
      where: { workspaceId: clientId, expiresAt: new Date(old.body.data.expiresAt) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });

    const res = await api('GET', `/workspaces/${clientId}/links`, { key: agency.secret });
    expect(res.status).toBe(200);
    const links = (res.body as unknown as Links).data;
    expect(links.map((l) => l.kind).sort()).toEqual(['connect', 'review']);
    expect(links.find((l) => l.kind === 'connect')!.brand).toEqual({ name: 'Acme', logoUrl: 'https://cdn.test/l.png' });
    expect(links.find((l) => l.kind === 'review')!.expiresAt).toBe(r.body.data.expiresAt);
    expect(res.text).not.toContain(tokenOf(c.body.data.url));
  });

  it('revokes one link: it answers CONNECT_TOKEN_INVALID, the others stay live', async () => {
    const { agency, clientId } = await agencyWithClient();
    const first = await api('POST', `/workspaces/${clientId}/connect-url`, { key: agency.secret, body: {} });
    const second = await api('POST', `/workspaces/${clientId}/connect-url`, { key: agency.secret, body: {} });
    const listed = (await api('GET', `/workspaces/${clientId}/links`, { key: agency.secret })).body as unknown as Links;
    const firstRow = await db.clientLink.findFirstOrThrow({ where: { workspaceId: clientId, expiresAt: new Date(first.body.data.expiresAt) } });
    expect(listed.data.map((l) => l.id)).toContain(firstRow.id);

    const res = await api('DELETE', `/workspaces/${clientId}/links/${firstRow.id}`, { key: agency.secret });
    expect(res.status).toBe(204);
    expect((await raw('GET', `/public/connect/${tokenOf(first.body.data.url)}`)).body.error.code).toBe('CONNECT_TOKEN_INVALID');
    expect((await raw('GET', `/public/connect/${tokenOf(second.body.data.url)}`)).status).toBe(200);
    expect(((await api('GET', `/workspaces/${clientId}/links`, { key: agency.secret })).body as unknown as Links).data).toHaveLength(1);
  });

  it('one agency never lists or revokes another’s client links; a link id of another client is 404', async () => {
    const a = await agencyWithClient();
    const b = await agencyWithClient();
    await api('POST', `/workspaces/${b.clientId}/connect-url`, { key: b.agency.secret, body: {} });
    const bLink = await db.clientLink.findFirstOrThrow({ where: { workspaceId: b.clientId } });

    const list = await api('GET', `/workspaces/${b.clientId}/links`, { key: a.agency.secret });
    expect(list.status).toBe(404);
    expect((list.body as unknown as Links).error.code).toBe('WORKSPACE_NOT_FOUND');
    const revoke = await api('DELETE', `/workspaces/${b.clientId}/links/${bLink.id}`, { key: a.agency.secret });
    expect((revoke.body as unknown as Links).error.code).toBe('WORKSPACE_NOT_FOUND');
    // Through its own client, naming b's link.
    const crossed = await api('DELETE', `/workspaces/${a.clientId}/links/${bLink.id}`, { key: a.agency.secret });
    expect(crossed.status).toBe(404);
    expect((crossed.body as unknown as Links).error).toMatchObject({ code: 'CLIENT_LINK_NOT_FOUND', field: 'linkId' });
    expect((await db.clientLink.findUniqueOrThrow({ where: { id: bLink.id } })).revokedAt).toBeNull();
  });

  it('needs workspaces:manage and refuses the selection header, like every /workspaces route', async () => {
    const { agency, clientId } = await agencyWithClient();
    const reader = await api('POST', `/workspaces/${clientId}/api-keys`, { key: agency.secret, body: { name: 'r', scopes: ['posts:read'] } });
    expect(((await api('GET', `/workspaces/${clientId}/links`, { key: reader.body.data.secret })).body as unknown as Links).error.code).toBe('SCOPE_MISSING');
    const header = await api('GET', `/workspaces/${clientId}/links`, { key: agency.secret, headers: { [HEADERS.workspace]: clientId } });
    expect((header.body as unknown as Links).error.code).toBe('WORKSPACE_HEADER_NOT_ALLOWED');
  });
});

describe('connections.connectLink (the app’s Connect and Reconnect)', () => {
  async function memberOf(workspaceId: string, role: string) {
    const user = await db.user.create({ data: { email: `u-${crypto.randomUUID()}@example.com` } });
    await db.membership.create({ data: { userId: user.id, workspaceId, role } });
    return (selected?: string) =>
      createCaller(createRequestContext({ transport: 'trpc', headers: new Headers(selected ? { [HEADERS.workspace]: selected } : {}), staffUserId: user.id }));
  }

  it('issues a one-hour link for the acting workspace, own or client, that connects a sandbox account there', async () => {
    const agency = await createWorkspace({ name: 'Agency' });
    const client = await createWorkspace({ name: 'Client', managedById: agency.id });
    const as = await memberOf(agency.id, 'member');
    for (const ws of [agency, client]) {
      const link = (await as(ws.id).connections.connectLink()).data;
      expect(new Date(link.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(3_600_000);
      const token = tokenOf(link.url);
      const page = await raw('GET', `/public/connect/${token}`);
      expect(page.body.data.workspace).toEqual({ id: ws.id, name: ws.name, timeZone: ws.timeZone });
      const session = await raw('POST', `/public/connect/${token}/session`);
      const started = await raw('POST', `/public/connect/${token}/authorize`, { body: { session: session.body.data.session, platform: 'linkedin' } });
      expect(started.status, JSON.stringify(started.body)).toBeLessThan(300);
      expect((await as(ws.id).connections.list()).data.map((c) => c.platform)).toEqual(['linkedin']);
    }
  });

  it('a reviewer may not; a detach revokes the app’s links of the client too', async () => {
    const agency = await createWorkspace();
    const client = await createWorkspace({ managedById: agency.id });
    await expect((await memberOf(agency.id, 'reviewer'))(client.id).connections.connectLink()).rejects.toThrow(/posts:write/);
    const owner = await memberOf(agency.id, 'owner');
    const link = (await owner(client.id).connections.connectLink()).data;
    await owner().workspaces.detach({ id: client.id });
    expect((await raw('GET', `/public/connect/${tokenOf(link.url)}`)).body.error.code).toBe('CONNECT_TOKEN_INVALID');
  });
});
