// Wire shapes of /sources, /ad-accounts and /metrics/*. Every response carries `provenance`.
import { z } from 'zod';
import { checkWindow, ZDay, ZLimit } from '@/server/shared/analytics-window';
import { ZNullableTimestamp, ZTimestamp } from '@/server/shared/schemas';

export const AD_SOURCES = ['meta', 'linkedin', 'google', 'sandbox'] as const;
export type AdSourceId = (typeof AD_SOURCES)[number];
export const ZAdSource = z.enum(AD_SOURCES);

export const SOURCE_IDS = [...AD_SOURCES, 'post_insights', 'crawler', 'publish_history', 'platform_defaults', 'connections', 'herald'] as const;
export type SourceId = (typeof SOURCE_IDS)[number];
export const ZSourceId = z.enum(SOURCE_IDS);

/** Where the numbers of a response came from and when they were collected. */
export const ZProvenance = z
  .object({
    source: ZSourceId.describe('The source the data came from (GET /sources describes each)'),
    label: z.string().describe('The source in words; the sandbox says it is demo data'),
    collectedAt: ZNullableTimestamp.describe('When the newest data in this response was collected from the source; null when nothing was'),
  })
  .meta({ id: 'Provenance', description: 'Where the numbers of a response came from and when they were collected.' });
export type Provenance = z.infer<typeof ZProvenance>;

export const ZMetricsProvenance = ZProvenance.extend({
  oldestCollectedAt: ZNullableTimestamp.describe('When the oldest reading in the window was collected'),
  timeZone: z.string().describe('The workspace’s time zone: the calendar of from, to and date'),
  window: z
    .object({ from: ZDay.describe('First day of the window, inclusive'), to: ZDay.describe('Last day of the window, inclusive') })
    .describe('The days the numbers cover, in timeZone'),
  daysWithReadings: z.number().int().describe('Days of the window for which the source reported anything'),
}).meta({ id: 'MetricsProvenance', description: 'Where ad metrics came from, their window and how many of its days have readings.' });

// ── Sources ──
export const ZSource = z
  .object({
    id: ZSourceId.describe('The id every provenance block names as its source'),
    kind: z
      .enum(['ad_platform', 'network', 'sandbox', 'crawler', 'history', 'defaults', 'connections', 'herald'])
      .describe(
        'ad_platform: an ad network’s reporting API; network: a social network’s post insights; sandbox: demo data; crawler: Herald’s own page visits; history: the workspace’s publish history; defaults: platform-wide defaults; connections: the connected accounts; herald: Herald’s own state',
      ),
    name: z.string().describe('The source in words, as provenance labels name it'),
    enabled: z.boolean().describe('Whether this deployment can collect from it (an ad platform needs its API base and account tokens)'),
    apiBaseUrl: z.string().nullable().describe('For an ad platform, the API base this deployment calls; null for every other source'),
    feeds: z.array(z.string()).describe('The routes whose provenance names this source'),
    provenance: z
      .object({
        collectedBy: z.string().describe('How and how often Herald collects from it'),
        nullMeans: z.string().describe('What a null value from this source means'),
        collectedAtMeans: z.string().describe('What `provenance.collectedAt` means in the answers that name this source'),
      })
      .describe('The rules for reading numbers from this source, in words'),
  })
  .meta({ id: 'Source', description: 'A data source of this deployment and its rules for reading the numbers it gives.' });
export type SourceDto = z.infer<typeof ZSource>;

