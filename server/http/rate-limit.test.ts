// Per-workspace rate limit: shared budget in PostgreSQL, 429 flat body, Retry-After and
// the IETF RateLimit headers.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { usePublicApi } from '@/server/testing/public-api';
import { createKey, createWorkspaceWithKey } from '@/server/testing/fixtures';

const api = usePublicApi();
beforeAll(() => {
  vi.stubEnv('RATE_LIMIT_PER_MINUTE', '5');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe('rate limit', () => {
  it('spends one request per call and refuses the sixth with 429', async () => {
    const { workspace, secret } = await createWorkspaceWithKey();
    const first = await api('GET', '/connections', { key: secret });
    expect(first.headers.get('ratelimit-policy')).toBe('"workspace";q=5;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"workspace";r=4;t=\d+$/);
    for (let i = 0; i < 4; i++) expect((await api('GET', '/connections', { key: secret })).status).toBe(200);

    const refused = await api('GET', '/connections', { key: secret });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ statusCode: 429, message: expect.stringContaining('5 requests per minute'), error: 'Too Many Requests' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit')).toMatch(/^"workspace";r=0;t=\d+$/);

    // The budget is kept in PostgreSQL, where every Herald process reads the same counter.
    const row = await db.rateLimit.findUniqueOrThrow({ where: { key: `ws:${workspace.id}` } });
    expect(row.points).toBeGreaterThanOrEqual(5);
  });

  it('is per workspace and shared by every key of it', async () => {
    const a = await createWorkspaceWithKey();
    const second = await createKey(a.workspace.id);
    const b = await createWorkspaceWithKey();
    for (let i = 0; i < 3; i++) await api('GET', '/connections', { key: a.secret });
    for (let i = 0; i < 2; i++) await api('GET', '/connections', { key: second.secret });
    expect((await api('GET', '/connections', { key: second.secret })).status).toBe(429);
    expect((await api('GET', '/connections', { key: b.secret })).status).toBe(200);
  });

  it('counts requests from another process against the same budget', async () => {
    const { workspace, secret } = await createWorkspaceWithKey();
    // Another Herald process spent four requests: its counter row is what we share.
    await db.rateLimit.create({ data: { key: `ws:${workspace.id}`, points: 4, expire: BigInt(Date.now() + 60_000) } });
    expect((await api('GET', '/connections', { key: secret })).status).toBe(200);
    expect((await api('GET', '/connections', { key: secret })).status).toBe(429);
  });
});
