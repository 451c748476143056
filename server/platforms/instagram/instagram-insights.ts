// Instagram post metrics: media insights of the Instagram Graph API (Facebook Login flavour).
//
// Source: https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights
//   GET /<IG_MEDIA_ID>/insights?metric=views,reach,likes,comments,shares,saved
//   → { data: [{ name, period: "lifetime", values: [{ value }], title, description, id }] }
//   Several media in one request: GET /?ids=<id>,<id>&fields=insights.metric(…) (up to 50).
//   "If insights data you are requesting does not exist or is currently unavailable, the API
//   returns an empty data set instead of 0": a metric left out is null, never 0.
//   impressions, plays and video_views were retired in v22.0 (April 2025): views replaces them,
//   so impressions is null with that reason; a metric a later version retires is dropped by
//   readGraphInsights and null with Meta's message.
// Permission: instagram_manage_insights (a token without it is refused with code 10 or 200).
import { apiEndpoint, type AdapterOptions } from '../http';
import { graphClient } from '../graph-api';
import { readGraphInsights } from '../graph-insights';
import { followers, networkMetricSet, numeric, read, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { withAccessToken } from '../token-refresh';
import { INSTAGRAM_DEFAULT_BASE_URL } from './instagram-publisher';

const NAME = 'Instagram';
const METRICS = ['views', 'reach', 'likes', 'comments', 'shares', 'saved'] as const;
const MISSING = 'Instagram returned no value for this media (not available yet, or not for this media type)';

export function createInstagramInsightsReader(options: AdapterOptions = {}): PostMetricsReader {
  return {
    maxIdsPerRequest: 50,
    source: 'instagram',
    async readPostMetrics(connection, posts, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'INSTAGRAM_GRAPH_BASE_URL', INSTAGRAM_DEFAULT_BASE_URL);
      return withAccessToken(connection, null, tokens, async (token) => {
        const graph = graphClient(fetch, baseUrl, token, NAME, options.timeoutMs);
        const ids = posts.map((p) => p.postedId);
        const { byId, dropped } = await readGraphInsights(graph, ids, METRICS);
        const out = new Map<string, PostMetricsResult>();
        for (const id of ids) {
          const found = byId.get(id);
          if (!found) {
            out.set(id, { ok: false, reason: 'Instagram did not return this media (deleted, or not owned by the account)' });
            continue;
          }
          const value = (name: (typeof METRICS)[number]) => {
            const retired = dropped.get(name);
            return retired
              ? { value: null, reason: `Instagram no longer returns ${name} in this API version: ${retired}`, networkName: name }
              : read(numeric(found.insights.get(name)), name, MISSING);
          };
          out.set(id, {
            ok: true,
            metrics: networkMetricSet(
              'instagram',
              {
                reach: value('reach'),
                views: value('views'),
                reactions: value('likes'),
                comments: value('comments'),
                shares: value('shares'),
                saves: value('saved'),
              },
              MISSING,
            ),
          });
        }
        return out;
      });
    },
    // GET /{ig-user-id}?fields=followers_count (https://developers.facebook.com/docs/instagram-platform/reference/instagram-user)
    async readFollowers(connection, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'INSTAGRAM_GRAPH_BASE_URL', INSTAGRAM_DEFAULT_BASE_URL);
      return withAccessToken(connection, null, tokens, async (token) => {
        const user = await graphClient(fetch, baseUrl, token, NAME, options.timeoutMs).get(connection.externalId, { fields: 'followers_count' });
        return followers(user.followers_count, 'followers_count', 'Instagram returned no followers_count for this account');
      });
    },
  };
}
