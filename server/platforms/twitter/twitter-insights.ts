// X post metrics: the posts lookup with metrics, up to 100 posts per request.
//
// Source: https://docs.x.com/x-api/posts/lookup/introduction and
//   https://docs.x.com/x-api/fundamentals/metrics
//   GET /2/tweets?ids=<id>,<id>&tweet.fields=public_metrics,non_public_metrics
//   → { data: [{ id, public_metrics: { retweet_count, reply_count, like_count, quote_count,
//       bookmark_count, impression_count }, non_public_metrics: { impression_count,
//       url_link_clicks, user_profile_clicks } }], errors: [{ resource_id, title, detail }] }
//   non_public_metrics need the author's user token and exist only for posts of the last 30
//   days, so older posts are asked for public_metrics only (link clicks null, with that reason).
import { apiEndpoint, type AdapterOptions } from '../http';
import { followers, batches, networkMetricSet, numeric, read, sumOf, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { withAccessToken } from '../token-refresh';
import { xRefresher } from './twitter-publisher';
import { X_DEFAULT_BASE_URL, xClient } from './x-api';

const MISSING = 'X returned no value for this post';
const PRIVATE_DAYS = 30;

interface XPost {
  id?: string;
  public_metrics?: Record<string, unknown>;
  non_public_metrics?: Record<string, unknown>;
}

export function createTwitterInsightsReader(options: AdapterOptions = {}): PostMetricsReader {
  return {
    maxIdsPerRequest: 100,
    source: 'twitter',
    async readPostMetrics(connection, posts, { tokens, now }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'X_API_BASE_URL', X_DEFAULT_BASE_URL);
      return withAccessToken(connection, xRefresher(fetch, baseUrl, options), tokens, async (token) => {
        const api = xClient(fetch, baseUrl, token, options.timeoutMs);
        const out = new Map<string, PostMetricsResult>();
        const recent = (p: { publishedAt: Date }) => now.getTime() - p.publishedAt.getTime() < PRIVATE_DAYS * 86_400_000;
        const groups = [
          { posts: posts.filter(recent), fields: 'public_metrics,non_public_metrics' },
          { posts: posts.filter((p) => !recent(p)), fields: 'public_metrics' },
        ];
        for (const group of groups) {
          for (const batch of batches(group.posts, 100)) {
            const ids = batch.map((p) => p.postedId);
            const answer = await api.call(`/2/tweets?ids=${ids.map(encodeURIComponent).join(',')}&tweet.fields=${group.fields}`);
            const body = answer.json as { data?: XPost[]; errors?: { resource_id?: string; detail?: string; title?: string }[] } | null;
            const found = new Map((body?.data ?? []).filter((p) => p.id).map((p) => [String(p.id), p]));
            for (const id of ids) {
              const post = found.get(id);
              if (!post) {
                const why = body?.errors?.find((e) => e.resource_id === id);
                out.set(id, { ok: false, reason: why?.detail ?? why?.title ?? 'X did not return this post (deleted or protected)' });
                continue;
              }
              const pub = post.public_metrics ?? {};
              const priv = post.non_public_metrics;
              const clicksReason = group.fields.includes('non_public')
                ? 'X returned no url_link_clicks for this post (it has no link, or the token is not the author’s)'
                : `X gives non-public metrics (url_link_clicks) only for the ${PRIVATE_DAYS} days after posting`;
              out.set(id, {
                ok: true,
                metrics: networkMetricSet(
                  'twitter',
                  {
                    impressions: read(numeric(pub.impression_count), 'public_metrics.impression_count', MISSING),
                    reactions: read(numeric(pub.like_count), 'public_metrics.like_count', MISSING),
                    comments: read(numeric(pub.reply_count), 'public_metrics.reply_count', MISSING),
                    shares: read(sumOf(numeric(pub.retweet_count), numeric(pub.quote_count)), 'public_metrics.retweet_count+quote_count', MISSING),
                    saves: read(numeric(pub.bookmark_count), 'public_metrics.bookmark_count', MISSING),
                    linkClicks: read(priv ? numeric(priv.url_link_clicks) : null, 'non_public_metrics.url_link_clicks', clicksReason),
                  },
                  MISSING,
                ),
              });
            }
          }
        }
        return out;
      });
    },
    // GET /2/users/me?user.fields=public_metrics → data.public_metrics.followers_count
    // (https://docs.x.com/x-api/users/user-lookup-me)
    async readFollowers(connection, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'X_API_BASE_URL', X_DEFAULT_BASE_URL);
      return withAccessToken(connection, xRefresher(fetch, baseUrl, options), tokens, async (token) => {
        const answer = await xClient(fetch, baseUrl, token, options.timeoutMs).call('/2/users/me?user.fields=public_metrics');
        const metrics = (answer.json as { data?: { public_metrics?: { followers_count?: unknown } } } | null)?.data?.public_metrics;
        return followers(metrics?.followers_count, 'public_metrics.followers_count', 'X returned no followers_count for this account');
      });
    },
  };
}
