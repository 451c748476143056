// Reading post results: one post's readings per target, top posts over a window, one
// connection's totals per day, and the CSV export. Windows are publishing days in the
// workspace's time zone (docs/analytics.md); "latest" is each target's newest reading.
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { Prisma } from '@/server/generated/prisma/client';
import { FOLLOWERS_NOT_REPORTED, POST_METRICS, type PostMetricName } from '@/server/platforms/insights';
import { addDays } from '@/server/shared/analytics-window';
import { csvCell } from '@/server/shared/csv';
import { isoOrNull, isUuid } from '@/server/shared/schemas';
import { clicksOfPostOnNetwork } from '@/server/links/link-reads';
import type { Platform } from '@/server/shared/platforms';
import { SOURCE_LABELS } from '../sources';
import { platformsWithFollowers } from '@/server/platforms/insights-readers';
import { ENGAGEMENT_FORMULA } from './engagement';
import { queueOnDemandCollection } from './collect';
import type { ExportQuery, RollupQuery, TopPostsQuery } from './post-metrics.schemas';

type Row = Record<PostMetricName, number | null> & {
  collectedAt: Date;
  slot: string | null;
  trigger: string;
  source: string;
  engagement: number | null;
  nullReasons: unknown;
  networkNames: unknown;
};

export function toReading(r: Row) {
  const metrics = {} as Record<PostMetricName, number | null>;
  for (const m of POST_METRICS) metrics[m] = r[m] === null ? null : Number(r[m]);
  return {
    collectedAt: r.collectedAt.toISOString(),
    slot: r.slot,
    trigger: r.trigger as 'schedule' | 'on_demand' | 'seed',
    source: r.source,
    metrics,
    engagement: r.engagement === null ? null : Number(r.engagement),
    nullReasons: (r.nullReasons ?? {}) as Record<string, string>,
    networkNames: (r.networkNames ?? {}) as Record<string, string>,
  };
}

/** Sandbox when every reading of the answer is demo data; the networks' insights otherwise. */
function provenanceOf(sources: string[], newest: Date | null) {
  const source = sources.length > 0 && sources.every((s) => s === 'sandbox') ? ('sandbox' as const) : ('post_insights' as const);
  return { source, label: SOURCE_LABELS[source], collectedAt: isoOrNull(newest), engagementFormula: ENGAGEMENT_FORMULA };
}

async function findPost(workspaceId: string, postId: string) {
  const post = isUuid(postId) ? await db.post.findFirst({ where: { id: postId, workspaceId }, select: { id: true } }) : null;
  if (!post) throw new AppError('POST_NOT_FOUND', 'No post with that id in this workspace', { field: 'id' });
  return post;
}

