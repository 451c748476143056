// The tool endpoint's session check: a known session with a known key is served from this
// instance's memory, and ending the session or refusing its key, by any writer, reaches
// every instance through the database's notification.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { ensureListening } from '@/server/db/notifications';
import { eventually } from '@/server/testing/eventually';
import { createKey, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { authenticateSessionRequest, endSession, openSession } from './sessions';

const bearer = (secret: string) => `Bearer ${secret}`;
const LONG_AGO = new Date('2000-01-01T00:00:00.000Z');

/** A session, checked twice so this instance has read it once while listening. */
async function servedSession() {
  const { key, secret, workspace } = await createWorkspaceWithKey();
  await ensureListening();
  const id = await openSession({
    keyId: key.id,
    workspaceId: workspace.id,
    protocolVersion: '2025-06-18',
    clientName: 'test',
    toolsets: ['publishing', 'inbox'],
  });
  for (let i = 0; i < 2; i++) expect((await authenticateSessionRequest(bearer(secret), id)).session?.id).toBe(id);
  return { key, secret, workspace, id };
}

const lastSeenOf = async (id: string) => (await db.mcpSession.findUniqueOrThrow({ where: { id } })).lastSeenAt;

afterEach(() => vi.unstubAllEnvs());

describe('tool-endpoint sessions', () => {
  it('serves a known session from memory: no read, so a stale lastSeenAt is not refreshed until the resolution passes', async () => {
    const { secret, id, workspace } = await servedSession();
    await db.mcpSession.update({ where: { id }, data: { lastSeenAt: LONG_AGO } }); // does not notify
    const { principal, session } = await authenticateSessionRequest(bearer(secret), id);
    expect(session).toEqual({ id, keyId: principal.keyId, workspaceId: workspace.id, protocolVersion: '2025-06-18', toolsets: ['publishing', 'inbox'] });
    expect(await lastSeenOf(id)).toEqual(LONG_AGO);

    // Without the cache every call reads, and the read refreshes lastSeenAt.
    vi.stubEnv('API_KEY_CACHE_TTL_MS', '0');
    await authenticateSessionRequest(bearer(secret), id);
    expect((await lastSeenOf(id)).getTime()).toBeGreaterThan(LONG_AGO.getTime());
  });

  it('reads the toolsets chosen at initialize back from the database', async () => {
    vi.stubEnv('API_KEY_CACHE_TTL_MS', '0');
    const { secret, id } = await servedSession();
    expect((await authenticateSessionRequest(bearer(secret), id)).session?.toolsets).toEqual(['publishing', 'inbox']);
    // A session stored without toolsets works with the default ones.
    await db.mcpSession.update({ where: { id }, data: { toolsets: [] } });
    expect((await authenticateSessionRequest(bearer(secret), id)).session?.toolsets).toEqual(['publishing']);
  });

  it('forgets a session ended or deleted by any writer', async () => {
    const ended = await servedSession();
    await db.$executeRaw`UPDATE "McpSession" SET "endedAt" = now() WHERE "id" = ${ended.id}::uuid`;
    await eventually(async () => expect((await authenticateSessionRequest(bearer(ended.secret), ended.id)).session).toBeNull());

    const deleted = await servedSession();
    await db.mcpSession.delete({ where: { id: deleted.id } });
    await eventually(async () => expect((await authenticateSessionRequest(bearer(deleted.secret), deleted.id)).session).toBeNull());
  });

  it('ends at once on this instance', async () => {
    const { key, secret, id } = await servedSession();
    expect(await endSession(id, key.id)).toBe(true);
    expect((await authenticateSessionRequest(bearer(secret), id)).session).toBeNull();
  });

  it('refuses the next call once the key is revoked, though the session is remembered', async () => {
    const { key, secret, id } = await servedSession();
    await db.$executeRaw`UPDATE "ApiKey" SET "revokedAt" = now() WHERE "id" = ${key.id}::uuid`;
    await eventually(() => expect(authenticateSessionRequest(bearer(secret), id)).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: /revoked/ }));
  });

  it('never serves a remembered session to another key, nor to a wrong secret', async () => {
    const { secret, id, workspace } = await servedSession();
    const other = await createKey(workspace.id);
    expect((await authenticateSessionRequest(bearer(other.secret), id)).session).toBeNull();
    await expect(authenticateSessionRequest(bearer(`${secret.slice(0, -4)}abcd`), id)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
