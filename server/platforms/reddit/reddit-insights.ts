// Reddit post metrics: the listing Reddit returns for the posts' fullnames.
//
// Source: https://www.reddit.com/dev/api#GET_api_info (scope read)
//   GET https://oauth.reddit.com/api/info?id=t3_a,t3_b  (up to 100 fullnames)
//   → { kind: "Listing", data: { children: [{ kind: "t3", data: { name, score, ups,
//       upvote_ratio, num_comments, num_crossposts, view_count, removed_by_category, … } }] } }
//   A fullname Reddit does not know is left out of children. view_count is null for everyone
//   but Reddit's own clients, so views are null with that reason.
//   Rate limits: X-Ratelimit-Used / -Remaining / -Reset (https://github.com/reddit-archive/reddit/wiki/API).
// Decisions: reactions are `ups` (Reddit hides downvotes, so ups is what the post received;
// `score` nets them out); shares are num_crossposts (the only share count Reddit reports); a
// post Reddit reports removed (removed_by_category: deleted, moderator, …) has no metrics, with
// that reason. The token must carry the `read` scope: one without it is refused with 403, which
// leaves every metric null with that reason rather than failing the connection.
import { apiEndpoint, callApi } from '../http';
import { followers, allNull, batches, networkMetricSet, numeric, read, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { withAccessToken } from '../token-refresh';
import { REDDIT_DEFAULT_BASE_URL, redditError, redditRetryAfter, redditUserAgent } from './reddit-api';
import { redditRefresher, type RedditOptions } from './reddit-publisher';

const MAX_IDS = 100;
const MISSING = 'Reddit returned no value for this post';
const FULLNAME = /^t3_[a-z0-9]+$/i;

interface RedditPost {
  name?: string;
  ups?: unknown;
  num_comments?: unknown;
  num_crossposts?: unknown;
  removed_by_category?: unknown;
}

export function createRedditInsightsReader(options: RedditOptions = {}): PostMetricsReader {
  return {
    maxIdsPerRequest: MAX_IDS,
    source: 'reddit',
    async readPostMetrics(connection, posts, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'REDDIT_API_BASE_URL', REDDIT_DEFAULT_BASE_URL);
      const out = new Map<string, PostMetricsResult>();
      const readable = posts.filter((p) => FULLNAME.test(p.postedId));
      for (const p of posts) {
        if (!FULLNAME.test(p.postedId)) {
          out.set(p.postedId, { ok: false, reason: 'Reddit gave no post id for this image submission, so Herald cannot ask for its metrics' });
        }
      }
      if (readable.length === 0) return out;
      return withAccessToken(connection, redditRefresher(fetch, options), tokens, async (token) => {
        for (const batch of batches(readable, MAX_IDS)) {
          const ids = batch.map((p) => p.postedId);
          const response = await callApi(fetch, `${baseUrl}/api/info?id=${ids.map(encodeURIComponent).join(',')}&raw_json=1`, {
            headers: { authorization: `bearer ${token}`, 'user-agent': redditUserAgent() },
            timeoutMs: options.timeoutMs,
            retryAfter: redditRetryAfter,
          });
          if (response.status === 403) {
            const reason = 'Reddit refused to read posts: the connection’s token lacks the read scope (reconnect the account once Herald asks for it)';
            for (const id of ids) out.set(id, { ok: true, metrics: allNull(reason) });
            continue;
          }
          const error = redditError(response);
          if (error) throw error; // 401 → token expired (refreshed once); 429 not waited out, 5xx → the connection's failure
          const children = (response.json as { data?: { children?: { data?: RedditPost }[] } } | null)?.data?.children ?? [];
          const found = new Map(children.flatMap((c) => (c.data?.name ? [[String(c.data.name), c.data] as const] : [])));
          for (const id of ids) {
            const post = found.get(id);
            if (!post) {
              out.set(id, { ok: false, reason: 'Reddit did not return this post (it does not exist any more)' });
              continue;
            }
            if (typeof post.removed_by_category === 'string' && post.removed_by_category) {
              out.set(id, { ok: false, reason: `Reddit reports this post removed (removed_by_category: ${post.removed_by_category})` });
              continue;
            }
            out.set(id, {
              ok: true,
              metrics: networkMetricSet(
                'reddit',
                {
                  reactions: read(numeric(post.ups), 'ups', MISSING),
                  comments: read(numeric(post.num_comments), 'num_comments', MISSING),
                  shares: read(numeric(post.num_crossposts), 'num_crossposts', MISSING),
                },
                MISSING,
              ),
            });
          }
        }
        return out;
      });
    },
    // GET /api/v1/me → subreddit.subscribers: the followers of the account's profile
    // (https://www.reddit.com/dev/api/#GET_api_v1_me)
    async readFollowers(connection, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'REDDIT_API_BASE_URL', REDDIT_DEFAULT_BASE_URL);
      return withAccessToken(connection, redditRefresher(fetch, options), tokens, async (token) => {
        const response = await callApi(fetch, `${baseUrl}/api/v1/me?raw_json=1`, {
          headers: { authorization: `bearer ${token}`, 'user-agent': redditUserAgent() },
          timeoutMs: options.timeoutMs,
          retryAfter: redditRetryAfter,
        });
        const error = redditError(response);
        if (error) throw error;
        const profile = (response.json as { subreddit?: { subscribers?: unknown } } | null)?.subreddit;
        return followers(profile?.subscribers, 'subreddit.subscribers', 'Reddit returned no profile followers for this account');
      });
    },
  };
}
