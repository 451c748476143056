// Every 401 case of the API key check, with the flat body and WWW-Authenticate.
import type { ApiResponse } from '@/server/testing/api-client';
import type { ErrorBodies } from '@/server/testing/api-routes';
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { usePublicApi } from '@/server/testing/public-api';
import { createKey, createWorkspaceWithKey } from '@/server/testing/fixtures';

const api = usePublicApi();

function expectUnauthorized(res: ApiResponse<ErrorBodies>, message: RegExp) {
  expect(res.status).toBe(401);
  expect(res.body).toEqual({ statusCode: 401, message: expect.stringMatching(message), error: 'Unauthorized' });
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
}

describe('API key authentication', () => {
  it('refuses a request without a key', async () => {
    expectUnauthorized(await api('GET', '/connections'), /Missing API key/);
  });

  it('refuses a header that is not a Bearer token', async () => {
    expectUnauthorized(await api('GET', '/connections', { headers: { authorization: 'Basic dXNlcjpwYXNz' } }), /Malformed Authorization/);
  });

  it('refuses a malformed key', async () => {
    expectUnauthorized(await api('GET', '/connections', { key: 'sk_test_abc' }), /Malformed API key/);
    expectUnauthorized(await api('GET', '/connections', { key: 'sk_live_short' }), /Malformed API key/);
  });

  it('refuses an unknown key', async () => {
    expectUnauthorized(await api('GET', '/connections', { key: `sk_live_${'A'.repeat(43)}` }), /Unknown API key/);
  });

  it('refuses a key whose prefix exists but whose secret differs', async () => {
    const { secret } = await createWorkspaceWithKey();
    const forged = secret.slice(0, 20) + (secret[20] === 'A' ? 'B' : 'A') + secret.slice(21);
    expectUnauthorized(await api('GET', '/connections', { key: forged }), /Unknown API key/);
  });

  it('refuses a revoked key', async () => {
    const { key, secret } = await createWorkspaceWithKey();
    await db.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    expectUnauthorized(await api('GET', '/connections', { key: secret }), /revoked/);
  });

  it('refuses an expired key', async () => {
    const { workspace } = await createWorkspaceWithKey();
    const expired = await createKey(workspace.id, { expiresAt: new Date(Date.now() - 1000) });
    expectUnauthorized(await api('GET', '/connections', { key: expired.secret }), /expired/);
  });

  it('accepts a valid key, stores only its hash and records lastUsedAt', async () => {
    const { key, secret } = await createWorkspaceWithKey();
    const res = await api('GET', '/connections', { key: secret });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [] });
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(secret);
    await expect.poll(async () => (await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt).not.toBeNull();
  });
});
