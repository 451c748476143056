// /api-keys: a workspace's keys listed (never their secrets), minted and revoked; one
// workspace never sees or revokes another's; a revoked key is refused on its next request.
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { ensureListening } from '@/server/db/notifications';
import { createRequestContext } from '@/server/trpc/context';
import { createCaller } from '@/server/root';
import { HEADERS } from '@/server/shared/headers';
import { createKey, createWorkspace, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';

const api = usePublicApi();
type Body = { data: Record<string, unknown> & { id: string }; error: { code: string; field?: string } };
type ListBody = { data: { id: string; prefix: string; scopes: string[]; secret?: string; lastUsedAt: string | null }[]; error: { code: string } };

describe('GET /api-keys', () => {
  it('lists the workspace’s live keys with prefix, scopes, last use and expiry, never a secret', async () => {
    const { workspace, key, secret } = await createWorkspaceWithKey({ scopes: ['workspaces:manage', 'posts:read'] });
    const other = await createKey(workspace.id, { scopes: ['posts:read'], expiresAt: new Date(Date.now() + 86_400_000) });
    const res = await api('GET', '/api-keys', { key: secret });
    expect(res.status).toBe(200);
    const body = res.body as unknown as ListBody;
    expect(body.data.map((k) => k.id).sort()).toEqual([key.id, other.id].sort());
    const mine = body.data.find((k) => k.id === key.id)!;
    expect(mine).toMatchObject({ prefix: key.prefix, scopes: ['posts:read', 'workspaces:manage'], assistant: false });
    expect(mine.lastUsedAt).not.toBeNull();
    expect(res.text).not.toContain(secret);
    expect(res.text).not.toContain(other.secret);
    expect(body.data.find((k) => k.id === other.id)).toMatchObject({ expiresAt: other.expiresAt });
  });

  it('needs workspaces:manage', async () => {
    const { secret } = await createWorkspaceWithKey({ scopes: ['posts:read', 'posts:write', 'connections:read'] });
    for (const [method, path] of [
      ['GET', '/api-keys'],
      ['DELETE', `/api-keys/${crypto.randomUUID()}`],
    ] as const) {
      const res = await api(method, path, { key: secret });
      expect(res.status, path).toBe(403);
      expect((res.body as unknown as Body).error.code).toBe('SCOPE_MISSING');
    }
    const mint = await api('POST', '/api-keys', { key: secret, body: { name: 'x' } });
    expect((mint.body as unknown as Body).error.code).toBe('SCOPE_MISSING');
  });

  it('an agency lists a client’s keys through the selection header, and never another workspace’s', async () => {
    const agency = await createWorkspaceWithKey();
    const client = await createWorkspace({ managedById: agency.workspace.id });
    const clientKey = await createKey(client.id, { scopes: ['posts:read'] });
    const stranger = await createWorkspaceWithKey();

    const viaHeader = await api('GET', '/api-keys', { key: agency.secret, headers: { [HEADERS.workspace]: client.id } });
    expect((viaHeader.body as unknown as ListBody).data.map((k) => k.id)).toEqual([clientKey.id]);
    const own = await api('GET', '/api-keys', { key: agency.secret });
    expect((own.body as unknown as ListBody).data.map((k) => k.id)).toEqual([agency.key.id]);
    const foreign = await api('GET', '/api-keys', { key: stranger.secret, headers: { [HEADERS.workspace]: client.id } });
    expect(foreign.status).toBe(403);
    expect((foreign.body as unknown as Body).error.code).toBe('WORKSPACE_NOT_MANAGED');
  });
});

describe('POST /api-keys', () => {
  it('mints for the acting workspace; the secret is shown once and works', async () => {
    const { workspace, secret } = await createWorkspaceWithKey({ scopes: ['workspaces:manage', 'posts:read'] });
    const res = await api('POST', '/api-keys', {
      key: secret,
      body: { name: 'CI', scopes: ['posts:read'], expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect(res.status).toBe(201);
    const minted = (res.body as unknown as { data: { id: string; secret: string; scopes: string[] } }).data;
    expect(minted.scopes).toEqual(['posts:read']);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: minted.id } })).workspaceId).toBe(workspace.id);
    expect((await api('GET', '/posts', { key: minted.secret })).status).toBe(200);
  });

  it('cannot grant a scope the caller lacks; for a client, workspaces:manage is stripped; a past expiry is refused', async () => {
    const agency = await createWorkspaceWithKey({ scopes: ['workspaces:manage', 'posts:read'] });
    const more = await api('POST', '/api-keys', { key: agency.secret, body: { name: 'x', scopes: ['posts:write'] } });
    expect(more.status).toBe(403);
    expect((more.body as unknown as Body).error).toMatchObject({ code: 'SCOPE_MISSING', field: 'scopes' });

    const client = await createWorkspace({ managedById: agency.workspace.id });
    const headers = { [HEADERS.workspace]: client.id };
    const stripped = await api('POST', '/api-keys', { key: agency.secret, headers, body: { name: 'x', scopes: ['workspaces:manage', 'posts:read'] } });
    expect((stripped.body as unknown as { data: { scopes: string[] } }).data.scopes).toEqual(['posts:read']);
    const alone = await api('POST', '/api-keys', { key: agency.secret, headers, body: { name: 'x', scopes: ['workspaces:manage'] } });
    expect((alone.body as unknown as Body).error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'scopes' });
    // In its own workspace the agency may mint another managing key.
    const own = await api('POST', '/api-keys', { key: agency.secret, body: { name: 'x', scopes: ['workspaces:manage'] } });
    expect(own.status).toBe(201);

    const past = await api('POST', '/api-keys', { key: agency.secret, body: { name: 'x', expiresAt: '2020-01-01T00:00:00Z' } });
    expect((past.body as unknown as Body).error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'expiresAt' });
  });
});

