// Post results end to end against PostgreSQL: the collection schedule and the sweep on the real
// job runner (a slot read once, however often the sweep runs), batching per connection, one
// connection's failure recorded without stopping the others, null with a reason, engagement
// moved to PostTarget for best times, and the routes (scope, another workspace, CSV).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { closeJobs, startLocalRunner, type LocalRunner } from '@/server/jobs';
import { sandboxInsightsReader } from '@/server/platforms/sandbox/sandbox-insights';
import type { PostMetricsReader } from '@/server/platforms/insights';
import { PlatformError } from '@/server/platforms/publisher';
import { runnableJobs } from '@/server/runtime/job-handlers';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { publishedTarget } from '@/server/testing/posts-fixtures';
import { testDatabaseUrl } from '@/server/testing/per-file-database';
import { usePublicApi } from '@/server/testing/public-api';
import { collectConnectionMetrics, dueTargets, sweepDueMetrics } from './collect';
import { engagementOf } from './engagement';

const api = usePublicApi();
let runner: LocalRunner;
beforeAll(async () => {
  runner = await startLocalRunner({ connectionString: testDatabaseUrl(), definitions: runnableJobs, concurrency: 2, pollIntervalMs: 100 });
});
afterAll(async () => {
  await runner.stop();
  await closeJobs();
});

const HOUR = 3_600_000;

async function waitFor<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
}

describe('the collection schedule', () => {
  it('is due at the latest elapsed slot not yet read, and the sweep on the job runner writes each slot once', async () => {
    const w = await createWorkspaceWithKey();
    const ig = await createSandboxConnection(w.workspace.id, { platform: 'instagram' });
    const now = Date.now();
    const fresh = await publishedTarget(w.workspace.id, ig.id, 'instagram', new Date(now - 10 * 60_000), 'sbx-fresh');
    const dayOld = await publishedTarget(w.workspace.id, ig.id, 'instagram', new Date(now - 30 * HOUR), 'sbx-day');
    const monthOld = await publishedTarget(w.workspace.id, ig.id, 'instagram', new Date(now - 29 * 24 * HOUR), 'sbx-month');

    const due = await dueTargets(new Date(now), { connectionId: ig.id });
    expect(new Map(due.map((d) => [d.targetId, d.slot]))).toEqual(
      new Map([
        [dayOld.target.id, '24h'],
        [monthOld.target.id, '28d'],
      ]),
    );
    expect(due.some((d) => d.targetId === fresh.target.id)).toBe(false);

    await sweepDueMetrics(new Date(now));
    const readings = await waitFor(async () => {
      const rows = await db.postMetricReading.findMany({ where: { connectionId: ig.id } });
      return rows.length === 2 ? rows : undefined;
    });
    expect(readings.map((r) => [r.targetId, r.slot, r.trigger, r.source]).sort()).toEqual(
      [
        [dayOld.target.id, '24h', 'schedule', 'sandbox'],
        [monthOld.target.id, '28d', 'schedule', 'sandbox'],
      ].sort(),
    );
    // Running again (a second sweep, a retried job) writes nothing more.
    expect(await collectConnectionMetrics(ig.id)).toMatchObject({ ok: true, written: 0, requests: 0 });
    expect(await db.postMetricReading.count({ where: { connectionId: ig.id } })).toBe(2);
    // Today's follower count came with the collection, once.
    expect(await db.followerReading.findMany({ where: { connectionId: ig.id } })).toEqual([
      expect.objectContaining({ source: 'sandbox', networkName: 'sandbox.followers', value: expect.any(Number), reason: null }),
    ]);

    // Null with the reason, never 0; engagement derived once and kept on the target.
    const r = readings.find((x) => x.targetId === dayOld.target.id)!;
    expect(r.impressions).toBeNull();
    expect((r.nullReasons as Record<string, string>).impressions).toContain('Instagram');
    expect(r.engagement).toBe(engagementOf(r));
    const target = await db.postTarget.findUniqueOrThrow({ where: { id: dayOld.target.id } });
    expect(target.engagement).toBe(Math.round(r.engagement!));
    expect(target.engagementCollectedAt).toEqual(r.collectedAt);

    // A week later the 7d slot is due for the day-old post.
    const later = await dueTargets(new Date(now + 7 * 24 * HOUR), { connectionId: ig.id });
    expect(later.find((d) => d.targetId === dayOld.target.id)?.slot).toBe('7d');
  });
});

