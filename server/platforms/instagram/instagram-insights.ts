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
// Instagram Login (graph.instagram.com) documents only GET /{media-id}/insights, so that flavour
// reads each media alone (instagram-api.ts insightsPerMedia); a media it no longer has is then
// refused with (#100) and answered as not returned, the others still read.
// Permission with Instagram Login: instagram_business_manage_insights.
import { type AdapterOptions } from '../http';
import { graphClient, type GraphClient } from '../graph-api';
import { isMissingObject } from '../graph-comments';
import { insightValues, readGraphInsights, type GraphInsightsResult } from '../graph-insights';
import { followers, networkMetricSet, numeric, read, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { withAccessToken } from '../token-refresh';
import { INSTAGRAM_FACEBOOK_LOGIN, instagramEndpoint, type InstagramApi } from './instagram-api';

const METRICS = ['views', 'reach', 'likes', 'comments', 'shares', 'saved'] as const;

export function createInstagramInsightsReader(options: AdapterOptions = {}, flavour: InstagramApi = INSTAGRAM_FACEBOOK_LOGIN): PostMetricsReader {
  const NAME = flavour.name;
  const MISSING = `${NAME} returned no value for this media (not available yet, or not for this media type)`;
  return {
    maxIdsPerRequest: 50,
    source: flavour.platform,
    async readPostMetrics(connection, posts, { tokens }) {
      const { fetch, baseUrl, refresher } = instagramEndpoint(options, flavour);
      return withAccessToken(connection, refresher, tokens, async (token) => {
        const graph = graphClient(fetch, baseUrl, token, NAME, options.timeoutMs);
        const ids = posts.map((p) => p.postedId);
        const { byId, dropped } = flavour.insightsPerMedia ? await readEachMedia(graph, ids) : await readGraphInsights(graph, ids, METRICS);
        const out = new Map<string, PostMetricsResult>();
        for (const id of ids) {
          const found = byId.get(id);
          if (!found) {
            out.set(id, { ok: false, reason: `${NAME} did not return this media (deleted, or not owned by the account)` });
            continue;
          }
          const value = (name: (typeof METRICS)[number]) => {
            const retired = dropped.get(name);
            return retired
              ? { value: null, reason: `${NAME} no longer returns ${name} in this API version: ${retired}`, networkName: name }
              : read(numeric(found.insights.get(name)), name, MISSING);
          };
          out.set(id, {
            ok: true,
            metrics: networkMetricSet(
              flavour.platform,
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
      const { fetch, baseUrl, refresher } = instagramEndpoint(options, flavour);
      return withAccessToken(connection, refresher, tokens, async (token) => {
        const user = await graphClient(fetch, baseUrl, token, NAME, options.timeoutMs).get(connection.externalId, { fields: 'followers_count' });
        return followers(user.followers_count, 'followers_count', `${NAME} returned no followers_count for this account`);
      });
    },
  };
}

/**
 * Each media read alone (GET /{media-id}/insights). A media Instagram no longer has ("does not
 * exist") is left out, answered as not returned; a metric this API version refuses is found and
 * dropped by readGraphInsights, and left out of the later media's requests.
 */
async function readEachMedia(graph: GraphClient, ids: readonly string[]): Promise<GraphInsightsResult> {
  const byId: GraphInsightsResult['byId'] = new Map();
  const dropped = new Map<string, string>();
  for (const id of ids) {
    const asked = METRICS.filter((m) => !dropped.has(m));
    try {
      byId.set(id, { insights: insightValues(await graph.get(`${id}/insights`, { metric: asked.join(',') })), fields: {} });
    } catch (error) {
      if (isMissingObject(error)) continue;
      const one = await readGraphInsights(graph, [id], asked, { perObject: true });
      for (const [metric, why] of one.dropped) dropped.set(metric, why);
      const found = one.byId.get(id);
      if (found) byId.set(id, found);
    }
  }
  return { byId, dropped };
}
