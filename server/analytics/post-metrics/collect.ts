// Collecting post metrics: which published targets are due, and reading them per connection.
//
// Due: a published target's latest elapsed slot of POST_METRICS_SCHEDULE (publishedAt + offset
// ≤ now) when no reading exists for that slot or a later one. A slot missed (Herald was down)
// is collected late, once, labelled with its slot; collectedAt says when. Targets are due for
// the schedule's last offset plus LATE_GRACE_DAYS, then no more.
//
// Crash safety: readings are written per batch with ON CONFLICT (targetId, slot) DO NOTHING, so
// a retried job or a second sweep writes each slot once; what a crash lost is due again.
// A connection's failure (token refused, network down) is recorded on the connection, verbatim,
// the job ends normally, and the sweep leaves that connection alone for POST_METRICS_RETRY_MINUTES.
import { env } from '@/server/config/env';
import { db } from '@/server/db/client';
import { getJobs } from '@/server/jobs';
import { log } from '@/server/observability/log';
import { allNull, batches, POST_METRICS, type FollowerCount, type PostedRef, type PostMetrics, type PostMetricsReader } from '@/server/platforms/insights';
import { insightsReaderFor, platformsWithFollowers, platformsWithReaders } from '@/server/platforms/insights-readers';
import { connectionTokens, publishableConnection } from '@/server/posts/delivery/connection-tokens';
import type { Platform } from '@/server/shared/platforms';
import { engagementOf } from './engagement';

/** How long after the last slot a missed reading is still taken. */
export const LATE_GRACE_DAYS = 7;

export interface DueTarget {
  targetId: string;
  connectionId: string;
  postedId: string;
  publishedAt: Date;
  slot: string | null;
}

function scheduleArrays() {
  const schedule = env.postMetricsSchedule();
  return { slots: schedule.map((s) => s.slot), seconds: schedule.map((s) => s.seconds), last: schedule[schedule.length - 1]!.seconds };
}

/** Published targets due for a scheduled reading, with the slot each is due for. */
export async function dueTargets(now: Date, opts: { connectionId?: string; limit?: number } = {}): Promise<DueTarget[]> {
  const { slots, seconds, last } = scheduleArrays();
  const oldest = new Date(now.getTime() - (last + LATE_GRACE_DAYS * 86_400) * 1000);
  const backoff = new Date(now.getTime() - env.postMetricsRetryMinutes() * 60_000);
  const connection = opts.connectionId ?? null;
  return db.$queryRaw<DueTarget[]>`
    SELECT t.id AS "targetId", t."connectionId", t."postedId", t."publishedAt", s.slot
      FROM "PostTarget" t
      JOIN "Connection" c ON c.id = t."connectionId"
      CROSS JOIN LATERAL (
        SELECT u.slot, u.idx FROM unnest(${slots}::text[], ${seconds}::int[]) WITH ORDINALITY AS u(slot, secs, idx)
         WHERE t."publishedAt" + make_interval(secs => u.secs) <= ${now}
         ORDER BY u.idx DESC LIMIT 1) s
     WHERE t.status = 'published' AND t."postedId" IS NOT NULL
       AND t."publishedAt" >= ${oldest} AND t."publishedAt" <= ${now}
       AND c.status = 'active'
       AND (c.provider = 'sandbox' OR c.platform = ANY(${platformsWithReaders()}::text[]))
       AND (${connection}::uuid IS NULL OR t."connectionId" = ${connection}::uuid)
       AND (${connection}::uuid IS NOT NULL OR c."metricsErrorAt" IS NULL OR c."metricsErrorAt" < ${backoff})
       AND NOT EXISTS (SELECT 1 FROM "PostMetricReading" r
                        WHERE r."targetId" = t.id AND r.slot = ANY((${slots}::text[])[s.idx:]))
     ORDER BY t."publishedAt"
     LIMIT ${opts.limit ?? 100_000}`;
}

/** The UTC day a follower reading belongs to (one a day per account). */
const utcDay = (now: Date) => new Date(`${now.toISOString().slice(0, 10)}T00:00:00Z`);

