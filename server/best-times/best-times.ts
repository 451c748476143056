// GET /best-times: upcoming slots from the workspace's own publish history, in its time zone.
//   1. engagement: at least MIN_SAMPLE published deliveries with an engagement reading in the
//      window → weekday-and-hour buckets ranked by mean engagement;
//   2. publish_outcomes: otherwise, at least MIN_SAMPLE deliveries (published or failed) →
//      buckets ranked by the share that published, then by how many did;
//   3. platform_defaults: otherwise insufficientHistory is true and the documented defaults
//      are returned, labelled so.
// Bucketing is done in SQL, in the workspace's time zone.
import { SOURCE_LABELS } from '@/server/analytics/sources';
import { db } from '@/server/db/client';
import { addDays, dayIn } from '@/server/shared/analytics-window';
import { WEEKDAYS, type BestTimeMethod, type BestTimePlatform } from './best-times.schemas';
import { PLATFORM_DEFAULT_SLOTS } from './defaults';

export const MIN_SAMPLE = 20;
export const HISTORY_DAYS = 90;
export const SLOT_COUNT = 5;

interface Bucket {
  dow: number;
  hour: number;
  attempted: number;
  published: number;
  with_engagement: number;
  avg_engagement: number | null;
  newest: Date | null;
}

/** Minutes the time zone is ahead of UTC at `instant`. */
function offsetMinutes(timeZone: string, instant: number): number {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(instant).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

/** The instant of a wall-clock time in `timeZone`. */
export function zonedTimeToInstant(day: string, hour: number, timeZone: string): Date {
  const guess = Date.parse(`${day}T${String(hour).padStart(2, '0')}:00:00Z`);
  let instant = guess - offsetMinutes(timeZone, guess) * 60_000;
  instant = guess - offsetMinutes(timeZone, instant) * 60_000;
  return new Date(instant);
}

function isoWeekdayOf(day: string): number {
  const d = new Date(`${day}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
}

/** The next start of weekday `isoWeekday` at `hour` strictly after `now`, in `timeZone`. */
export function nextOccurrence(isoWeekday: number, hour: number, timeZone: string, now: Date): { startsAt: Date; localTime: string } {
  const today = dayIn(timeZone, now);
  let ahead = (isoWeekday - isoWeekdayOf(today) + 7) % 7;
  let day = addDays(today, ahead);
  let startsAt = zonedTimeToInstant(day, hour, timeZone);
  if (startsAt <= now) {
    ahead += 7;
    day = addDays(today, ahead);
    startsAt = zonedTimeToInstant(day, hour, timeZone);
  }
  return { startsAt, localTime: `${day}T${String(hour).padStart(2, '0')}:00` };
}

export async function bestTimes(workspaceId: string, platform: BestTimePlatform | undefined, now: Date = new Date()) {
  const { timeZone } = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { timeZone: true } });
  const since = new Date(now.getTime() - HISTORY_DAYS * 86_400_000);
  // Timestamp columns hold UTC wall-clock time: read as UTC, then on the workspace's clock.
  const buckets = await db.$queryRaw<Bucket[]>`
    SELECT extract(isodow FROM local_)::int AS dow,
           extract(hour FROM local_)::int AS hour,
           count(*)::int AS attempted,
           count(*) FILTER (WHERE status = 'published')::int AS published,
           count(engagement) FILTER (WHERE status = 'published')::int AS with_engagement,
           avg(engagement) FILTER (WHERE status = 'published')::float8 AS avg_engagement,
           max(at_) FILTER (WHERE status = 'published') AS newest
      FROM (SELECT status, engagement, at_, (at_ AT TIME ZONE 'UTC') AT TIME ZONE ${timeZone} AS local_
              FROM (SELECT t.status, t.engagement, coalesce(t."publishedAt", t."attemptStartedAt", t."updatedAt") AS at_
                      FROM "PostTarget" t JOIN "Post" p ON p.id = t."postId"
                     WHERE p."workspaceId" = ${workspaceId}::uuid
                       AND t.status IN ('published', 'failed')
                       AND (${platform ?? null}::text IS NULL OR t.platform = ${platform ?? null}::text)) raw
             WHERE at_ >= ${since} AND at_ <= ${now}) d
     GROUP BY 1, 2`;
  const sampleSize = buckets.reduce((n, b) => n + b.attempted, 0);
  const withEngagement = buckets.reduce((n, b) => n + b.with_engagement, 0);
  const newest = buckets.reduce<Date | null>((m, b) => (b.newest && (!m || b.newest > m) ? b.newest : m), null);
  const method: BestTimeMethod = withEngagement >= MIN_SAMPLE ? 'engagement' : sampleSize >= MIN_SAMPLE ? 'publish_outcomes' : 'platform_defaults';

  let picked: { isoWeekday: number; hour: number; score: number | null; sampleSize: number }[];
  if (method === 'engagement') {
    picked = buckets
      .filter((b) => b.with_engagement > 0 && b.avg_engagement !== null)
      .sort((a, b) => b.avg_engagement! - a.avg_engagement! || b.with_engagement - a.with_engagement || a.dow - b.dow || a.hour - b.hour)
      .map((b) => ({ isoWeekday: b.dow, hour: b.hour, score: Number(b.avg_engagement!.toFixed(2)), sampleSize: b.attempted }));
  } else if (method === 'publish_outcomes') {
    picked = buckets
      .map((b) => ({ b, rate: b.published / b.attempted }))
      .sort((x, y) => y.rate - x.rate || y.b.published - x.b.published || x.b.dow - y.b.dow || x.b.hour - y.b.hour)
      .map(({ b, rate }) => ({ isoWeekday: b.dow, hour: b.hour, score: Number(rate.toFixed(4)), sampleSize: b.attempted }));
  } else {
    picked = PLATFORM_DEFAULT_SLOTS[platform ?? 'all'].map((s) => ({ ...s, score: null, sampleSize: 0 }));
  }
  const slots = picked.slice(0, SLOT_COUNT).map((s, i) => {
    const next = nextOccurrence(s.isoWeekday, s.hour, timeZone, now);
    return {
      rank: i + 1,
      startsAt: next.startsAt.toISOString(),
      localTime: next.localTime,
      dayOfWeek: WEEKDAYS[s.isoWeekday - 1]!,
      hour: s.hour,
      score: s.score,
      sampleSize: s.sampleSize,
      basis: method,
    };
  });
  const source = method === 'platform_defaults' ? ('platform_defaults' as const) : ('publish_history' as const);
  return {
    data: {
      platform: platform ?? null,
      timeZone,
      insufficientHistory: method === 'platform_defaults',
      slots,
      inputs: {
        method,
        sampleSize,
        withEngagement,
        minimumSample: MIN_SAMPLE,
        window: { from: since.toISOString(), to: now.toISOString(), days: HISTORY_DAYS },
      },
    },
    provenance: { source, label: SOURCE_LABELS[source], collectedAt: source === 'publish_history' && newest ? newest.toISOString() : null },
  };
}
