// Response times: how long the account took to answer comments, direct messages and reviews,
// together and kind by kind. An item's time to first reply
// runs from when its author wrote it (networkCreatedAt) to the account's first reply (repliedAt,
// from Herald or on the network). Over a period (days of the workspace's time zone, an item
// counted by when it was written) the workspace's figure is the median of those times and the
// share answered within its target (responseTargetMinutes), computed in one SQL statement.
// The account's own items are not counted; nor is a comment deleted before anyone answered it.
// An unanswered item younger than the target at `now` is not late yet: it counts as unanswered
// but not against the share.
import { Prisma } from '@/server/generated/prisma/client';
import { db } from '@/server/db/client';
import { addDays, todayIn } from '@/server/shared/analytics-window';

export interface KindResponseTimes {
  answered: number;
  unanswered: number;
  medianMinutes: number | null;
  withinTarget: number | null;
}

export interface ResponseTimes extends KindResponseTimes {
  from: string;
  to: string;
  targetMinutes: number;
  byKind: Record<'comment' | 'message' | 'review', KindResponseTimes>;
}

type Row = { kind: string | null; answered: bigint; unanswered: bigint; median: number | null; within: bigint; due: bigint };

function figures(row: Row | undefined): KindResponseTimes {
  const due = Number(row?.due ?? 0);
  return {
    answered: Number(row?.answered ?? 0),
    unanswered: Number(row?.unanswered ?? 0),
    medianMinutes: row?.median == null ? null : Math.round(row.median * 10) / 10,
    withinTarget: due === 0 ? null : Math.round((Number(row!.within) / due) * 1000) / 1000,
  };
}

/** The default period: the last 30 days, today included. */
export const RESPONSE_TIMES_DAYS = 30;

export async function responseTimes(workspaceId: string, period: { from?: string; to?: string } = {}, now: Date = new Date()): Promise<ResponseTimes> {
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { timeZone: true, responseTargetMinutes: true } });
  const { timeZone } = workspace;
  const target = workspace.responseTargetMinutes;
  const to = period.to ?? todayIn(timeZone, now);
  const from = period.from ?? addDays(to, -(RESPONSE_TIMES_DAYS - 1));
  // One statement: each kind's figures and, on the rollup's row (kind null), all of them together.
  const rows = await db.$queryRaw<Row[]>(Prisma.sql`
    WITH items AS (
      SELECT GREATEST(extract(epoch FROM (i."repliedAt" - i."networkCreatedAt")) / 60, 0) AS minutes, i."repliedAt", i."networkCreatedAt", i.kind
      FROM "InboxItem" i
      WHERE i."workspaceId" = ${workspaceId}::uuid
        AND i."fromAccount" = false
        AND (i."deletedAt" IS NULL OR i."repliedAt" IS NOT NULL)
        AND i."networkCreatedAt" >= (${from}::date::timestamp AT TIME ZONE ${timeZone}) AT TIME ZONE 'UTC'
        AND i."networkCreatedAt" < ((${to}::date + 1)::timestamp AT TIME ZONE ${timeZone}) AT TIME ZONE 'UTC'
    )
    SELECT
      kind,
      count(*) FILTER (WHERE "repliedAt" IS NOT NULL) AS answered,
      count(*) FILTER (WHERE "repliedAt" IS NULL) AS unanswered,
      (percentile_cont(0.5) WITHIN GROUP (ORDER BY minutes) FILTER (WHERE "repliedAt" IS NOT NULL))::float8 AS median,
      count(*) FILTER (WHERE "repliedAt" IS NOT NULL AND minutes <= ${target}) AS within,
      count(*) FILTER (WHERE "repliedAt" IS NOT NULL OR "networkCreatedAt" <= (${now.toISOString()}::timestamptz AT TIME ZONE 'UTC') - make_interval(mins => ${target}::int)) AS due
    FROM items GROUP BY ROLLUP (kind)`);
  const of = (kind: string | null) => rows.find((r) => r.kind === kind);
  return {
    from,
    to,
    ...figures(of(null)),
    targetMinutes: target,
    byKind: { comment: figures(of('comment')), message: figures(of('message')), review: figures(of('review')) },
  };
}
