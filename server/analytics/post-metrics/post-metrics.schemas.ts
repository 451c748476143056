// Wire shapes of the post-results routes: per-post metrics, top posts, per-connection rollups,
// the CSV export and on-demand collection. Every counter is a number or null, never 0 in place
// of unknown; `nullReasons` says why a counter is null.
import { z } from 'zod';
import { checkWindow, ZDay, ZLimit } from '@/server/shared/analytics-window';
import { PLATFORMS } from '@/server/shared/platforms';
import { ZIdOf, ZNullableTimestamp, ZTimestamp } from '@/server/shared/schemas';
import { POST_METRICS } from '@/server/platforms/insights';
import { ZProvenance } from '../analytics.schemas';

const counter = (_what: string) => z.number().nullable();

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
  .describe('Counters; null when the network gave no value (nullReasons says why), never 0 in its place')
  .meta({ id: 'PostMetricValues' });

export const ZMetricOrEngagement = z.enum([...POST_METRICS, 'engagement']);

export const ZPostMetricReading = z
  .object({
    collectedAt: ZTimestamp,
    slot: z.string().nullable().describe('1h, 24h, 7d, 28d after publishing; null on demand'),
    trigger: z.enum(['schedule', 'on_demand', 'seed']),
    source: z.string().describe('The network, or sandbox (demo data)'),
    metrics: ZPostMetricValues,
    engagement: z.number().nullable(),
    nullReasons: z.record(z.string(), z.string()).describe('Why each null metric is null'),
    networkNames: z.record(z.string(), z.string()).describe('The network’s own metric names'),
  })
  .meta({ id: 'PostMetricReading' });

export const ZPostTargetMetrics = z
  .object({
    targetId: z.uuid(),
    connectionId: z.uuid(),
    platform: z.enum(PLATFORMS),
    accountName: z.string(),
    status: z.string(),
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
  from: ZDay.describe('First publishing day (workspace time zone)'),
  to: ZDay.describe('Last publishing day, inclusive; at most 366 days after from'),
};

export const ZTopPostsQuery = z
  .strictObject({
    ...windowQuery,
    sort: ZMetricOrEngagement.optional().describe('Default engagement'),
    platform: z.enum(PLATFORMS).optional().describe('Only this network'),
    limit: ZLimit.optional().describe('1 to 100, default 10'),
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
    content: z.string().describe('First 280 characters'),
    mediaUrls: z.array(z.string()),
    permalink: z.string().nullable(),
    publishedAt: ZTimestamp,
    latest: ZPostMetricReading,
  })
  .meta({ id: 'TopPost' });

export const ZWindowProvenance = ZPostResultsProvenance.extend({
  timeZone: z.string(),
  window: z.object({ from: ZDay, to: ZDay }),
  postsInWindow: z.number().int(),
  withReading: z.number().int(),
});

const ZTotals = ZPostMetricValues.extend({
  engagement: z.number().nullable(),
  posts: z.number().int().describe('Published targets (a post on one account)'),
  withReading: z.number().int(),
});

export const ZTopPostsResponse = z.object({
  data: z.array(ZTopPost),
  networks: z
    .array(ZTotals.extend({ platform: z.enum(PLATFORMS) }))
    .describe('The window’s totals per network (within the platform filter), the most engaging first'),
  provenance: ZWindowProvenance.extend({ sort: ZMetricOrEngagement }),
});

export const ZRollupQuery = z.strictObject({ id: ZIdOf('connection', 'from connections_list'), ...windowQuery }).superRefine(checkWindow);
export type RollupQuery = z.infer<typeof ZRollupQuery>;

export const ZRollupResponse = z.object({
  data: z.object({
    connectionId: z.uuid(),
    platform: z.enum(PLATFORMS),
    accountName: z.string(),
    followers: z
      .object({
        value: z.number().nullable().describe('The newest follower count read on or before the window’s last day; null with the reason when there is none'),
        reason: z.string().nullable().describe('Why value is null (the network reports no followers, none read yet); null when there is a value'),
        networkName: z.string().nullable().describe('The network’s own name for the count, e.g. followers_count or subscriberCount'),
        collectedAt: ZNullableTimestamp.describe('When that count was read'),
        source: z.string().nullable().describe('The network’s API, or sandbox for demo data'),
        change: z.number().nullable().describe('value minus the first count read within the window; null with fewer than two counts'),
      })
      .describe('The account’s audience: read once a day beside post metrics (docs/analytics.md, “Followers”)'),
    totals: ZTotals,
    days: z.array(
      ZTotals.extend({
        date: ZDay,
        followers: z.number().nullable().describe('The last follower count read that day (workspace time zone); null when none was read'),
      }),
    ),
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
    csv: z.string(),
  })
  .meta({ id: 'CsvExport' });

export const ZCollectResult = z.object({
  queued: z.array(z.object({ targetId: z.uuid(), connectionId: z.uuid(), platform: z.enum(PLATFORMS) })),
});
