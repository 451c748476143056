// PostTargetResult, the Posts view's rows, is kept by triggers (migration
// 20261130090000_post_target_results), not by the application: these tests write targets and
// readings the ways Herald's writers do (a nested create, a status update, a batch of readings,
// a seed that writes readings first) and check the row is always the target's newest reading.
// Then top posts, ranked and summed in SQL, must answer what the reference ranking over every
// window row (rankRows, total) answers, on a window with ties and unread targets.
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { metricSet, read } from '@/server/platforms/insights';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { storeReadings } from './collect';
import { byNetwork, rankRows, topPosts, total, windowRows } from './read-metrics';

const HOUR = 3_600_000;

async function target(workspaceId: string, connectionId: string, platform: string, status: string, publishedAt: Date | null) {
  const post = await db.post.create({
    data: {
      workspaceId,
      content: `Post at ${publishedAt?.toISOString() ?? 'none'}`,
      mediaUrls: [],
      platforms: [platform],
      connectionIds: [connectionId],
      status: status === 'published' ? 'published' : 'scheduled',
      scheduledAt: publishedAt ?? new Date(),
      publishedAt,
      targets: { create: { connectionId, platform, status, postedId: status === 'published' ? `p-${Math.random()}` : null, publishedAt } },
    },
    include: { targets: true },
  });
  return post.targets[0]!;
}

const metrics = (reactions: number | null, reach: number | null = null) =>
  metricSet({ reactions: read(reactions, 'like_count', 'not read'), reach: read(reach, 'reach', 'not read') }, () => 'not offered');

async function reading(
  workspaceId: string,
  t: { id: string; connectionId: string },
  platform: string,
  reactions: number | null,
  at: Date,
  slot: string | null = null,
) {
  await storeReadings(
    workspaceId,
    platform,
    'sandbox',
    [{ target: { targetId: t.id, connectionId: t.connectionId, slot }, metrics: metrics(reactions) }],
    at,
    'seed',
  );
}

const resultOf = (targetId: string) => db.postTargetResult.findUnique({ where: { targetId } });

describe('the kept rows', () => {
  it('exist while a target is published, and carry its newest reading whatever order readings arrive in', async () => {
    const { workspace } = await createWorkspaceWithKey();
    const c = await createSandboxConnection(workspace.id, { platform: 'instagram' });
    const at = new Date(Date.now() - 5 * 24 * HOUR);

    const pending = await target(workspace.id, c.id, 'instagram', 'pending', null);
    expect(await resultOf(pending.id)).toBeNull();
    await db.postTarget.update({ where: { id: pending.id }, data: { status: 'published', publishedAt: at } });
    expect(await resultOf(pending.id)).toMatchObject({
      workspaceId: workspace.id,
      postId: pending.postId,
      platform: 'instagram',
      readingId: null,
      publishedAt: at,
    });

    await reading(workspace.id, pending, 'instagram', 5, new Date(at.getTime() + HOUR), '1h');
    await reading(workspace.id, pending, 'instagram', 9, new Date(at.getTime() + 24 * HOUR), '24h');
    // An older reading arriving late (a retried job) does not replace the newer one.
    await reading(workspace.id, pending, 'instagram', 7, new Date(at.getTime() + 2 * HOUR));
    const row = await resultOf(pending.id);
    expect(row).toMatchObject({ reactions: 9, engagement: 9, source: 'sandbox', collectedAt: new Date(at.getTime() + 24 * HOUR) });
    const newest = await db.postMetricReading.findFirst({ where: { targetId: pending.id }, orderBy: [{ collectedAt: 'desc' }, { id: 'desc' }] });
    expect(row!.readingId).toBe(newest!.id);

    // Several readings of one target in one statement: the newest wins.
    await db.postMetricReading.createMany({
      data: [3, 1, 2].map((days) => ({
        targetId: pending.id,
        workspaceId: workspace.id,
        connectionId: c.id,
        platform: 'instagram',
        trigger: 'seed',
        source: 'sandbox',
        collectedAt: new Date(at.getTime() + days * 24 * HOUR),
        reactions: days * 100,
        engagement: days * 100,
      })),
    });
    expect(await resultOf(pending.id)).toMatchObject({ reactions: 300 });

    // No longer published (a repair): no row; deleted with its post.
    await db.postTarget.update({ where: { id: pending.id }, data: { status: 'failed' } });
    expect(await resultOf(pending.id)).toBeNull();
    const other = await target(workspace.id, c.id, 'instagram', 'published', at);
    expect(await resultOf(other.id)).not.toBeNull();
    await db.post.delete({ where: { id: other.postId } });
    expect(await resultOf(other.id)).toBeNull();
  });

  it('pick up readings written before the target was marked published (a seed, a repair)', async () => {
    const { workspace } = await createWorkspaceWithKey();
    const c = await createSandboxConnection(workspace.id, { platform: 'twitter' });
    const t = await target(workspace.id, c.id, 'twitter', 'publishing', null);
    await reading(workspace.id, t, 'twitter', 4, new Date(Date.now() - HOUR));
    await reading(workspace.id, t, 'twitter', 6, new Date(Date.now() - 60_000));
    await db.postTarget.update({ where: { id: t.id }, data: { status: 'published', publishedAt: new Date(Date.now() - 2 * HOUR) } });
    expect(await resultOf(t.id)).toMatchObject({ reactions: 6 });
  });
});

