// The dashboard of the selected workspace, in one round trip: today's and this week's
// schedule (days in the workspace's time zone), posts needing attention (overdue, stuck,
// failed), approvals waiting, and the accounts' health.
import { z } from 'zod';
import { db } from '@/server/db/client';
import { listConnections } from '@/server/connections/list-connections';
import { ZConnection } from '@/server/connections/connections.schemas';
import { alertSql } from '@/server/posts/post-alerts';
import { toPostListRowDto } from '@/server/posts/post-dto';
import { ZPostListRow } from '@/server/posts/posts.schemas';
import type { Post } from '@/server/generated/prisma/client';
import { ZTimestamp } from '@/server/shared/schemas';
import { dayStart, weekStart } from '@/server/shared/time-zone';

export const ZDashboard = z.object({
  timeZone: z.string(),
  today: z.object({ from: ZTimestamp, to: ZTimestamp, posts: z.array(ZPostListRow) }),
  week: z.object({ from: ZTimestamp, to: ZTimestamp, scheduled: z.number().int(), published: z.number().int(), posts: z.array(ZPostListRow) }),
  attention: z.array(ZPostListRow),
  approvalsWaiting: z.number().int(),
  connections: z.array(ZConnection),
});
export type DashboardDto = z.infer<typeof ZDashboard>;

const RECENT_FAILURES_MS = 7 * 24 * 3_600_000;

/** When a post went out, else when it is due. */
const postTime = (p: { publishedAt: Date | null; scheduledAt: Date | null }) => (p.publishedAt ?? p.scheduledAt)?.getTime() ?? 0;

export async function loadDashboard(workspaceId: string, now = new Date()): Promise<DashboardDto> {
  const ws = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { timeZone: true } });
  const tz = ws.timeZone;
  const todayFrom = dayStart(now, tz);
  const todayTo = dayStart(now, tz, 1);
  const weekFrom = weekStart(now, tz);
  const weekTo = new Date(dayStart(weekFrom, tz, 7));
  const live = ['scheduled', 'publishing', 'published', 'partial_published', 'failed'];
  // A post belongs to the day it went out, else the day it is due: a "Publish now" post has no
  // scheduledAt at all, and one published late counts on the day it was published.
  const inRange = async (from: Date, to: Date) => {
    const posts = await db.post.findMany({
      where: {
        workspaceId,
        status: { in: live },
        OR: [{ publishedAt: { gte: from, lt: to } }, { publishedAt: null, scheduledAt: { gte: from, lt: to } }],
      },
      orderBy: [{ publishedAt: 'asc' }, { scheduledAt: 'asc' }],
      take: 200,
    });
    return posts.sort((a, b) => postTime(a) - postTime(b));
  };
  const [today, week, attention, approvalsWaiting, connections] = await Promise.all([
    inRange(todayFrom, todayTo),
    inRange(weekFrom, weekTo),
    db.$queryRaw<Post[]>`
      SELECT * FROM "Post" WHERE "workspaceId" = ${workspaceId}::uuid
        AND (${alertSql('any', now)} OR ("status" IN ('failed', 'partial_published') AND "updatedAt" > ${new Date(now.getTime() - RECENT_FAILURES_MS)}))
      ORDER BY "updatedAt" DESC LIMIT 50`,
    db.post.count({ where: { workspaceId, approvalStatus: 'pending', status: { in: ['draft', 'scheduled'] } } }),
    listConnections(workspaceId),
  ]);
  // The failures' summary ("platform: error" per failed account) comes from their targets.
  const targets = attention.length ? await db.postTarget.findMany({ where: { postId: { in: attention.map((p) => p.id) } } }) : [];
  const targetsOf = (id: string) => targets.filter((t) => t.postId === id);
  return {
    timeZone: tz,
    today: { from: todayFrom.toISOString(), to: todayTo.toISOString(), posts: today.map((p) => toPostListRowDto(p)) },
    week: {
      from: weekFrom.toISOString(),
      to: weekTo.toISOString(),
      scheduled: week.filter((p) => p.status === 'scheduled').length,
      published: week.filter((p) => p.status === 'published' || p.status === 'partial_published').length,
      posts: week.map((p) => toPostListRowDto(p)),
    },
    attention: attention.map((p) => toPostListRowDto(p, targetsOf(p.id))),
    approvalsWaiting,
    connections,
  };
}
