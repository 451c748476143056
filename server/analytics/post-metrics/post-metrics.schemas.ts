// Wire shapes of the post-results routes: per-post metrics, top posts, per-connection rollups,
// the CSV export and on-demand collection. Every counter is a number or null, never 0 in place
// of unknown; `nullReasons` says why a counter is null.
import { z } from 'zod';
import { checkWindow, ZDay, ZLimit } from '@/server/shared/analytics-window';
import { PLATFORMS } from '@/server/shared/platforms';
import { ZIdOf, ZNullableTimestamp, ZTimestamp } from '@/server/shared/schemas';
import { POST_METRICS } from '@/server/platforms/insights';
import { ZProvenance } from '../analytics.schemas';

const counter = (what: string) => z.number().nullable().describe(`${what}; null when the network gave no value, never 0 in its place`);

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
    collectedAt: ZTimestamp.describe('When Herald read these numbers from the network, in ISO 8601'),
    slot: z.string().nullable().describe('1h, 24h, 7d, 28d after publishing; null on demand'),
    trigger: z
      .enum(['schedule', 'on_demand', 'seed'])
      .describe('schedule: one of the due slots after publishing; on_demand: POST /posts/{id}/metrics/collect; seed: demo data written by `npm run seed`'),
    source: z.string().describe('The network, or sandbox (demo data)'),
    metrics: ZPostMetricValues,
    engagement: z.number().nullable().describe('reactions + comments + shares + saves, over the parts the network reports; null when it reports none of them'),
    nullReasons: z.record(z.string(), z.string()).describe('Why each null metric is null'),
    networkNames: z.record(z.string(), z.string()).describe('The network’s own metric names'),
  })
  .meta({ id: 'PostMetricReading', description: 'One reading of a target’s metrics from its network.' });

export const ZPostTargetMetrics = z
  .object({
    targetId: z.uuid().describe('The target: the post on one account'),
    connectionId: z.uuid().describe('The account it went to'),
    platform: z.enum(PLATFORMS).describe('The account’s network'),
    accountName: z.string().describe('The account’s handle'),
    status: z.string().describe('The target’s publishing status, as GET /posts/{id}/targets gives it; only published targets get readings'),
    postedId: z.string().nullable().describe('The post’s id on the network; null until it is published'),
    permalink: z.string().nullable().describe('The post’s address on the network; null until published, or when the network gives none'),
    publishedAt: ZNullableTimestamp.describe('When the target landed on the network, in ISO 8601; null until it does'),
    clicks: z
      .number()
      .int()
      .describe(
        'Clicks on the short links Herald put in this post’s text on this network (tracked links), every day together; 0 when none. Targets of one network share its links and this count.',
      ),
    latest: ZPostMetricReading.nullable().describe('The newest reading; null until one is collected'),
    history: z.array(ZPostMetricReading).describe('Every reading, oldest first'),
  })
  .meta({ id: 'PostTargetMetrics', description: 'One target of a post with its metric readings.' });

export const ZPostResultsProvenance = ZProvenance.extend({
  engagementFormula: z.string().describe('How engagement is computed, in words'),
}).meta({ id: 'PostResultsProvenance', description: 'Where post results came from, and how engagement is computed.' });

export const ZPostMetricsResponse = z.object({
  data: z
    .object({
      postId: z.uuid().describe('The post'),
      targets: z.array(ZPostTargetMetrics).describe('Each account the post goes to, with its readings'),
    })
    .describe('The post’s results per target'),
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
    rank: z.number().int().describe('Place in the ranking, from 1 (best by sort; ties go to the newest)'),
    postId: z.uuid().describe('The post'),
    targetId: z.uuid().describe('The target ranked: the post on one account'),
    connectionId: z.uuid().describe('The account it went to'),
    platform: z.enum(PLATFORMS).describe('The account’s network'),
    accountName: z.string().describe('The account’s handle'),
    content: z.string().describe('First 280 characters'),
    mediaUrls: z.array(z.string()).describe('The post’s media, in order'),
    permalink: z.string().nullable().describe('The post’s address on the network; null when the network gives none'),
    publishedAt: ZTimestamp.describe('When the target landed on the network, in ISO 8601'),
    clicks: z
      .number()
      .int()
      .describe(
        'Clicks on the short links Herald put in this post’s text on this network (tracked links), every day together; 0 when none. Targets of one network share its links and this count.',
      ),
    latest: ZPostMetricReading,
  })
  .meta({ id: 'TopPost', description: 'A published target in a ranking of the window, with its newest reading.' });

export const ZWindowProvenance = ZPostResultsProvenance.extend({
  timeZone: z.string().describe('The workspace’s IANA time zone the window’s days are read in'),
  window: z
    .object({ from: ZDay.describe('First publishing day, inclusive'), to: ZDay.describe('Last publishing day, inclusive') })
    .describe('The publishing days covered, in timeZone'),
  postsInWindow: z.number().int().describe('Targets published in the window'),
  withReading: z.number().int().describe('Of those, targets with at least one reading'),
});

const ZTotals = ZPostMetricValues.extend({
  engagement: z.number().nullable().describe('The sum of the targets’ engagement; null when none has a value'),
  posts: z.number().int().describe('Published targets (a post on one account)'),
  withReading: z.number().int().describe('Of those, targets with at least one reading'),
}).describe('Sums of each target’s newest reading; a counter is null when no target has a value for it');

export const ZTopPostsResponse = z.object({
  data: z.array(ZTopPost).describe('The best targets published in the window, up to limit, best first'),
  networks: z
    .array(ZTotals.extend({ platform: z.enum(PLATFORMS).describe('The network totalled') }))
    .describe('The window’s totals per network (within the platform filter), the most engaging first'),
  provenance: ZWindowProvenance.extend({ sort: ZMetricOrEngagement.describe('The metric the ranking is by') }).describe(
    'Where the numbers came from, the window and how many of its targets have readings',
  ),
});

export const ZRollupQuery = z.strictObject({ id: ZIdOf('connection', 'from connections_list'), ...windowQuery }).superRefine(checkWindow);
export type RollupQuery = z.infer<typeof ZRollupQuery>;

export const ZRollupResponse = z.object({
  data: z
    .object({
      connectionId: z.uuid().describe('The account'),
      platform: z.enum(PLATFORMS).describe('Its network'),
      accountName: z.string().describe('Its handle'),
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
      totals: ZTotals.describe('The window’s totals for the account'),
      days: z
        .array(
          ZTotals.extend({
            date: ZDay.describe('The publishing day (workspace time zone)'),
            followers: z.number().nullable().describe('The last follower count read that day (workspace time zone); null when none was read'),
          }),
        )
        .describe('Every day of the window, oldest first, with the totals of the targets published that day'),
    })
    .describe('The account’s results over the window'),
  provenance: ZWindowProvenance.describe('Where the numbers came from, the window and how many of its targets have readings'),
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
  queued: z
    .array(
      z.object({
        targetId: z.uuid().describe('The target to be read'),
        connectionId: z.uuid().describe('The account it went to'),
        platform: z.enum(PLATFORMS).describe('The account’s network'),
      }),
    )
    .describe('The published targets of active accounts whose reading was queued; empty when there is none'),
});