/** Active accounts whose network reports followers and that have no follower reading today. */
export async function connectionsDueFollowers(now: Date, connectionId?: string): Promise<string[]> {
  const backoff = new Date(now.getTime() - env.postMetricsRetryMinutes() * 60_000);
  const only = connectionId ?? null;
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT c.id FROM "Connection" c
     WHERE c.status = 'active'
       AND (c.provider = 'sandbox' OR c.platform = ANY(${platformsWithFollowers()}::text[]))
       AND (${only}::uuid IS NULL OR c.id = ${only}::uuid)
       AND (${only}::uuid IS NOT NULL OR c."metricsErrorAt" IS NULL OR c."metricsErrorAt" < ${backoff})
       AND NOT EXISTS (SELECT 1 FROM "FollowerReading" f WHERE f."connectionId" = c.id AND f.day = ${utcDay(now)}::date)`;
  return rows.map((r) => r.id);
}

/** Cron: one metrics.collect per connection with something due (posts to read, or today's follower count). */
export async function sweepDueMetrics(now: Date = new Date()): Promise<{ connections: number; targets: number }> {
  const due = await dueTargets(now);
  const connections = [...new Set([...due.map((d) => d.connectionId), ...(await connectionsDueFollowers(now))])];
  if (connections.length) {
    await getJobs().enqueueMany(
      'metrics.collect',
      connections.map((connectionId) => ({ payload: { connectionId }, key: `metrics-collect:${connectionId}` })),
    );
  }
  return { connections: connections.length, targets: due.length };
}

export interface CollectResult {
  connectionId: string;
  ok: boolean;
  /** Readings written. */
  written: number;
  /** Requests made to the reader (one per batch). */
  requests: number;
  error?: string;
}

export interface CollectOptions {
  /** On demand: read these targets now (no slot). */
  targetIds?: string[];
  now?: Date;
  /** Replaces the connection's reader (tests point a live reader at a local server). */
  reader?: PostMetricsReader;
}

/** Reads one connection's due (or asked-for) targets, batch by batch, and stores the readings. */
export async function collectConnectionMetrics(connectionId: string, options: CollectOptions = {}): Promise<CollectResult> {
  const now = options.now ?? new Date();
  const connection = await db.connection.findUnique({ where: { id: connectionId } });
  const result: CollectResult = { connectionId, ok: true, written: 0, requests: 0 };
  if (!connection || connection.status !== 'active') return result;
  const reader = options.reader ?? insightsReaderFor({ provider: connection.provider, platform: connection.platform as Platform });
  if (!reader) return result;

  const publishable = publishableConnection(connection);
  // Today's follower count first (scheduled runs only): an account with nothing to read still has an audience.
  let followersRead = false;
  if (!options.targetIds && reader.readFollowers && (await connectionsDueFollowers(now, connectionId)).length) {
    try {
      const count = await reader.readFollowers(publishable, { tokens: connectionTokens, now });
      await storeFollowers(connection, reader.source, count, now);
      followersRead = true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.warn('post-metrics', `reading the followers of connection ${connectionId} failed`, error);
      await db.connection.update({ where: { id: connectionId }, data: { metricsError: message, metricsErrorAt: now } });
      return { ...result, ok: false, error: message };
    }
  }

  let work: DueTarget[];
  if (options.targetIds) {
    const rows = await db.postTarget.findMany({
      where: { id: { in: options.targetIds }, connectionId, status: 'published', postedId: { not: null }, publishedAt: { not: null } },
      select: { id: true, connectionId: true, postedId: true, publishedAt: true },
    });
    work = rows.map((r) => ({ targetId: r.id, connectionId: r.connectionId, postedId: r.postedId!, publishedAt: r.publishedAt!, slot: null }));
  } else {
    work = await dueTargets(now, { connectionId });
  }
  if (!work.length) {
    if (followersRead) await db.connection.update({ where: { id: connectionId }, data: { metricsCollectedAt: now, metricsError: null, metricsErrorAt: null } });
    return result;
  }

  for (const batch of batches(work, reader.maxIdsPerRequest)) {
    // A post published twice to one account has one id: ask once, store per target.
    const refs: PostedRef[] = [...new Map(batch.map((w) => [w.postedId, { postedId: w.postedId, publishedAt: w.publishedAt }])).values()];
    let answers;
    try {
      result.requests += 1;
      answers = await reader.readPostMetrics(publishable, refs, { tokens: connectionTokens, now });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.warn('post-metrics', `collecting metrics of connection ${connectionId} failed`, error);
      await db.connection.update({ where: { id: connectionId }, data: { metricsError: message, metricsErrorAt: now } });
      return { ...result, ok: false, error: message };
    }
    result.written += await storeReadings(
      connection.workspaceId,
      connection.platform,
      reader.source,
      batch.map((w) => {
        const answer = answers.get(w.postedId);
        const metrics = !answer ? allNull('The network answered nothing for this post') : answer.ok ? answer.metrics : allNull(answer.reason);
        return { target: w, metrics };
      }),
      now,
      options.targetIds ? 'on_demand' : 'schedule',
    );
  }
  await db.connection.update({ where: { id: connectionId }, data: { metricsCollectedAt: now, metricsError: null, metricsErrorAt: null } });
  return result;
}

/** Today's follower reading of an account (a second one today replaces the first). */
export async function storeFollowers(connection: { id: string; workspaceId: string }, source: string, count: FollowerCount, collectedAt: Date): Promise<void> {
  const values = { collectedAt, value: count.value, reason: count.reason, networkName: count.networkName, source };
  await db.followerReading.upsert({
    where: { connectionId_day: { connectionId: connection.id, day: utcDay(collectedAt) } },
    create: { connectionId: connection.id, workspaceId: connection.workspaceId, day: utcDay(collectedAt), ...values },
    update: values,
  });
}

/** The columns of one reading from a metric set: values, null reasons and the network's names. */
export function readingColumns(metrics: PostMetrics) {
  const values = {} as Record<(typeof POST_METRICS)[number], number | null>;
  const nullReasons: Record<string, string> = {};
  const networkNames: Record<string, string> = {};
  for (const metric of POST_METRICS) {
    const m = metrics[metric];
    values[metric] = m.value;
    if (m.value === null) nullReasons[metric] = m.reason ?? 'No value';
    if (m.networkName) networkNames[metric] = m.networkName;
  }
  return { ...values, engagement: engagementOf(values), nullReasons, networkNames };
}

/**
 * Writes readings (a slot at most once per target) and moves each target's engagement to its
 * newest non-null value. Returns how many readings were new.
 */
export async function storeReadings(
  workspaceId: string,
  platform: string,
  source: string,
  rows: { target: Pick<DueTarget, 'targetId' | 'connectionId' | 'slot'>; metrics: PostMetrics }[],
  collectedAt: Date,
  trigger: 'schedule' | 'on_demand' | 'seed',
): Promise<number> {
  if (!rows.length) return 0;
  return db.$transaction(async (tx) => {
    const written = await tx.postMetricReading.createManyAndReturn({
      data: rows.map(({ target, metrics }) => ({
        targetId: target.targetId,
        connectionId: target.connectionId,
        workspaceId,
        platform,
        slot: target.slot,
        trigger,
        source,
        collectedAt,
        ...readingColumns(metrics),
      })),
      skipDuplicates: true,
      select: { targetId: true, engagement: true },
    });
    const withEngagement = written.filter((w) => w.engagement !== null);
    if (withEngagement.length) {
      await tx.$executeRaw`
        UPDATE "PostTarget" t SET "engagement" = round(v.engagement)::int, "engagementCollectedAt" = ${collectedAt}
          FROM unnest(${withEngagement.map((w) => w.targetId)}::uuid[], ${withEngagement.map((w) => w.engagement!)}::float8[]) AS v(id, engagement)
         WHERE t.id = v.id AND (t."engagementCollectedAt" IS NULL OR t."engagementCollectedAt" <= ${collectedAt})`;
    }
    return written.length;
  });
}

/** POST /posts/{id}/metrics/collect: one on-demand job per connection of the post's published targets. */
export async function queueOnDemandCollection(targets: { id: string; connectionId: string }[], postId: string): Promise<void> {
  const byConnection = new Map<string, string[]>();
  for (const t of targets) byConnection.set(t.connectionId, [...(byConnection.get(t.connectionId) ?? []), t.id]);
  if (!byConnection.size) return;
  await getJobs().enqueueMany(
    'metrics.collect',
    [...byConnection].map(([connectionId, targetIds]) => ({ payload: { connectionId, targetIds }, key: `metrics-now:${postId}:${connectionId}` })),
  );
}
