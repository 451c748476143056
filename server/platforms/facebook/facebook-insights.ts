// Facebook Page post metrics: the post's counters and its insights, several posts per request.
//
// Sources:
//   https://developers.facebook.com/docs/graph-api/reference/insights (Page post metrics)
//   https://developers.facebook.com/docs/platforminsights/page/deprecated-metrics
//     post_impressions_unique and the other *_unique post metrics were retired on June 15, 2025
//     (alternative: post_total_media_view_unique); a retired metric is null with Meta's message.
//   https://developers.facebook.com/docs/graph-api/reference/post (shares, comments, reactions)
//   GET /?ids=<post>,<post>&fields=shares,comments.summary(true).limit(0),reactions.summary(true).limit(0),
//       insights.metric(post_media_view,post_total_media_view_unique,post_clicks_by_type)
//   Graph leaves `shares` out of a post nobody shared: inside a returned post that is a zero.
// Permission: read_insights and pages_read_engagement on a Page token.
import { apiEndpoint, jsonAt, type AdapterOptions } from '../http';
import { graphClient } from '../graph-api';
import { readGraphInsights } from '../graph-insights';
import { followers, networkMetricSet, numeric, read, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { withAccessToken } from '../token-refresh';
import { FACEBOOK_DEFAULT_BASE_URL } from './facebook-publisher';

const NAME = 'Facebook';
const METRICS = ['post_media_view', 'post_total_media_view_unique', 'post_clicks_by_type'] as const;
const FIELDS = 'shares,comments.summary(true).limit(0),reactions.summary(true).limit(0)';
const MISSING = 'Facebook returned no value for this post (Page insights need 100 followers; new posts may lag up to a day)';

export function createFacebookInsightsReader(options: AdapterOptions = {}): PostMetricsReader {
  return {
    maxIdsPerRequest: 50,
    source: 'facebook',
    async readPostMetrics(connection, posts, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'FACEBOOK_GRAPH_BASE_URL', FACEBOOK_DEFAULT_BASE_URL);
      return withAccessToken(connection, null, tokens, async (token) => {
        const graph = graphClient(fetch, baseUrl, token, NAME, options.timeoutMs);
        const ids = posts.map((p) => p.postedId);
        const { byId, dropped } = await readGraphInsights(graph, ids, METRICS, { fields: FIELDS });
        const out = new Map<string, PostMetricsResult>();
        for (const id of ids) {
          const found = byId.get(id);
          if (!found) {
            out.set(id, { ok: false, reason: 'Facebook did not return this post (deleted, or not on this Page)' });
            continue;
          }
          const insight = (name: (typeof METRICS)[number], pick: (v: unknown) => number | null = numeric) => {
            const retired = dropped.get(name);
            if (retired) return { value: null, reason: `Facebook no longer returns ${name} in this API version: ${retired}`, networkName: name };
            const raw = found.insights.get(name);
            return read(raw === undefined ? null : pick(raw), name, MISSING);
          };
          const { fields } = found;
          out.set(id, {
            ok: true,
            metrics: networkMetricSet(
              'facebook',
              {
                impressions: insight('post_media_view'),
                reach: insight('post_total_media_view_unique'),
                reactions: read(numeric(jsonAt(fields, 'reactions', 'summary', 'total_count')), 'reactions.summary.total_count', MISSING),
                comments: read(numeric(jsonAt(fields, 'comments', 'summary', 'total_count')), 'comments.summary.total_count', MISSING),
                shares: read(numeric(jsonAt(fields, 'shares', 'count')) ?? 0, 'shares.count', MISSING),
                // A breakdown: a click type left out of a returned breakdown had no clicks.
                linkClicks: insight('post_clicks_by_type', (v) =>
                  v && typeof v === 'object' ? (numeric((v as Record<string, unknown>)['link clicks']) ?? 0) : null,
                ),
              },
              MISSING,
            ),
          });
        }
        return out;
      });
    },
    // GET /{page-id}?fields=followers_count (https://developers.facebook.com/docs/graph-api/reference/page/)
    async readFollowers(connection, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'FACEBOOK_GRAPH_BASE_URL', FACEBOOK_DEFAULT_BASE_URL);
      return withAccessToken(connection, null, tokens, async (token) => {
        const page = await graphClient(fetch, baseUrl, token, NAME, options.timeoutMs).get(connection.externalId, { fields: 'followers_count' });
        return followers(page.followers_count, 'followers_count', 'Facebook returned no followers_count for this Page');
      });
    },
  };
}