describe('DELETE /api-keys/{id}', () => {
  it('revokes: the key answers 401 on its very next request, even though it was cached', async () => {
    const admin = await createWorkspaceWithKey();
    const victim = await createKey(admin.workspace.id, { scopes: ['posts:read'] });
    await ensureListening();
    // Checked once, so this instance holds it in its key cache.
    expect((await api('GET', '/posts', { key: victim.secret })).status).toBe(200);
    expect((await api('GET', '/posts', { key: victim.secret })).status).toBe(200);

    const res = await api('DELETE', `/api-keys/${victim.id}`, { key: admin.secret });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const refused = await api('GET', '/posts', { key: victim.secret });
    expect(refused.status).toBe(401);
    // Gone from the list; revoking again is the same answer.
    expect((await api('GET', '/api-keys', { key: admin.secret })).text).not.toContain(victim.id);
    expect((await api('DELETE', `/api-keys/${victim.id}`, { key: admin.secret })).status).toBe(204);
  });

  it('a workspace cannot revoke another workspace’s key (404, the key keeps working)', async () => {
    const a = await createWorkspaceWithKey();
    const b = await createWorkspaceWithKey();
    const res = await api('DELETE', `/api-keys/${b.key.id}`, { key: a.secret });
    expect(res.status).toBe(404);
    expect((res.body as unknown as Body).error).toMatchObject({ code: 'API_KEY_NOT_FOUND', field: 'id' });
    expect((await api('DELETE', '/api-keys/not-a-uuid', { key: a.secret })).status).toBe(404);
    expect((await api('GET', '/posts', { key: b.secret })).status).toBe(200);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: b.key.id } })).revokedAt).toBeNull();
  });

  it('the app revokes through the same procedure; a member (no workspaces:manage) may not', async () => {
    const { workspace } = await createWorkspaceWithKey();
    const victim = await createKey(workspace.id);
    const user = await db.user.create({ data: { email: `m-${crypto.randomUUID()}@example.com` } });
    await db.membership.create({ data: { userId: user.id, workspaceId: workspace.id, role: 'member' } });
    const caller = createCaller(createRequestContext({ transport: 'trpc', headers: new Headers(), staffUserId: user.id }));
    await expect(caller.apiKeys.revoke({ id: victim.id })).rejects.toThrow(/workspaces:manage/);
    await db.membership.updateMany({ where: { userId: user.id }, data: { role: 'owner' } });
    await caller.apiKeys.revoke({ id: victim.id });
    expect((await caller.apiKeys.list()).data.map((k) => k.id)).not.toContain(victim.id);
  });
});