describe('follower counts', () => {
  it('the sweep reads today’s count of an account with nothing due, once a day', async () => {
    const w = await createWorkspaceWithKey();
    const quiet = await createSandboxConnection(w.workspace.id, { platform: 'bluesky' });
    const expired = await createSandboxConnection(w.workspace.id, { platform: 'bluesky', behaviour: 'expired' });
    expect(await dueTargets(new Date(), { connectionId: quiet.id })).toEqual([]);
    await sweepDueMetrics();
    const [count] = await waitFor(async () => {
      const rows = await db.followerReading.findMany({ where: { connectionId: quiet.id } });
      return rows.length ? rows : undefined;
    });
    expect(count!.value).toBeGreaterThan(0);
    // A refused token is recorded on the connection, as for post metrics; no count is invented.
    const failed = await waitFor(async () => {
      const c = await db.connection.findUniqueOrThrow({ where: { id: expired.id } });
      return c.metricsError ? c : undefined;
    });
    expect(failed.metricsError).toContain('Session has expired');
    expect(await db.followerReading.count({ where: { connectionId: expired.id } })).toBe(0);
    // Swept again the same day: nothing due for either.
    expect((await sweepDueMetrics()).connections).toBe(0);
    expect(await db.followerReading.count({ where: { connectionId: quiet.id } })).toBe(1);
  });
});

describe('batching and failure isolation', () => {
  it('asks the reader in batches of its size, and a failing connection is recorded while another is collected', async () => {
    const w = await createWorkspaceWithKey();
    const good = await createSandboxConnection(w.workspace.id, { platform: 'twitter' });
    const bad = await createSandboxConnection(w.workspace.id, { platform: 'linkedin' });
    const at = new Date(Date.now() - 2 * HOUR);
    for (let i = 0; i < 5; i++) await publishedTarget(w.workspace.id, good.id, 'twitter', at, `sbx-good-${i}`);
    await publishedTarget(w.workspace.id, bad.id, 'linkedin', at, 'sbx-bad');

    const calls: number[] = [];
    const batching: PostMetricsReader = {
      ...sandboxInsightsReader,
      maxIdsPerRequest: 2,
      readPostMetrics: (c, posts, ctx) => {
        calls.push(posts.length);
        return sandboxInsightsReader.readPostMetrics(c, posts, ctx);
      },
    };
    const failing: PostMetricsReader = {
      ...sandboxInsightsReader,
      readPostMetrics: () => Promise.reject(new PlatformError('(#4) Application request limit reached')),
    };

    const results = await Promise.all([collectConnectionMetrics(good.id, { reader: batching }), collectConnectionMetrics(bad.id, { reader: failing })]);
    expect(calls).toEqual([2, 2, 1]);
    expect(results[0]).toMatchObject({ ok: true, written: 5, requests: 3 });
    expect(results[1]).toMatchObject({ ok: false, written: 0, error: '(#4) Application request limit reached' });
    const badRow = await db.connection.findUniqueOrThrow({ where: { id: bad.id } });
    expect(badRow.metricsError).toBe('(#4) Application request limit reached');
    expect(badRow.metricsErrorAt).not.toBeNull();
    // The sweep leaves the failed connection alone for POST_METRICS_RETRY_MINUTES; its post stays due.
    const due = await dueTargets(new Date());
    expect(due.some((d) => d.connectionId === bad.id)).toBe(false);
    expect((await dueTargets(new Date(), { connectionId: bad.id })).length).toBe(1);
    expect((await db.connection.findUniqueOrThrow({ where: { id: good.id } })).metricsCollectedAt).not.toBeNull();
  });
});

