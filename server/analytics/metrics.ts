// GET /metrics/summary and /metrics/daily: aggregation in SQL over AdMetricDaily.
// The null rules live in the SQL: SUM over no readings is NULL (never 0), a ratio divides by
// NULLIF(denominator, 0), and NULL propagates through arithmetic. A window's ratio is taken
// over the days that read both of its parts, so a day missing one part does not skew it.
import { db } from '@/server/db/client';
import { addDays, daysBetweenInclusive } from '@/server/shared/analytics-window';
import type { AdSourceId, DailyQuery, MetricValues, SummaryQuery } from './analytics.schemas';
import { findAdAccount } from './ad-accounts';
import { SOURCE_LABELS } from './sources';

interface ValueRow {
  impressions: number | null;
  reach: number | null;
  clicks: number | null;
  spend: number | null;
  conversions: number | null;
  ctr: number | null;
  cpc: number | null;
  cpm: number | null;
}

function values(row: ValueRow, currency: string): MetricValues {
  return {
    impressions: row.impressions,
    reach: row.reach,
    clicks: row.clicks,
    spend: { amount: row.spend, currency },
    conversions: row.conversions,
    ctr: row.ctr,
    cpc: row.cpc,
    cpm: row.cpm,
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function metricsSummary(workspaceId: string, q: SummaryQuery) {
  const account = await findAdAccount(workspaceId, q.accountId);
  const timeZone = account.workspace.timeZone;
  const [row] = await db.$queryRaw<(ValueRow & { days_with_readings: number; newest: Date | null; oldest: Date | null })[]>`
    SELECT count(*)::int AS days_with_readings,
           sum(impressions)::float8 AS impressions,
           sum(reach)::float8 AS reach,
           sum(clicks)::float8 AS clicks,
           round(sum(spend), 6)::float8 AS spend,
           sum(conversions)::float8 AS conversions,
           round(sum(clicks) FILTER (WHERE impressions IS NOT NULL)::numeric
                 / NULLIF(sum(impressions) FILTER (WHERE clicks IS NOT NULL), 0), 6)::float8 AS ctr,
           round(sum(spend) FILTER (WHERE clicks IS NOT NULL)
                 / NULLIF(sum(clicks) FILTER (WHERE spend IS NOT NULL), 0), 6)::float8 AS cpc,
           round(sum(spend) FILTER (WHERE impressions IS NOT NULL) * 1000
                 / NULLIF(sum(impressions) FILTER (WHERE spend IS NOT NULL), 0), 6)::float8 AS cpm,
           max("collectedAt") AS newest,
           min("collectedAt") AS oldest
      FROM "AdMetricDaily"
     WHERE "accountId" = ${account.id}::uuid AND "workspaceId" = ${workspaceId}::uuid
       AND day BETWEEN ${q.from}::date AND ${q.to}::date`;
  const source = account.source as AdSourceId;
  return {
    data: { accountId: account.id, from: q.from, to: q.to, days: daysBetweenInclusive(q.from, q.to), ...values(row!, account.currency) },
    provenance: {
      source,
      label: SOURCE_LABELS[source],
      collectedAt: iso(row!.newest),
      oldestCollectedAt: iso(row!.oldest),
      timeZone,
      window: { from: q.from, to: q.to },
      daysWithReadings: row!.days_with_readings,
    },
  };
}

export async function metricsDaily(workspaceId: string, q: DailyQuery) {
  const account = await findAdAccount(workspaceId, q.accountId);
  const timeZone = account.workspace.timeZone;
  const rows = await db.$queryRaw<(ValueRow & { date: string; has_reading: boolean; collected_at: Date | null })[]>`
    SELECT to_char(d.day, 'YYYY-MM-DD') AS date,
           (m."accountId" IS NOT NULL) AS has_reading,
           m."collectedAt" AS collected_at,
           m.impressions::float8 AS impressions,
           m.reach::float8 AS reach,
           m.clicks::float8 AS clicks,
           m.spend::float8 AS spend,
           m.conversions::float8 AS conversions,
           round(m.clicks::numeric / NULLIF(m.impressions, 0), 6)::float8 AS ctr,
           round(m.spend / NULLIF(m.clicks, 0), 6)::float8 AS cpc,
           round(m.spend * 1000 / NULLIF(m.impressions, 0), 6)::float8 AS cpm
      FROM (SELECT (${q.to}::date - i) AS day FROM generate_series(0, ${q.limit}::int - 1) AS i) d
      LEFT JOIN "AdMetricDaily" m
        ON m."accountId" = ${account.id}::uuid AND m."workspaceId" = ${workspaceId}::uuid AND m.day = d.day
     WHERE d.day >= ${q.from}::date
     ORDER BY d.day DESC`;
  const collected = rows.flatMap((r) => (r.collected_at ? [r.collected_at.getTime()] : []));
  const last = rows.at(-1)?.date;
  const nextTo = last && last > q.from ? addDays(last, -1) : null;
  const source = account.source as AdSourceId;
  return {
    data: rows.map((r) => ({ date: r.date, hasReading: r.has_reading, collectedAt: iso(r.collected_at), ...values(r, account.currency) })),
    nextTo,
    provenance: {
      source,
      label: SOURCE_LABELS[source],
      collectedAt: collected.length ? new Date(Math.max(...collected)).toISOString() : null,
      oldestCollectedAt: collected.length ? new Date(Math.min(...collected)).toISOString() : null,
      timeZone,
      window: { from: q.from, to: q.to },
      daysWithReadings: collected.length,
    },
  };
}
