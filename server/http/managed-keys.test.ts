// Minting keys for managed workspaces (contract: Key minting rules).
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { usePublicApi } from '@/server/testing/public-api';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';

const api = usePublicApi();

async function agencyWithClient(scopes?: Parameters<typeof createWorkspaceWithKey>[0]) {
  const agency = await createWorkspaceWithKey(scopes);
  const client = await api('POST', '/workspaces', { key: agency.secret, body: { name: 'Client' } });
  return { agency, clientId: client.body.data.id as string };
}

describe('POST /workspaces/{id}/api-keys', () => {
  it('mints the caller scopes minus workspaces:manage when scopes are omitted; the secret works once shown', async () => {
    const { agency, clientId } = await agencyWithClient({ scopes: ['workspaces:manage', 'connections:read', 'posts:read'] });
    const res = await api('POST', `/workspaces/${clientId}/api-keys`, { key: agency.secret, body: { name: 'client key' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      name: 'client key',
      prefix: expect.stringMatching(/^sk_live_/),
      scopes: ['posts:read', 'connections:read'],
      expiresAt: null,
      createdAt: expect.any(String),
      lastUsedAt: null,
      secret: expect.stringMatching(/^sk_live_[A-Za-z0-9_-]{43}$/),
    });
    expect(res.body.warnings).toEqual([]);
    const stored = await db.apiKey.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect(stored.hash).not.toContain(res.body.data.secret);
    expect(stored.workspaceId).toBe(clientId);

    // The minted key acts on the client workspace directly, with no header.
    const conn = await createSandboxConnection(clientId);
    const list = await api('GET', '/connections', { key: res.body.data.secret });
    expect(list.body.data.map((c) => c.id)).toEqual([conn.id]);
    // …and never manages.
    expect((await api('GET', '/workspaces', { key: res.body.data.secret })).body.error.code).toBe('SCOPE_MISSING');
  });

  it('strips workspaces:manage from explicit scopes and refuses it alone', async () => {
    const { agency, clientId } = await agencyWithClient();
    const mixed = await api('POST', `/workspaces/${clientId}/api-keys`, {
      key: agency.secret,
      body: { name: 'k', scopes: ['workspaces:manage', 'posts:write'] },
    });
    expect(mixed.body.data.scopes).toEqual(['posts:write']);
    const alone = await api('POST', `/workspaces/${clientId}/api-keys`, { key: agency.secret, body: { name: 'k', scopes: ['workspaces:manage'] } });
    expect(alone.status).toBe(400);
    expect(alone.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'scopes' });
  });

  it('refuses unknown scopes (schema) and a past expiresAt', async () => {
    const { agency, clientId } = await agencyWithClient();
    const unknown = await api('POST', `/workspaces/${clientId}/api-keys`, { key: agency.secret, body: { name: 'k', scopes: ['posts:delete'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.statusCode).toBe(400);
    const past = await api('POST', `/workspaces/${clientId}/api-keys`, { key: agency.secret, body: { name: 'k', expiresAt: '2020-01-01T00:00:00Z' } });
    expect(past.status).toBe(400);
    expect(past.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'expiresAt' });
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const ok = await api('POST', `/workspaces/${clientId}/api-keys`, { key: agency.secret, body: { name: 'k', expiresAt: future } });
    expect(ok.status).toBe(201);
    expect(ok.body.data.expiresAt).toBe(future);
  });

  it('answers WORKSPACE_NOT_FOUND for a workspace not managed by the caller', async () => {
    const { clientId } = await agencyWithClient();
    const other = await createWorkspaceWithKey();
    const res = await api('POST', `/workspaces/${clientId}/api-keys`, { key: other.secret, body: { name: 'k' } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('WORKSPACE_NOT_FOUND');
  });

  it('keeps minted keys working after the workspace is detached', async () => {
    const { agency, clientId } = await agencyWithClient();
    const minted = await api('POST', `/workspaces/${clientId}/api-keys`, { key: agency.secret, body: { name: 'k' } });
    expect((await api('DELETE', `/workspaces/${clientId}`, { key: agency.secret })).status).toBe(204);
    expect((await api('GET', '/connections', { key: minted.body.data.secret })).status).toBe(200);
    expect((await db.workspace.findUniqueOrThrow({ where: { id: clientId } })).managedById).toBeNull();
  });
});