describe('the routes', () => {
  async function seeded() {
    const w = await createWorkspaceWithKey();
    const ig = await createSandboxConnection(w.workspace.id, { platform: 'instagram' });
    const x = await createSandboxConnection(w.workspace.id, { platform: 'twitter' });
    // 10:00 UTC three days ago: both posts (an hour apart) on one UTC day, whatever the hour the test runs.
    const at = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - 3, 10));
    const a = await publishedTarget(w.workspace.id, ig.id, 'instagram', at, 'sbx-route-a', 'Autumn, "new" collection');
    const b = await publishedTarget(w.workspace.id, x.id, 'twitter', new Date(at.getTime() + HOUR), 'sbx-route-b', '=cmd');
    await collectConnectionMetrics(ig.id, { now: new Date(at.getTime() + 2 * HOUR) });
    await collectConnectionMetrics(ig.id, { now: new Date(at.getTime() + 30 * HOUR) });
    await collectConnectionMetrics(x.id);
    return { ...w, ig, x, a, b, day: at.toISOString().slice(0, 10) };
  }

  it('GET /posts/{id}/metrics answers per target the latest reading and the history, with provenance', async () => {
    const s = await seeded();
    const res = await api('GET', `/posts/${s.a.post.id}/metrics`, { key: s.secret });
    expect(res.status, res.text).toBe(200);
    const [t] = res.body.data.targets;
    expect(t!.history.map((h) => h.slot)).toEqual(['1h', '24h']);
    expect(t!.latest).toEqual(t!.history[1]);
    expect(t!.latest!.metrics.impressions).toBeNull();
    expect(t!.latest!.nullReasons.impressions).toContain('Instagram');
    expect(t!.history[0]!.metrics.reach!).toBeLessThan(t!.history[1]!.metrics.reach!);
    expect(res.body.provenance).toMatchObject({
      source: 'sandbox',
      label: expect.stringContaining('demo data'),
      engagementFormula: expect.stringContaining('reactions'),
    });
  });

  it('refuses a key without analytics:read, and another workspace’s post is not found', async () => {
    const s = await seeded();
    const other = await createWorkspaceWithKey();
    expect((await api('GET', `/posts/${s.a.post.id}/metrics`, { key: other.secret })).body).toMatchObject({ error: { code: 'POST_NOT_FOUND' } });
    const narrow = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    const refused = await api('GET', `/posts/${s.a.post.id}/metrics`, { key: narrow.secret });
    expect(refused.status).toBe(403);
    expect((await api('GET', `/analytics/connections/${s.ig.id}/rollup?from=${s.day}&to=${s.day}`, { key: other.secret })).body).toMatchObject({
      error: { code: 'CONNECTION_NOT_FOUND' },
    });
  });

  it('GET /analytics/top-posts ranks the window’s posts by engagement or a metric, with a platform filter', async () => {
    const s = await seeded();
    const res = await api('GET', `/analytics/top-posts?from=${s.day}&to=${s.day}&limit=5`, { key: s.secret });
    expect(res.status, res.text).toBe(200);
    const engagements = res.body.data.map((p) => p.latest.engagement!);
    expect(engagements).toEqual([...engagements].sort((a, b) => b - a));
    expect(res.body.provenance).toMatchObject({ sort: 'engagement', postsInWindow: 2, withReading: 2 });
    // The networks compared over the window: one entry each, its totals from its own readings, X's reach unknown (null, not 0).
    const networks = res.body.networks as { platform: string; posts: number; engagement: number | null; reach: number | null }[];
    expect(networks.map((n) => n.platform).sort()).toEqual(['instagram', 'twitter']);
    for (const n of networks) {
      const own = res.body.data.filter((p) => p.platform === n.platform);
      expect(n.posts).toBe(own.length);
      expect(n.engagement).toBe(own.reduce((sum, p) => sum + p.latest.engagement!, 0));
    }
    expect(networks.find((n) => n.platform === 'twitter')!.reach).toBeNull();
    // X reports no reach: sorted by reach, only Instagram's post is ranked.
    const byReach = await api('GET', `/analytics/top-posts?from=${s.day}&to=${s.day}&sort=reach`, { key: s.secret });
    expect(byReach.body.data.map((p) => p.platform)).toEqual(['instagram']);
    const onlyX = await api('GET', `/analytics/top-posts?from=${s.day}&to=${s.day}&platform=twitter`, { key: s.secret });
    expect(onlyX.body.data.map((p) => p.targetId)).toEqual([s.b.target.id]);
    const bad = await api('GET', `/analytics/top-posts?from=${s.day}&to=${s.day}&sort=likes`, { key: s.secret });
    expect(bad.body).toMatchObject({ error: { code: 'VALIDATION_FAILED', field: 'sort' } });
  });

  it('GET /analytics/connections/{id}/rollup sums the latest readings per publishing day, null where nothing was read', async () => {
    const s = await seeded();
    const next = new Date(Date.parse(`${s.day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const res = await api('GET', `/analytics/connections/${s.ig.id}/rollup?from=${s.day}&to=${next}`, { key: s.secret });
    expect(res.status, res.text).toBe(200);
    const [first, second] = res.body.data.days;
    expect(first).toMatchObject({ date: s.day, posts: 1, withReading: 1, impressions: null });
    expect(first!.reach).toBeGreaterThan(0);
    expect(second).toMatchObject({ date: next, posts: 0, reach: null, engagement: null });
    // Followers: read once a UTC day with each collection (at +2 h and at +30 h: two days).
    const counts = await db.followerReading.findMany({ where: { connectionId: s.ig.id }, orderBy: { collectedAt: 'asc' } });
    expect(counts).toHaveLength(2);
    const end = Date.parse(`${next}T00:00:00Z`) + 86_400_000;
    const inWindow = counts.filter((c) => c.collectedAt.getTime() >= Date.parse(`${s.day}T00:00:00Z`) && c.collectedAt.getTime() < end);
    const newest = counts.filter((c) => c.collectedAt.getTime() < end).at(-1)!;
    expect(res.body.data.followers).toEqual({
      value: newest.value,
      reason: null,
      networkName: 'sandbox.followers',
      collectedAt: newest.collectedAt.toISOString(),
      source: 'sandbox',
      change: inWindow.length > 1 ? newest.value! - inWindow[0]!.value! : null,
    });
    for (const day of res.body.data.days) {
      const last = inWindow.filter((c) => c.collectedAt.toISOString().startsWith(day.date)).at(-1);
      expect(day.followers).toBe(last?.value ?? null);
    }
    expect(res.body.data.days.some((d) => d.followers !== null)).toBe(true);
  });

  it('the rollup says why there is no follower count: a network that reports none, or none read yet', async () => {
    const w = await createWorkspaceWithKey();
    const li = await createSandboxConnection(w.workspace.id, { platform: 'linkedin' });
    const day = new Date().toISOString().slice(0, 10);
    const ig = await createSandboxConnection(w.workspace.id, { platform: 'instagram' });
    const unread = await api('GET', `/analytics/connections/${ig.id}/rollup?from=${day}&to=${day}`, { key: w.secret });
    expect(unread.body.data.followers).toMatchObject({ value: null, reason: expect.stringContaining('read once a day'), collectedAt: null });
    const before = await api('GET', `/analytics/connections/${li.id}/rollup?from=${day}&to=${day}`, { key: w.secret });
    expect(before.body.data.followers).toMatchObject({
      value: null,
      reason: expect.stringContaining('LinkedIn reports followers of Pages only'),
      collectedAt: null,
    });
    await collectConnectionMetrics(li.id);
    const after = await api('GET', `/analytics/connections/${li.id}/rollup?from=${day}&to=${day}`, { key: w.secret });
    expect(after.body.data.followers).toMatchObject({
      value: null,
      reason: expect.stringContaining('LinkedIn reports followers of Pages only'),
      source: 'sandbox',
    });
  });

  it('GET /analytics/posts/export.csv answers text/csv, cells quoted and formulas defused', async () => {
    const s = await seeded();
    const res = await fetch(`${api.baseUrl()}/public/v1/analytics/posts/export.csv?from=${s.day}&to=${s.day}`, {
      headers: { authorization: `Bearer ${s.secret}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="posts-${s.day}-to-${s.day}.csv"`);
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'post_id,target_id,published_at,platform,account,permalink,content,collected_at,source,impressions,reach,views,reactions,comments,shares,saves,linkClicks,videoWatchSeconds,engagement',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"Autumn, ""new"" collection"');
    expect(lines[2]).toContain(",'=cmd,");
    // Instagram's impressions: no value, an empty cell (never 0), right after the source.
    expect(lines[1]).toMatch(/,sandbox,,\d+,/);
  });

  it('POST /posts/{id}/metrics/collect queues a reading now, written by the job runner', async () => {
    const s = await seeded();
    const before = await db.postMetricReading.count({ where: { targetId: s.b.target.id } });
    const res = await api('POST', `/posts/${s.b.post.id}/metrics/collect`, { key: s.secret });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.queued).toEqual([{ targetId: s.b.target.id, connectionId: s.x.id, platform: 'twitter' }]);
    const onDemand = await waitFor(async () => {
      const rows = await db.postMetricReading.findMany({ where: { targetId: s.b.target.id, trigger: 'on_demand' } });
      return rows.length ? rows : undefined;
    });
    expect(onDemand[0]!.slot).toBeNull();
    expect(await db.postMetricReading.count({ where: { targetId: s.b.target.id } })).toBe(before + 1);
  });
});
