// Scopes, the workspace-selection header rules, and one workspace never seeing another's data.
import { describe, expect, it } from 'vitest';
import { HEADERS } from '@/server/shared/headers';
import { usePublicApi } from '@/server/testing/public-api';
import { createKey, createSandboxConnection, createWorkspace, createWorkspaceWithKey } from '@/server/testing/fixtures';

const api = usePublicApi();

describe('scopes', () => {
  it('refuses a key without the route scope with SCOPE_MISSING (403)', async () => {
    const { secret } = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    const res = await api('GET', '/connections', { key: secret });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: { code: 'SCOPE_MISSING', message: expect.stringContaining('connections:read') } });
    const ws = await api('GET', '/workspaces', { key: secret });
    expect(ws.status).toBe(403);
    expect(ws.body.error.code).toBe('SCOPE_MISSING');
  });

  it('lets a key with the scope through', async () => {
    const { secret } = await createWorkspaceWithKey({ scopes: ['connections:read'] });
    expect((await api('GET', '/connections', { key: secret })).status).toBe(200);
  });
});

describe('workspace selection header', () => {
  it('lets an agency key act for a workspace it manages, and only see that workspace', async () => {
    const agency = await createWorkspaceWithKey();
    const client = await createWorkspace({ managedById: agency.workspace.id });
    const clientConn = await createSandboxConnection(client.id, { platform: 'twitter' });
    const agencyConn = await createSandboxConnection(agency.workspace.id, { platform: 'facebook' });

    const own = await api('GET', '/connections', { key: agency.secret });
    expect(own.body.data.map((c) => c.id)).toEqual([agencyConn.id]);

    const forClient = await api('GET', '/connections', { key: agency.secret, headers: { [HEADERS.workspace]: client.id } });
    expect(forClient.status).toBe(200);
    expect(forClient.body.data.map((c) => c.id)).toEqual([clientConn.id]);
  });

  it('answers 403 WORKSPACE_NOT_MANAGED for a workspace the key cannot act for', async () => {
    const agency = await createWorkspaceWithKey();
    const stranger = await createWorkspace();
    const res = await api('GET', '/connections', { key: agency.secret, headers: { [HEADERS.workspace]: stranger.id } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('WORKSPACE_NOT_MANAGED');
  });

  it('does not let a client key reach its agency or a sibling', async () => {
    const agency = await createWorkspaceWithKey();
    const a = await createWorkspace({ managedById: agency.workspace.id });
    const b = await createWorkspace({ managedById: agency.workspace.id });
    const aKey = await createKey(a.id, { scopes: ['connections:read'] });
    for (const target of [agency.workspace.id, b.id]) {
      const res = await api('GET', '/connections', { key: aKey.secret, headers: { [HEADERS.workspace]: target } });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('WORKSPACE_NOT_MANAGED');
    }
  });

  it('answers 400 WORKSPACE_NOT_MANAGED when the header is not a single uuid', async () => {
    const agency = await createWorkspaceWithKey();
    const client = await createWorkspace({ managedById: agency.workspace.id });
    for (const value of ['not-a-uuid', `${client.id},${client.id}`, '']) {
      const res = await api('GET', '/connections', { key: agency.secret, headers: { [HEADERS.workspace]: value } });
      expect(res.status, value).toBe(400);
      expect(res.body.error.code).toBe('WORKSPACE_NOT_MANAGED');
    }
  });

  it('refuses the header on /workspaces routes with WORKSPACE_HEADER_NOT_ALLOWED', async () => {
    const agency = await createWorkspaceWithKey();
    const client = await createWorkspace({ managedById: agency.workspace.id });
    const headers = { [HEADERS.workspace]: client.id };
    for (const [method, path, body] of [
      ['GET', '/workspaces', undefined],
      ['POST', '/workspaces', { name: 'X' }],
      ['GET', `/workspaces/${client.id}`, undefined],
      ['DELETE', `/workspaces/${client.id}`, undefined],
      ['POST', `/workspaces/${client.id}/api-keys`, { name: 'k' }],
    ] as const) {
      const res = await api(method, path, { key: agency.secret, headers, body });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error.code).toBe('WORKSPACE_HEADER_NOT_ALLOWED');
    }
  });

  it('uses the header name with the X-Service- prefix, case-insensitively', () => {
    expect(HEADERS.workspace).toBe('X-Service-Workspace');
  });
});