/** GET /posts/{id}/metrics. */
export async function postMetrics(workspaceId: string, postId: string) {
  await findPost(workspaceId, postId);
  const targets = await db.postTarget.findMany({
    where: { postId },
    include: { connection: { select: { accountName: true } }, metricReadings: { orderBy: [{ collectedAt: 'asc' }, { id: 'asc' }] } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const clicks = await clicksPerNetwork(postId);
  const all = targets.flatMap((t) => t.metricReadings);
  const newest = all.reduce<Date | null>((m, r) => (!m || r.collectedAt > m ? r.collectedAt : m), null);
  return {
    data: {
      postId,
      targets: targets.map((t) => {
        const history = t.metricReadings.map((r) => toReading(r as unknown as Row));
        return {
          targetId: t.id,
          connectionId: t.connectionId,
          platform: t.platform as Platform,
          accountName: t.connection.accountName,
          status: t.status,
          postedId: t.postedId,
          permalink: t.permalink,
          publishedAt: isoOrNull(t.publishedAt),
          clicks: clicks.get(t.platform) ?? 0,
          latest: history[history.length - 1] ?? null,
          history,
        };
      }),
    },
    provenance: provenanceOf(
      all.map((r) => r.source),
      newest,
    ),
  };
}

/** Clicks on the post's tracked links, per network (the targets of one network share its links). */
async function clicksPerNetwork(postId: string): Promise<Map<string, number>> {
  const rows = await db.$queryRaw<{ platform: string; clicks: number }[]>`
    SELECT n.platform, ${clicksOfPostOnNetwork(Prisma.sql`${postId}::uuid`, Prisma.sql`n.platform`)} AS clicks
      FROM (SELECT DISTINCT k.platform FROM "TrackedLink" k WHERE k."postId" = ${postId}::uuid) n`;
  return new Map(rows.map((r) => [r.platform, Number(r.clicks)]));
}

/** POST /posts/{id}/metrics/collect: queues a reading now of every published target. */
export async function collectPostMetricsNow(workspaceId: string, postId: string) {
  await findPost(workspaceId, postId);
  const targets = await db.postTarget.findMany({
    where: { postId, status: 'published', postedId: { not: null }, connection: { status: 'active' } },
    select: { id: true, connectionId: true, platform: true },
  });
  await queueOnDemandCollection(targets, postId);
  return { queued: targets.map((t) => ({ targetId: t.id, connectionId: t.connectionId, platform: t.platform as Platform })) };
}

export type WindowRow = Row & {
  targetId: string;
  postId: string;
  connectionId: string;
  platform: string;
  accountName: string;
  content: string;
  mediaUrls: string[];
  permalink: string | null;
  publishedAt: Date;
  day: string;
  hasReading: boolean;
  /** Clicks on the post's tracked links on this network, every day together. */
  clicks: number;
};

/** The columns of a window row: the target, its post and account, and its newest reading. */
const WINDOW_COLUMNS = (timeZone: string) => Prisma.sql`
  l."targetId", l."postId", l."connectionId", l.platform, c."accountName", p.content, p."mediaUrls", t.permalink,
  l."publishedAt", ${dayOf(timeZone)} AS day, l."readingId" IS NOT NULL AS "hasReading",
  ${clicksOfPostOnNetwork(Prisma.sql`l."postId"`, Prisma.sql`l.platform`)} AS clicks,
  r."collectedAt", r.slot, r.trigger, r.source, r.impressions, r.reach, r.views, r.reactions, r.comments,
  r.shares, r.saves, r."linkClicks", r."videoWatchSeconds", r.engagement, r."nullReasons", r."networkNames"`;

const WINDOW_JOINS = Prisma.sql`
  JOIN "PostTarget" t ON t.id = l."targetId"
  JOIN "Post" p ON p.id = l."postId"
  JOIN "Connection" c ON c.id = l."connectionId"
  LEFT JOIN "PostMetricReading" r ON r.id = l."readingId"`;

/** A publishing instant's day on the workspace's clock. */
const dayOf = (timeZone: string) => Prisma.sql`to_char((l."publishedAt" AT TIME ZONE 'UTC') AT TIME ZONE ${timeZone}, 'YYYY-MM-DD')`;

/**
 * The window over PostTargetResult (one row per published target, its newest reading's
 * counters, kept by triggers): `l` is the row. The window's days on the workspace's clock
 * become two instants (its first local midnight, the local midnight after its last day), so
 * the index on (workspaceId, publishedAt) answers it exactly with no per-row conversion.
 */
async function windowOf(workspaceId: string, from: string, to: string, filter: Prisma.Sql) {
  const { timeZone } = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { timeZone: true } });
  const where = Prisma.sql`l."workspaceId" = ${workspaceId}::uuid
    AND l."publishedAt" >= (${from}::date::timestamp AT TIME ZONE ${timeZone}) AT TIME ZONE 'UTC'
    AND l."publishedAt" < ((${to}::date + 1)::timestamp AT TIME ZONE ${timeZone}) AT TIME ZONE 'UTC' ${filter}`;
  return { timeZone, where };
}

/** Published targets of the window with their newest reading (null columns when none). `filter` names `l`. */
export async function windowRows(workspaceId: string, from: string, to: string, filter: Prisma.Sql = Prisma.empty) {
  const { timeZone, where } = await windowOf(workspaceId, from, to, filter);
  const rows = await db.$queryRaw<WindowRow[]>`
    SELECT ${WINDOW_COLUMNS(timeZone)} FROM "PostTargetResult" l ${WINDOW_JOINS}
     WHERE ${where} ORDER BY l."publishedAt", l."targetId"`;
  return { rows, timeZone };
}

export function windowProvenance(rows: WindowRow[], timeZone: string, from: string, to: string) {
  const read = rows.filter((r) => r.hasReading);
  const newest = read.reduce<Date | null>((m, r) => (!m || r.collectedAt > m ? r.collectedAt : m), null);
  return {
    ...provenanceOf(
      read.map((r) => r.source),
      newest,
    ),
    timeZone,
    window: { from, to },
    postsInWindow: rows.length,
    withReading: read.length,
  };
}

type Sort = NonNullable<TopPostsQuery['sort']>;

/** The order of a ranking: best first, ties to the newest, then the target id. */
function rankOrder(sort: Sort): Prisma.Sql {
  // `sort` is one of the schema's enum values, each a column of PostTargetResult.
  const column = Prisma.raw(`l."${(['engagement', ...POST_METRICS] as string[]).includes(sort) ? sort : 'engagement'}"`);
  return Prisma.sql`${column} DESC, l."publishedAt" DESC, l."targetId"`;
}

/** The rows with a value of `sort`, best first (ties: newest, then target id), at most `limit`. */
export function rankRows(rows: WindowRow[], sort: Sort, limit: number): WindowRow[] {
  const value = (r: WindowRow) => (sort === 'engagement' ? r.engagement : r[sort]);
  return rows
    .filter((r) => r.hasReading && value(r) !== null)
    .sort((a, b) => Number(value(b)) - Number(value(a)) || b.publishedAt.getTime() - a.publishedAt.getTime() || a.targetId.localeCompare(b.targetId))
    .slice(0, limit);
}

/** One ranked row as the top-posts answer shows it. */
export function topPostOf(r: WindowRow, index: number) {
  return {
    rank: index + 1,
    postId: r.postId,
    targetId: r.targetId,
    connectionId: r.connectionId,
    platform: r.platform as Platform,
    accountName: r.accountName,
    content: r.content.slice(0, 280),
    mediaUrls: r.mediaUrls,
    permalink: r.permalink,
    publishedAt: r.publishedAt.toISOString(),
    clicks: Number(r.clicks),
    latest: toReading(r),
  };
}

type NetworkRow = Record<PostMetricName | 'engagement', number | null> & {
  platform: string;
  posts: number;
  withReading: number;
  newest: Date | null;
  allSandbox: boolean | null;
};

/**
 * GET /analytics/top-posts: the Posts view. Two statements over the window's narrow rows,
 * whatever its length: the best `limit` ranked by PostgreSQL (only those joined to their
 * post, account and reading), and the per-network sums that also give the provenance.
 */
export async function topPosts(workspaceId: string, query: TopPostsQuery) {
  const sort = query.sort ?? 'engagement';
  const { timeZone, where } = await windowOf(workspaceId, query.from, query.to, query.platform ? Prisma.sql`AND l.platform = ${query.platform}` : Prisma.empty);
  const sortColumn = Prisma.raw(`l."${sort}"`);
  const [ranked, networks] = await Promise.all([
    db.$queryRaw<WindowRow[]>`
      WITH top AS (
        SELECT l."targetId" FROM "PostTargetResult" l
         WHERE ${where} AND l."readingId" IS NOT NULL AND ${sortColumn} IS NOT NULL
         ORDER BY ${rankOrder(sort)} LIMIT ${query.limit ?? 10})
      SELECT ${WINDOW_COLUMNS(timeZone)} FROM top JOIN "PostTargetResult" l ON l."targetId" = top."targetId" ${WINDOW_JOINS}
       ORDER BY ${rankOrder(sort)}`,
    db.$queryRaw<NetworkRow[]>`
      SELECT l.platform, count(*)::int AS posts, count(l."readingId")::int AS "withReading", max(l."collectedAt") AS newest,
             bool_and(l.source = 'sandbox') AS "allSandbox",
             ${Prisma.join(
               [...POST_METRICS, 'engagement'].map((m) => Prisma.raw(`sum(l."${m}") AS "${m}"`)),
               ', ',
             )}
        FROM "PostTargetResult" l WHERE ${where} GROUP BY l.platform`,
  ]);
  const newest = networks.reduce<Date | null>((m, n) => (n.newest && (!m || n.newest > m) ? n.newest : m), null);
  const withReading = networks.reduce((sum, n) => sum + n.withReading, 0);
  const allSandbox = withReading > 0 && networks.every((n) => n.withReading === 0 || n.allSandbox);
  return {
    data: ranked.map(topPostOf),
    networks: byNetwork(networks.map(({ newest: _n, allSandbox: _s, ...totals }) => ({ ...totals, platform: totals.platform as Platform }))),
    provenance: {
      ...provenanceOf(allSandbox ? ['sandbox'] : withReading > 0 ? ['post_insights'] : [], newest),
      timeZone,
      window: { from: query.from, to: query.to },
      postsInWindow: networks.reduce((sum, n) => sum + n.posts, 0),
      withReading,
      sort,
    },
  };
}

/** The networks' totals, the most engaging first: how the networks compare. */
export function byNetwork(totals: (Totals & { platform: Platform })[]): (Totals & { platform: Platform })[] {
  return [...totals].sort((a, b) => (b.engagement ?? -1) - (a.engagement ?? -1) || b.posts - a.posts || a.platform.localeCompare(b.platform));
}

export type Totals = Record<PostMetricName, number | null> & { engagement: number | null; posts: number; withReading: number };

/** Sums of the rows' latest readings: a metric no row has a value of is null, never 0. `posts` counts targets. */
export function total(rows: WindowRow[]): Totals {
  const out = { posts: rows.length, withReading: rows.filter((r) => r.hasReading).length } as Totals;
  for (const m of [...POST_METRICS, 'engagement'] as const) {
    const values = rows.map((r) => r[m]).filter((v): v is number => v !== null && v !== undefined);
    out[m] = values.length ? values.reduce((a, b) => a + Number(b), 0) : null;
  }
  return out;
}

/** GET /analytics/connections/{id}/rollup. */
export async function connectionRollup(workspaceId: string, query: RollupQuery) {
  const connection = isUuid(query.id) ? await db.connection.findFirst({ where: { id: query.id, workspaceId } }) : null;
  if (!connection) throw new AppError('CONNECTION_NOT_FOUND', 'No connection with that id in this workspace', { field: 'id' });
  const { rows, timeZone } = await windowRows(workspaceId, query.from, query.to, Prisma.sql`AND l."connectionId" = ${connection.id}::uuid`);
  const counts = await followerCounts(connection, timeZone, query.from, query.to);
  const days = [];
  for (let day = query.from; day <= query.to; day = addDays(day, 1)) {
    days.push({ date: day, ...total(rows.filter((r) => r.day === day)), followers: counts.byDay.get(day) ?? null });
  }
  return {
    data: {
      connectionId: connection.id,
      platform: connection.platform as Platform,
      accountName: connection.accountName,
      followers: counts.latest,
      totals: total(rows),
      days,
    },
    provenance: windowProvenance(rows, timeZone, query.from, query.to),
  };
}

/**
 * An account's follower counts for a rollup: the newest read on or before the window's last
 * day (with why there is none), its change over the window, and the last count of each day.
 */
async function followerCounts(connection: { id: string; platform: string; provider: string }, timeZone: string, from: string, to: string) {
  const end = Prisma.sql`((${to}::date + 1)::timestamp AT TIME ZONE ${timeZone}) AT TIME ZONE 'UTC'`;
  const start = Prisma.sql`(${from}::date::timestamp AT TIME ZONE ${timeZone}) AT TIME ZONE 'UTC'`;
  const [newest] = await db.$queryRaw<{ value: number | null; reason: string | null; networkName: string | null; collectedAt: Date; source: string }[]>`
    SELECT value, reason, "networkName", "collectedAt", source FROM "FollowerReading"
     WHERE "connectionId" = ${connection.id}::uuid AND "collectedAt" < ${end} ORDER BY "collectedAt" DESC LIMIT 1`;
  const inWindow = await db.$queryRaw<{ day: string; value: number }[]>`
    SELECT DISTINCT ON (day) to_char(("collectedAt" AT TIME ZONE 'UTC') AT TIME ZONE ${timeZone}, 'YYYY-MM-DD') AS day, value
      FROM "FollowerReading"
     WHERE "connectionId" = ${connection.id}::uuid AND value IS NOT NULL AND "collectedAt" >= ${start} AND "collectedAt" < ${end}
     ORDER BY day, "collectedAt" DESC`;
  const byDay = new Map(inWindow.map((r) => [r.day, Number(r.value)]));
  const first = inWindow[0];
  const value = newest?.value ?? null;
  const platform = connection.platform as Platform;
  const notReported =
    FOLLOWERS_NOT_REPORTED[platform] ??
    (connection.provider === 'sandbox' || platformsWithFollowers().includes(platform) ? null : 'The network reports no follower count to Herald');
  return {
    byDay,
    latest: {
      value,
      reason: value !== null ? null : (newest?.reason ?? notReported ?? 'No follower count has been read for this account yet (read once a day)'),
      networkName: newest?.networkName ?? null,
      collectedAt: isoOrNull(newest?.collectedAt ?? null),
      source: newest?.source ?? null,
      change: value !== null && first && inWindow.length > 1 ? value - Number(first.value) : null,
    },
  };
}

const CSV_COLUMNS = [
  'post_id',
  'target_id',
  'published_at',
  'platform',
  'account',
  'permalink',
  'content',
  'collected_at',
  'source',
  ...POST_METRICS,
  'engagement',
];

/** GET /analytics/posts/export.csv: one row per published target of the window, its latest reading; an empty cell is no value. */
export async function exportPostsCsv(workspaceId: string, query: ExportQuery) {
  const { rows } = await windowRows(workspaceId, query.from, query.to);
  const lines = [CSV_COLUMNS.join(',')];
  for (const r of rows) {
    lines.push(
      [
        r.postId,
        r.targetId,
        r.publishedAt.toISOString(),
        r.platform,
        r.accountName,
        r.permalink,
        r.content,
        r.hasReading ? r.collectedAt.toISOString() : null,
        r.hasReading ? r.source : null,
        ...POST_METRICS.map((m) => r[m]),
        r.engagement,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return { filename: `posts-${query.from}-to-${query.to}.csv`, contentType: 'text/csv' as const, rows: rows.length, csv: `${lines.join('\r\n')}\r\n` };
}
