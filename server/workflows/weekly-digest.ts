// weekly-digest: the last N days (7 by default) of publishing outcomes — posts by status,
// per-platform target outcomes, failures with the platform's own error, and top posts by
// engagement where Herald knows it (null where it does not; never 0).
import { db } from '@/server/db/client';
import { iso, isoOrNull } from '@/server/shared/schemas';
import type { z } from 'zod';
import type { ZDigestSummary } from './workflows.schemas';

type Summary = z.infer<typeof ZDigestSummary>;
const DAY_MS = 24 * 3_600_000;
const MAX_FAILURES = 20;
const TOP_POSTS = 5;
/** Published posts of the window considered for the top list. */
const TOP_CANDIDATES = 200;

export async function weeklyDigest(workspaceId: string, input: { days?: number }, now = new Date()): Promise<Summary> {
  const from = new Date(now.getTime() - (input.days ?? 7) * DAY_MS);
  const window = { gte: from, lte: now };
  const [byStatus, targets, failures, published] = await Promise.all([
    db.post.groupBy({ by: ['status'], where: { workspaceId, updatedAt: window }, _count: { _all: true } }),
    db.postTarget.groupBy({ by: ['platform', 'status'], where: { post: { workspaceId }, updatedAt: window }, _count: { _all: true } }),
    db.postTarget.findMany({
      where: { post: { workspaceId }, status: 'failed', updatedAt: window },
      orderBy: { updatedAt: 'desc' },
      take: MAX_FAILURES,
      select: { id: true, postId: true, platform: true, error: true },
    }),
    db.post.findMany({
      where: { workspaceId, status: { in: ['published', 'partial_published'] }, publishedAt: window },
      orderBy: { publishedAt: 'desc' },
      take: TOP_CANDIDATES,
      select: { id: true, publishedAt: true, targets: { select: { engagement: true } } },
    }),
  ]);
  const perPlatform: Summary['targets'] = {};
  for (const row of targets) {
    const entry = (perPlatform[row.platform] ??= { published: 0, failed: 0, pending: 0 });
    if (row.status === 'published') entry.published += row._count._all;
    else if (row.status === 'failed') entry.failed += row._count._all;
    else entry.pending += row._count._all;
  }
  return {
    from: iso(from),
    to: iso(now),
    posts: {
      total: byStatus.reduce((n, r) => n + r._count._all, 0),
      byStatus: Object.fromEntries(byStatus.map((r) => [r.status, r._count._all])),
    },
    targets: perPlatform,
    failures: failures.map((f) => ({ postId: f.postId, targetId: f.id, platform: f.platform, error: f.error })),
    // A post's engagement is the sum of its targets' readings; null while no platform reported
    // one. Most engaging first, posts without a reading after them, newest first among equals.
    topPosts: published
      .map((p) => {
        const readings = p.targets.flatMap((t) => (t.engagement === null ? [] : [t.engagement]));
        return { postId: p.id, publishedAt: isoOrNull(p.publishedAt), engagement: readings.length ? readings.reduce((a, b) => a + b, 0) : null };
      })
      .sort((a, b) => (b.engagement ?? -1) - (a.engagement ?? -1))
      .slice(0, TOP_POSTS),
  };
}
