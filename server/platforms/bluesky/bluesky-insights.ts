// Bluesky post metrics: the counts of the post views the AppView hydrates, asked through the
// account's PDS (which proxies app.bsky queries to the AppView) with the session's access JWT.
//
// Source: https://docs.bsky.app/docs/api/app-bsky-feed-get-posts and the lexicons
//   app.bsky.feed.getPosts (uris: at-uri[], maxLength 25) and app.bsky.feed.defs#postView
//   GET /xrpc/app.bsky.feed.getPosts?uris=<at-uri>&uris=<at-uri>
//   → { posts: [{ uri, cid, author, record, indexedAt, replyCount, repostCount, likeCount,
//       quoteCount, bookmarkCount? }] }
//   A deleted post (or one whose author blocks the viewer) is simply left out of posts.
//   bookmarkCount joined postView with bookmarks (2025); an AppView that does not return it
//   leaves saves null. Bluesky reports no impressions, reach, views or clicks.
import { callApi, defaultFetch, isSuccess, type AdapterOptions } from '../http';
import { followers, batches, networkMetricSet, numeric, read, sumOf, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { withAccessToken } from '../token-refresh';
import { blueskyError, blueskyRefresher, blueskyRetryAfter } from './bluesky-api';
import { accountOf } from './bluesky-publisher';

const MAX_URIS = 25;
const MISSING = 'Bluesky returned no value for this post';

interface PostView {
  uri?: string;
  likeCount?: unknown;
  replyCount?: unknown;
  repostCount?: unknown;
  quoteCount?: unknown;
  bookmarkCount?: unknown;
}

export function createBlueskyInsightsReader(options: AdapterOptions = {}): PostMetricsReader {
  return {
    maxIdsPerRequest: MAX_URIS,
    source: 'bluesky',
    async readPostMetrics(connection, posts, { tokens }) {
      const fetch = options.fetch ?? defaultFetch();
      // Each account lives on its own PDS: options.baseUrl (tests) stands in for it.
      const { pds } = accountOf(connection, options.baseUrl);
      return withAccessToken(connection, blueskyRefresher(fetch, pds, options.timeoutMs), tokens, async (accessJwt) => {
        const out = new Map<string, PostMetricsResult>();
        for (const batch of batches(posts, MAX_URIS)) {
          const uris = batch.map((p) => p.postedId);
          const query = new URLSearchParams(uris.map((uri) => ['uris', uri]));
          const response = await callApi(fetch, `${pds}/xrpc/app.bsky.feed.getPosts?${query}`, {
            headers: { authorization: `Bearer ${accessJwt}` },
            timeoutMs: options.timeoutMs,
            retryAfter: blueskyRetryAfter,
          });
          if (!isSuccess(response)) throw blueskyError(response);
          const views = (response.json as { posts?: PostView[] } | null)?.posts ?? [];
          const found = new Map(views.filter((v) => v.uri).map((v) => [String(v.uri), v]));
          for (const uri of uris) {
            const view = found.get(uri);
            if (!view) {
              out.set(uri, { ok: false, reason: 'Bluesky did not return this post (deleted, or not visible to the account)' });
              continue;
            }
            out.set(uri, {
              ok: true,
              metrics: networkMetricSet(
                'bluesky',
                {
                  reactions: read(numeric(view.likeCount), 'likeCount', MISSING),
                  comments: read(numeric(view.replyCount), 'replyCount', MISSING),
                  shares: read(sumOf(numeric(view.repostCount), numeric(view.quoteCount)), 'repostCount+quoteCount', MISSING),
                  saves: read(numeric(view.bookmarkCount), 'bookmarkCount', 'Bluesky’s AppView returned no bookmarkCount for this post'),
                },
                MISSING,
              ),
            });
          }
        }
        return out;
      });
    },
    // GET /xrpc/app.bsky.actor.getProfile?actor=<did> → followersCount
    // (https://docs.bsky.app/docs/api/app-bsky-actor-get-profile)
    async readFollowers(connection, { tokens }) {
      const fetch = options.fetch ?? defaultFetch();
      const { pds, did } = accountOf(connection, options.baseUrl);
      return withAccessToken(connection, blueskyRefresher(fetch, pds, options.timeoutMs), tokens, async (accessJwt) => {
        const response = await callApi(fetch, `${pds}/xrpc/app.bsky.actor.getProfile?actor=${encodeURIComponent(did)}`, {
          headers: { authorization: `Bearer ${accessJwt}` },
          timeoutMs: options.timeoutMs,
          retryAfter: blueskyRetryAfter,
        });
        if (!isSuccess(response)) throw blueskyError(response);
        return followers(
          (response.json as { followersCount?: unknown } | null)?.followersCount,
          'followersCount',
          'Bluesky returned no followersCount for this account',
        );
      });
    },
  };
}
