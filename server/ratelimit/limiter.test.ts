// The leased counter: requests are counted in memory against points leased from the shared
// PostgreSQL counter, and the leases of every instance together never exceed the limit.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { consumeRequest } from './limiter';

afterEach(() => vi.unstubAllEnvs());

const counter = async (ws: string) => (await db.rateLimit.findUnique({ where: { key: `ws:${ws}` } }))?.points ?? 0;
const remaining = (headers: Record<string, string>) => Number(/r=(\d+)/.exec(headers.RateLimit!)![1]);

describe('leased rate limit', () => {
  it('leases a batch from the shared counter and counts requests from memory', async () => {
    vi.stubEnv('RATE_LIMIT_PER_MINUTE', '600');
    const ws = randomUUID();
    const first = await consumeRequest(ws);
    expect(remaining(first.headers)).toBe(599);
    expect(await counter(ws)).toBe(50);
    for (let i = 0; i < 49; i++) await consumeRequest(ws);
    expect(await counter(ws)).toBe(50); // 50 requests, one round trip
    expect(remaining((await consumeRequest(ws)).headers)).toBe(549);
    expect(await counter(ws)).toBe(100);
  });

  it('takes only what another instance left of the window, then refuses', async () => {
    vi.stubEnv('RATE_LIMIT_PER_MINUTE', '100');
    const ws = randomUUID();
    await db.rateLimit.create({ data: { key: `ws:${ws}`, points: 95, expire: BigInt(Date.now() + 60_000) } });
    for (let i = 0; i < 5; i++) await consumeRequest(ws);
    await expect(consumeRequest(ws)).rejects.toMatchObject({ code: 'RATE_LIMITED', headers: { 'Retry-After': expect.stringMatching(/^\d+$/) } });
  });

  it('grants exactly the limit to 1,000 concurrent requests, and again in the next window', async () => {
    vi.stubEnv('RATE_LIMIT_PER_MINUTE', '300');
    const ws = randomUUID();
    const outcomes = await Promise.allSettled(Array.from({ length: 1000 }, () => consumeRequest(ws)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(300);
    expect(outcomes.filter((o) => o.status === 'rejected').every((o) => (o as PromiseRejectedResult).reason.code === 'RATE_LIMITED')).toBe(true);
    // The window ends (moved back in time here): the next request opens a new one.
    await db.rateLimit.update({ where: { key: `ws:${ws}` }, data: { expire: BigInt(Date.now() - 1) } });
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 61_000);
    expect(remaining((await consumeRequest(ws)).headers)).toBe(299);
    vi.restoreAllMocks();
  });

  it('shares one budget between two limiters racing on the same counter (two instances)', async () => {
    vi.stubEnv('RATE_LIMIT_PER_MINUTE', '200');
    const ws = randomUUID();
    // A second instance's leases, taken directly on the shared row while this one spends.
    const other = async () => {
      let got = 0;
      for (let i = 0; i < 40; i++) {
        const { rows } = await db.$queryRaw<{ points: number }[]>`
          INSERT INTO "rate_limits" ("key", "points", "expire") VALUES (${`ws:${ws}`}, 10, ${BigInt(Date.now() + 60_000)})
          ON CONFLICT ("key") DO UPDATE SET "points" = "rate_limits"."points" + 10 RETURNING "points"`.then((r) => ({ rows: r }));
        got += Math.max(0, Math.min(10, 200 - (rows[0]!.points - 10)));
      }
      return got;
    };
    const [mine, theirs] = await Promise.all([
      Promise.allSettled(Array.from({ length: 400 }, () => consumeRequest(ws))).then((o) => o.filter((x) => x.status === 'fulfilled').length),
      other(),
    ]);
    expect(mine + theirs).toBeLessThanOrEqual(200);
    expect(mine + theirs).toBeGreaterThanOrEqual(200 - 50); // at most one unused lease left over
  });
});
