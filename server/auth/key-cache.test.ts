// The key cache: a checked key is not read again, every change that can refuse it reaches the
// cache through the database's notification whoever wrote it, and nothing is served from
// memory while the listening connection is down.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { ensureListening, isListening, LISTENER_APPLICATION_NAME } from '@/server/db/notifications';
import { eventually } from '@/server/testing/eventually';
import { createWorkspaceWithKey } from '@/server/testing/fixtures';
import { authenticateApiKey } from './authenticate-key';

const bearer = (secret: string) => `Bearer ${secret}`;

/** Changes a key's scopes without the change notification: what only a stale cache would miss. */
async function silentlySetScopes(keyId: string, scopes: string[]) {
  await db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SET LOCAL session_replication_role = replica`);
    await tx.$executeRaw`UPDATE "ApiKey" SET "scopes" = ${scopes} WHERE "id" = ${keyId}::uuid`;
  });
}

afterEach(() => vi.unstubAllEnvs());

describe('API key cache', () => {
  it('serves a checked key from memory: a change that does not notify is not seen', async () => {
    const { key, secret } = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    await ensureListening();
    expect((await authenticateApiKey(bearer(secret))).scopes).toEqual(['posts:read']);
    await silentlySetScopes(key.id, ['posts:read', 'posts:write']);
    expect((await authenticateApiKey(bearer(secret))).scopes).toEqual(['posts:read']);
  });

  it('forgets a key when it is revoked, expires or changes scopes, by any writer', async () => {
    const { key, secret } = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    await ensureListening();
    await authenticateApiKey(bearer(secret));
    await db.apiKey.update({ where: { id: key.id }, data: { scopes: ['media:write'] } });
    await eventually(async () => expect((await authenticateApiKey(bearer(secret))).scopes).toEqual(['media:write']));
    await db.$executeRaw`UPDATE "ApiKey" SET "revokedAt" = now() WHERE "id" = ${key.id}::uuid`;
    await eventually(() => expect(authenticateApiKey(bearer(secret))).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: /revoked/ }));

    const other = await createWorkspaceWithKey();
    await authenticateApiKey(bearer(other.secret));
    await db.apiKey.delete({ where: { id: other.key.id } });
    await eventually(() => expect(authenticateApiKey(bearer(other.secret))).rejects.toMatchObject({ message: /Unknown API key/ }));
  });

  it('trusts nothing from memory while not listening, and listens again', async () => {
    const { key, secret } = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    await ensureListening();
    await authenticateApiKey(bearer(secret));
    await db.$executeRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ${LISTENER_APPLICATION_NAME} AND datname = current_database()`;
    await eventually(async () => expect(isListening()).toBe(false));
    await silentlySetScopes(key.id, ['webhooks:manage']);
    expect((await authenticateApiKey(bearer(secret))).scopes).toEqual(['webhooks:manage']);
    await eventually(async () => expect(isListening()).toBe(true));
  });

  it('reads the key every time with API_KEY_CACHE_TTL_MS=0', async () => {
    vi.stubEnv('API_KEY_CACHE_TTL_MS', '0');
    const { key, secret } = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    await ensureListening();
    await authenticateApiKey(bearer(secret));
    await silentlySetScopes(key.id, ['posts:write']);
    expect((await authenticateApiKey(bearer(secret))).scopes).toEqual(['posts:write']);
  });

  it('reads a key again once its time in memory is up', async () => {
    vi.stubEnv('API_KEY_CACHE_TTL_MS', '1');
    const { key, secret } = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    await ensureListening();
    await authenticateApiKey(bearer(secret));
    await silentlySetScopes(key.id, ['posts:write']);
    await new Promise((r) => setTimeout(r, 5));
    expect((await authenticateApiKey(bearer(secret))).scopes).toEqual(['posts:write']);
  });
});
