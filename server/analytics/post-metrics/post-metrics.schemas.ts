// Wire shapes of the post-results routes: per-post metrics, top posts, per-connection rollups,
// the CSV export and on-demand collection. Every counter is a number or null, never 0 in place
// of unknown; `nullReasons` says why a counter is null.
import { z } from 'zod';
import { checkWindow, ZDay, ZLimit } from '@/server/shared/analytics-window';
import { PLATFORMS } from '@/server/shared/platforms';
import { ZNullableTimestamp, ZTimestamp } from '@/server/shared/schemas';
import { POST_METRICS } from '@/server/platforms/insights';
import { ZProvenance } from '../analytics.schemas';

const counter = (what: string) => z.number().nullable().describe(`${what}; null when the network gave no value (nullReasons says why), never 0 in its place`);

export const ZPostMetricValues = z
  .object({
    impressions: counter('Times the post was shown'),
    reach: counter('Unique accounts that saw it'),
    views: counter('Views (video plays, or the network’s own views)'),
    reactions: counter('Likes and other reactions'),
    comments: counter('Comments or replies'),
    shares: counter('Shares, reposts and quotes'),
    saves: counter('Saves or bookmarks'),
    linkClicks: counter('Clicks on the post’s link'),
    videoWatchSeconds: counter('Total video watch time, seconds'),
  })
  .meta({ id: 'PostMetricValues' });

export const ZMetricOrEngagement = z.enum([...POST_METRICS, 'engagement']);

export const ZPostMetricReading = z
  .object({
    collectedAt: ZTimestamp,
    slot: z.string().nullable().describe('The scheduled reading it is (1h, 24h, 7d, 28d after publishing); null for on-demand and seeded readings'),
    trigger: z.enum(['schedule', 'on_demand', 'seed']),
    source: z.string().describe('The network’s insights API (instagram, facebook, …) or sandbox (demo data)'),
    metrics: ZPostMetricValues,
    engagement: z.number().nullable().describe('reactions + comments + shares + saves (the parts reported); null when none is'),
    nullReasons: z.record(z.string(), z.string()).describe('metric → why it is null'),
    networkNames: z.record(z.string(), z.string()).describe('metric → the network’s own name for what was read'),
  })
  .meta({ id: 'PostMetricReading' });

export const ZPostTargetMetrics = z
  .object({
    targetId: z.uuid(),
    connectionId: z.uuid(),
    platform: z.enum(PLATFORMS),
    accountName: z.string(),
    status: z.string().describe('The target’s delivery status; only published targets have readings'),
    postedId: z.string().nullable(),
    permalink: z.string().nullable(),
    publishedAt: ZNullableTimestamp,
    latest: ZPostMetricReading.nullable(),
    history: z.array(ZPostMetricReading).describe('Every reading, oldest first'),
  })
  .meta({ id: 'PostTargetMetrics' });

export const ZPostResultsProvenance = ZProvenance.extend({
  engagementFormula: z.string(),
}).meta({ id: 'PostResultsProvenance' });

export const ZPostMetricsResponse = z.object({
  data: z.object({ postId: z.uuid(), targets: z.array(ZPostTargetMetrics) }),
  provenance: ZPostResultsProvenance,
});

const windowQuery = {
  from: ZDay.describe('First publishing day, YYYY-MM-DD in the workspace’s time zone (inclusive)'),
  to: ZDay.describe('Last publishing day (inclusive); at most 366 days after from'),
};

export const ZTopPostsQuery = z
  .strictObject({
    ...windowQuery,
    sort: ZMetricOrEngagement.optional().describe('The metric to rank by (default engagement), highest first'),
    platform: z.enum(PLATFORMS).optional(),
    limit: ZLimit.optional().describe('How many posts, 1 to 100 (default 10)'),
  })
  .superRefine(checkWindow);
export type TopPostsQuery = z.infer<typeof ZTopPostsQuery>;

export const ZTopPost = z
  .object({
    rank: z.number().int(),
    postId: z.uuid(),
    targetId: z.uuid(),
    connectionId: z.uuid(),
    platform: z.enum(PLATFORMS),
    accountName: z.string(),
    content: z.string().describe('The post’s text, at most 280 characters'),
    mediaUrls: z.array(z.string()),
    permalink: z.string().nullable(),
    publishedAt: ZTimestamp,
    latest: ZPostMetricReading,
  })
  .meta({ id: 'TopPost' });

export const ZWindowProvenance = ZPostResultsProvenance.extend({
  timeZone: z.string(),
  window: z.object({ from: ZDay, to: ZDay }),
  postsInWindow: z.number().int().describe('Published targets in the window'),
  withReading: z.number().int().describe('Of those, targets with at least one reading'),
});

export const ZTopPostsResponse = z.object({
  data: z.array(ZTopPost).describe('Highest first; targets without a value for the sort metric are left out'),
  provenance: ZWindowProvenance.extend({ sort: ZMetricOrEngagement }),
});

export const ZRollupQuery = z.strictObject({ id: z.string().min(1).max(200), ...windowQuery }).superRefine(checkWindow);
export type RollupQuery = z.infer<typeof ZRollupQuery>;

const ZTotals = ZPostMetricValues.extend({
  engagement: z.number().nullable(),
  posts: z.number().int().describe('Posts published that day (or in the window)'),
  withReading: z.number().int(),
});

export const ZRollupResponse = z.object({
  data: z.object({
    connectionId: z.uuid(),
    platform: z.enum(PLATFORMS),
    accountName: z.string(),
    followers: z.object({ value: z.number().nullable(), reason: z.string().nullable() }),
    totals: ZTotals,
    days: z.array(ZTotals.extend({ date: ZDay })).describe('One row per day of the window, oldest first: the latest readings of the posts published that day, summed'),
  }),
  provenance: ZWindowProvenance,
});

export const ZExportQuery = z.strictObject(windowQuery).superRefine(checkWindow);
export type ExportQuery = z.infer<typeof ZExportQuery>;

export const ZCsvExport = z
  .object({
    filename: z.string(),
    contentType: z.literal('text/csv'),
    rows: z.number().int(),
    csv: z.string().describe('RFC 4180 text, one row per published target with its latest reading'),
  })
  .meta({ id: 'CsvExport' });

export const ZCollectResult = z.object({
  queued: z.array(z.object({ targetId: z.uuid(), connectionId: z.uuid(), platform: z.enum(PLATFORMS) })),
});
