// LinkedIn post metrics: organization share statistics for page posts (several per request),
// member post analytics for a member's own posts (one metric per request).
//
// Sources:
//   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/share-statistics
//     GET /rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=<org urn>
//         &shares=List(<urn:li:share>,…)&ugcPosts=List(<urn:li:ugcPost>,…)
//     → { elements: [{ share | ugcPost, totalShareStatistics: { impressionCount, uniqueImpressionsCount,
//         clickCount, likeCount, commentCount, shareCount, engagement } }] }   (rw_organization_admin)
//   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/members/post-statistics
//     GET /rest/memberCreatorPostAnalytics?q=entity&entity=(share:<urn>)&queryType=IMPRESSION&aggregation=TOTAL
//     → { elements: [{ count }] } for IMPRESSION, MEMBERS_REACHED, REACTION, COMMENT, RESHARE
//     (r_member_postAnalytics: a token without it is refused with 403, and every metric is null
//     with that reason rather than failing the connection).
import { apiEndpoint, callApi, isSuccess, jsonString, type ApiResponse } from '../http';
import { batches, networkMetricSet, notOffered, numeric, read, type PostMetrics, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { env } from '@/server/config/env';
import { withAccessToken } from '../token-refresh';
import { LINKEDIN_DEFAULT_BASE_URL, LINKEDIN_DEFAULT_VERSION, linkedinError } from './linkedin-api';
import { linkedinRefresher, type LinkedInOptions } from './linkedin-publisher';

const MISSING = 'LinkedIn returned no value for this post';
const ORG_BATCH = 20;
const MEMBER_METRICS = [
  ['impressions', 'IMPRESSION'],
  ['reach', 'MEMBERS_REACHED'],
  ['reactions', 'REACTION'],
  ['comments', 'COMMENT'],
  ['shares', 'RESHARE'],
] as const;

const urnList = (urns: string[]) => `List(${urns.map(encodeURIComponent).join(',')})`;

export function createLinkedInInsightsReader(options: LinkedInOptions = {}): PostMetricsReader {
  return {
    maxIdsPerRequest: ORG_BATCH,
    source: 'linkedin',
    async readPostMetrics(connection, posts, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'LINKEDIN_API_BASE_URL', LINKEDIN_DEFAULT_BASE_URL);
      const version = options.version ?? env.linkedinApiVersion() ?? LINKEDIN_DEFAULT_VERSION;
      return withAccessToken(connection, linkedinRefresher(fetch, options), tokens, async (token) => {
        const headers = { authorization: `Bearer ${token}`, 'linkedin-version': version, 'x-restli-protocol-version': '2.0.0' };
        const get = (path: string): Promise<ApiResponse> => callApi(fetch, `${baseUrl}${path}`, { headers, timeoutMs: options.timeoutMs });
        const out = new Map<string, PostMetricsResult>();
        if (connection.externalId.startsWith('urn:li:organization:')) {
          for (const batch of batches(posts, ORG_BATCH)) {
            const shares = batch.map((p) => p.postedId).filter((u) => u.startsWith('urn:li:share:'));
            const ugcPosts = batch.map((p) => p.postedId).filter((u) => !u.startsWith('urn:li:share:'));
            const query = [
              `q=organizationalEntity&organizationalEntity=${encodeURIComponent(connection.externalId)}`,
              shares.length ? `shares=${urnList(shares)}` : '',
              ugcPosts.length ? `ugcPosts=${urnList(ugcPosts)}` : '',
            ].filter(Boolean);
            const res = await get(`/rest/organizationalEntityShareStatistics?${query.join('&')}`);
            if (!isSuccess(res)) throw linkedinError(res);
            const elements = ((res.json as { elements?: Record<string, unknown>[] } | null)?.elements ?? []) as Record<string, unknown>[];
            for (const { postedId } of batch) {
              const element = elements.find((e) => e.share === postedId || e.ugcPost === postedId);
              const s = element?.totalShareStatistics as Record<string, unknown> | undefined;
              if (!s) {
                out.set(postedId, { ok: false, reason: 'LinkedIn returned no statistics for this post (deleted, or not the page’s)' });
                continue;
              }
              const stat = (name: string) => read(numeric(s[name]), `totalShareStatistics.${name}`, MISSING);
              out.set(postedId, {
                ok: true,
                metrics: networkMetricSet(
                  'linkedin',
                  {
                    impressions: stat('impressionCount'),
                    reach: stat('uniqueImpressionsCount'),
                    reactions: stat('likeCount'),
                    comments: stat('commentCount'),
                    shares: stat('shareCount'),
                    linkClicks: stat('clickCount'),
                  },
                  MISSING,
                ),
              });
            }
          }
          return out;
        }

        // A member's own posts: one request per post and metric.
        for (const { postedId } of posts) {
          const given: Partial<PostMetrics> = { linkClicks: notOffered('LinkedIn reports clicks only for page posts') };
          let refused: string | null = null;
          for (const [metric, queryType] of MEMBER_METRICS) {
            const res = await get(
              `/rest/memberCreatorPostAnalytics?q=entity&entity=(share:${encodeURIComponent(postedId)})&queryType=${queryType}&aggregation=TOTAL`,
            );
            if (res.status === 403) {
              refused = `LinkedIn refused the post analytics: ${jsonString(res.json, 'message') || 'HTTP 403'} (the token lacks r_member_postAnalytics)`;
              break;
            }
            if (!isSuccess(res)) throw linkedinError(res);
            const count = (res.json as { elements?: { count?: unknown }[] } | null)?.elements?.[0]?.count;
            given[metric] = read(numeric(count), queryType, MISSING);
          }
          out.set(postedId, { ok: true, metrics: networkMetricSet('linkedin', refused ? {} : given, refused ?? MISSING) });
        }
        return out;
      });
    },
  };
}