describe('top posts in SQL', () => {
  it('answer what the reference ranking over every window row answers: order, ties, unread targets, sums and provenance', async () => {
    const { workspace } = await createWorkspaceWithKey();
    const ig = await createSandboxConnection(workspace.id, { platform: 'instagram' });
    const x = await createSandboxConnection(workspace.id, { platform: 'twitter' });
    const base = Date.parse('2026-10-05T12:00:00Z');
    // 40 targets over four days; reactions repeat (ties), every fifth is never read, X gives no reach.
    for (let i = 0; i < 40; i++) {
      const onX = i % 3 === 0;
      const t = await target(workspace.id, onX ? x.id : ig.id, onX ? 'twitter' : 'instagram', 'published', new Date(base + (i % 4) * 24 * HOUR + i * 60_000));
      if (i % 5 === 4) continue;
      const m = onX ? metrics(i % 7) : metricSet({ reactions: read(i % 7, 'like_count', ''), reach: read(i * 10, 'reach', '') }, () => 'not offered');
      await storeReadings(
        workspace.id,
        onX ? 'twitter' : 'instagram',
        'sandbox',
        [{ target: { targetId: t.id, connectionId: t.connectionId, slot: '24h' }, metrics: m }],
        new Date(base + 5 * 24 * HOUR),
        'seed',
      );
    }
    const unreadOnly = await target(workspace.id, x.id, 'twitter', 'published', new Date(base + 24 * HOUR));
    expect(await resultOf(unreadOnly.id)).toMatchObject({ readingId: null });

    for (const query of [
      { from: '2026-10-05', to: '2026-10-08', limit: 12, sort: 'engagement' as const },
      { from: '2026-10-06', to: '2026-10-07', limit: 5, sort: 'reach' as const },
      { from: '2026-10-05', to: '2026-10-08', limit: 50, sort: 'reactions' as const, platform: 'twitter' as const },
      { from: '2026-10-01', to: '2026-10-02', limit: 10, sort: 'engagement' as const },
    ]) {
      const answer = await topPosts(workspace.id, query);
      const { rows } = await windowRows(workspace.id, query.from, query.to);
      const inFilter = rows.filter((r) => !query.platform || r.platform === query.platform);
      expect(answer.data.map((p) => p.targetId)).toEqual(rankRows(inFilter, query.sort, query.limit).map((r) => r.targetId));
      const platforms = [...new Set(inFilter.map((r) => r.platform))];
      expect(answer.networks).toEqual(byNetwork(platforms.map((p) => ({ platform: p as 'twitter', ...total(inFilter.filter((r) => r.platform === p)) }))));
      expect(answer.provenance).toMatchObject({ postsInWindow: inFilter.length, withReading: inFilter.filter((r) => r.hasReading).length });
      expect(answer.provenance.source).toBe(inFilter.some((r) => r.hasReading) ? 'sandbox' : 'post_insights');
    }
    // A metric nobody offers ranks nothing and sums to null, never 0.
    const saves = await topPosts(workspace.id, { from: '2026-10-05', to: '2026-10-08', sort: 'saves', limit: 10 });
    expect(saves.data).toEqual([]);
    expect(saves.networks.every((n) => n.saves === null)).toBe(true);
  });

  it('take the days on the workspace’s clock, across a change of daylight saving time', async () => {
    const { workspace } = await createWorkspaceWithKey();
    await db.workspace.update({ where: { id: workspace.id }, data: { timeZone: 'America/New_York' } });
    const c = await createSandboxConnection(workspace.id, { platform: 'instagram' });
    // Every 37 minutes around the end of daylight saving time (1 November 2026, New York).
    const instants = Array.from({ length: 200 }, (_, i) => new Date(Date.parse('2026-10-30T20:00:00Z') + i * 37 * 60_000));
    for (const at of instants) await target(workspace.id, c.id, 'instagram', 'published', at);
    const localDay = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(d);
    for (const [from, to] of [
      ['2026-10-31', '2026-10-31'],
      ['2026-11-01', '2026-11-01'],
      ['2026-10-31', '2026-11-02'],
    ] as const) {
      const expected = instants.filter((d) => localDay(d) >= from && localDay(d) <= to).length;
      const { rows } = await windowRows(workspace.id, from, to);
      expect(rows.length).toBe(expected);
      expect(rows.every((r) => r.day >= from && r.day <= to && r.day === localDay(r.publishedAt))).toBe(true);
      expect((await topPosts(workspace.id, { from, to, limit: 10 })).provenance.postsInWindow).toBe(expected);
    }
  });
});
