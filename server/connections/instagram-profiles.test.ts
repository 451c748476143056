// GET /instagram/profiles behind its platform-derived flag: off, it is an unknown route (for
// REST and the tool list alike); on, it lists the workspace's Instagram accounts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toolsFor } from '@/server/mcp/tools';
import { SCOPES } from '@/server/auth/scopes';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';

const api = usePublicApi();
afterEach(() => vi.unstubAllEnvs());

const flag = (on: boolean) => {
  vi.stubEnv('META_APP_ID', on ? '1234' : '');
  vi.stubEnv('META_APP_SECRET', on ? 'shh' : '');
};
const hasTool = () => toolsFor(SCOPES).some((t) => t.route.path === '/instagram/profiles');

describe('GET /instagram/profiles', () => {
  it('answers 404 ROUTE_NOT_FOUND while the flag is off, before the key is even looked at', async () => {
    flag(false);
    const w = await createWorkspaceWithKey();
    for (const key of [w.secret, 'sk_live_nonsense', undefined]) {
      const res = await api('GET', '/instagram/profiles', { key });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 'ROUTE_NOT_FOUND', message: 'No route at this method and path' } });
    }
    expect(hasTool()).toBe(false);
    // Without a Meta app secret the flag stays off.
    vi.stubEnv('META_APP_ID', '1234');
    expect((await api('GET', '/instagram/profiles', { key: w.secret })).status).toBe(404);
  });

  it('lists the workspace’s Instagram accounts when the deployment has a Meta app', async () => {
    flag(true);
    const w = await createWorkspaceWithKey();
    const ig = await createSandboxConnection(w.workspace.id, { platform: 'instagram' });
    await createSandboxConnection(w.workspace.id, { platform: 'facebook' });
    const other = await createWorkspaceWithKey();
    await createSandboxConnection(other.workspace.id, { platform: 'instagram' });
    const res = await api('GET', '/instagram/profiles', { key: w.secret });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([
      {
        connectionId: ig.id,
        handle: ig.accountName,
        displayName: ig.displayName,
        avatarUrl: null,
        provider: 'sandbox',
        status: 'active',
        connectedAt: ig.createdAt.toISOString(),
      },
    ]);
    expect(res.body.provenance).toMatchObject({ source: 'connections', collectedAt: ig.updatedAt.toISOString() });
    expect(hasTool()).toBe(true);
    const noScope = await createWorkspaceWithKey({ scopes: ['connections:read'] });
    expect((await api('GET', '/instagram/profiles', { key: noScope.secret })).body.error.code).toBe('SCOPE_MISSING');
  });

  it('keeps GET /connections as it was', async () => {
    flag(false);
    const w = await createWorkspaceWithKey();
    await createSandboxConnection(w.workspace.id, { platform: 'instagram' });
    const res = await api('GET', '/connections', { key: w.secret });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
  });
});
