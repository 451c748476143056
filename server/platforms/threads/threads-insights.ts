// Threads post metrics: media insights of the Threads API, one post per request (the insights
// edge takes one media id; no multiple-id lookup is documented).
//
// Source: https://developers.facebook.com/docs/threads/insights
//   GET /{threads-media-id}/insights?metric=views,likes,replies,reposts,quotes,shares
//   → { data: [{ name, period: "lifetime", values: [{ value }], title, description, id }] }
//   views is marked "in development"; a metric left out is null. REPOST_FACADE posts answer an
//   empty list. Permission: threads_manage_insights.
import { apiEndpoint, type AdapterOptions } from '../http';
import { graphClient } from '../graph-api';
import { readGraphInsights } from '../graph-insights';
import { followers, networkMetricSet, numeric, read, sumOf, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { withAccessToken } from '../token-refresh';
import { threadsRefresher, THREADS_DEFAULT_BASE_URL } from './threads-publisher';

const NAME = 'Threads';
const METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'] as const;
const MISSING = 'Threads returned no value for this post';

export function createThreadsInsightsReader(options: AdapterOptions = {}): PostMetricsReader {
  return {
    maxIdsPerRequest: 1,
    source: 'threads',
    async readPostMetrics(connection, posts, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'THREADS_API_BASE_URL', THREADS_DEFAULT_BASE_URL);
      return withAccessToken(connection, threadsRefresher(fetch, baseUrl), tokens, async (token) => {
        const graph = graphClient(fetch, baseUrl, token, NAME, options.timeoutMs);
        const ids = posts.map((p) => p.postedId);
        const { byId, dropped } = await readGraphInsights(graph, ids, METRICS, { perObject: true });
        const out = new Map<string, PostMetricsResult>();
        for (const id of ids) {
          const values = byId.get(id)?.insights;
          if (!values || values.size === 0) {
            out.set(id, { ok: false, reason: 'Threads returned no insights for this post (deleted, or a repost of someone else’s post)' });
            continue;
          }
          const value = (name: (typeof METRICS)[number]) => {
            const retired = dropped.get(name);
            return retired
              ? { value: null, reason: `Threads no longer returns ${name}: ${retired}`, networkName: name }
              : read(numeric(values.get(name)), name, MISSING);
          };
          const reposts = [value('reposts'), value('quotes'), value('shares')];
          out.set(id, {
            ok: true,
            metrics: networkMetricSet(
              'threads',
              {
                views: value('views'),
                reactions: value('likes'),
                comments: value('replies'),
                shares: read(sumOf(...reposts.map((r) => r.value)), 'reposts+quotes+shares', MISSING),
              },
              MISSING,
            ),
          });
        }
        return out;
      });
    },
    // GET /{threads-user-id}/threads_insights?metric=followers_count → data[].total_value.value
    // (https://developers.facebook.com/docs/threads/insights#user-insights)
    async readFollowers(connection, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'THREADS_API_BASE_URL', THREADS_DEFAULT_BASE_URL);
      return withAccessToken(connection, threadsRefresher(fetch, baseUrl), tokens, async (token) => {
        const answer = await graphClient(fetch, baseUrl, token, NAME, options.timeoutMs).get(`${connection.externalId}/threads_insights`, {
          metric: 'followers_count',
        });
        const entry = (answer.data as { name?: string; total_value?: { value?: unknown } }[] | undefined)?.find((d) => d.name === 'followers_count');
        return followers(entry?.total_value?.value, 'followers_count', 'Threads returned no followers_count for this account');
      });
    },
  };
}