// ── Ad accounts ──
export const ZAdAccount = z
  .object({
    id: z.uuid().describe('The ad account, for the accountId of GET /metrics/summary and GET /metrics/daily'),
    source: ZAdSource.describe('The ad platform the account lives on (sandbox: demo data)'),
    externalId: z.string().describe('The account’s id on that platform'),
    name: z.string().describe('The account’s name, as given when it was connected'),
    currency: z.string().describe('The currency spend is reported in, ISO 4217'),
    sync: z
      .object({
        status: z.enum(['never', 'ok', 'error']).describe('Outcome of the last sync attempt'),
        lastSyncAt: ZNullableTimestamp.describe('Last attempt, successful or not'),
        lastSuccessAt: ZNullableTimestamp.describe('The last sync that succeeded; null until one has'),
        lastError: z.string().nullable().describe('The last failure, verbatim from the platform or the network; null after a success'),
        lastErrorAt: ZNullableTimestamp.describe('When the last failure happened; null when none has'),
        syncedThrough: ZDay.nullable().describe('The newest day stored'),
      })
      .describe('The daily sync of this account’s numbers: how it last went'),
    provenance: ZProvenance,
    createdAt: ZTimestamp.describe('When the account was connected to the workspace, in ISO 8601'),
  })
  .meta({ id: 'AdAccount', description: 'An ad account the workspace reads spend and results from, and how its daily sync is going.' });
export type AdAccountDto = z.infer<typeof ZAdAccount>;

// ── Metrics ──
const counter = (what: string) => z.number().nullable().describe(`${what}; null when the source gave no reading, never 0 in its place`);
const ratio = (what: string) => z.number().nullable().describe(`${what}; null when a part is null or the denominator is 0`);

export const ZMetricValues = z.object({
  impressions: counter('Impressions'),
  reach: counter('Reach (in a summary: the sum of the daily reach, an upper bound of unique reach)'),
  clicks: counter('Clicks'),
  spend: z.object({ amount: counter('Spend in the account currency'), currency: z.string().describe('ISO 4217') }).describe('Money spent, with its currency'),
  conversions: counter('Conversions (may be fractional when the platform attributes them so)'),
  ctr: ratio('clicks ÷ impressions, a fraction (0.0123 = 1.23 %)'),
  cpc: ratio('spend ÷ clicks'),
  cpm: ratio('spend ÷ impressions × 1,000'),
});
export type MetricValues = z.infer<typeof ZMetricValues>;

export const ZMetricsSummary = ZMetricValues.extend({
  accountId: z.uuid().describe('The ad account summed'),
  from: ZDay.describe('First day summed, inclusive'),
  to: ZDay.describe('Last day summed, inclusive'),
  days: z.number().int().describe('Days in the window, from and to included (days without a reading count too)'),
}).meta({ id: 'MetricsSummary', description: 'An ad account’s numbers summed over the window.' });
export const ZMetricsDay = ZMetricValues.extend({
  date: ZDay,
  hasReading: z.boolean().describe('false: the source reported nothing for this day (every counter is null)'),
  collectedAt: ZNullableTimestamp.describe('When Herald last fetched this day from the platform; null when it has no reading'),
}).meta({ id: 'MetricsDay', description: 'An ad account’s numbers for one day.' });

const windowQuery = {
  from: ZDay.describe('First day of the window, YYYY-MM-DD in the workspace’s time zone (inclusive)'),
  to: ZDay.describe('Last day of the window, YYYY-MM-DD (inclusive); at most 366 days after from'),
  accountId: z.uuid().describe('An id from GET /ad-accounts'),
};
export const ZSummaryQuery = z.strictObject(windowQuery).superRefine(checkWindow);
export const ZDailyQuery = z.strictObject({ ...windowQuery, limit: ZLimit }).superRefine(checkWindow);
export type SummaryQuery = z.infer<typeof ZSummaryQuery>;
export type DailyQuery = z.infer<typeof ZDailyQuery>;

export const ZSummaryResponse = z.object({ data: ZMetricsSummary, provenance: ZMetricsProvenance });
export const ZDailyResponse = z.object({
  data: z.array(ZMetricsDay).describe('One row per day of the window, newest first, days without a reading included'),
  nextTo: ZDay.nullable().describe('Pass as `to` (same from) for the older days; null when the window is exhausted'),
  provenance: ZMetricsProvenance,
});
