// Mastodon post metrics: the counters of the status entity, read from the account's own server.
//
// Source: https://docs.joinmastodon.org/methods/statuses/ and https://docs.joinmastodon.org/entities/Status/
//   GET /api/v1/statuses?id[]=<id>&id[]=<id>  (Mastodon 4.3+) → [Status]; a status that does not
//     exist or cannot be seen is left out ("there can be fewer records than requested").
//   GET /api/v1/statuses/:id  (every version) → Status, or 404 { error: "Record not found" }.
//   Status: replies_count, reblogs_count, favourites_count (quotes_count on 4.5+ is not read).
//   OAuth: "Public for public statuses, user token + read:statuses for private statuses".
//   Rate limits: 429 with X-RateLimit-Reset (https://docs.joinmastodon.org/api/rate-limits/).
// Mastodon reports no impressions, reach, views, saves (bookmarks are private to each user) or
// clicks. Herald asks for read:statuses at connect; an account connected before that was
// granted without it, and Mastodon refuses such a token with 403 even for public statuses, so
// on a 403 the reader asks again without the token (public and unlisted posts are readable by
// anyone); a followers-only post is then not found, with that reason.
import { callApi, defaultFetch, type AdapterOptions, type ApiResponse } from '../http';
import { allNull, batches, followers, networkMetricSet, numeric, read, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { withAccessToken } from '../token-refresh';
import { mastodonError, mastodonRetryAfter } from './mastodon-api';
import { serverOf } from './mastodon-publisher';

const MAX_IDS = 20;
const MISSING = 'Mastodon returned no value for this status';
const NOT_FOUND = 'Mastodon did not return this status (deleted, or followers-only and Herald’s token lacks read:statuses)';

interface Status {
  id?: string;
  replies_count?: unknown;
  reblogs_count?: unknown;
  favourites_count?: unknown;
}

export function createMastodonInsightsReader(options: AdapterOptions = {}): PostMetricsReader {
  return {
    maxIdsPerRequest: MAX_IDS,
    source: 'mastodon',
    async readPostMetrics(connection, posts, { tokens }) {
      const fetch = options.fetch ?? defaultFetch();
      // Each account lives on its own server: options.baseUrl (tests) stands in for it.
      const { origin } = serverOf(connection.platformData ?? {}, options.baseUrl);
      return withAccessToken(connection, null, tokens, async (token) => {
        let anonymous = false;
        let batched = true;
        /** A GET with the token; after a scope refusal, without it. Null when the server requires a token Herald's does not satisfy. */
        const get = async (path: string): Promise<ApiResponse | null> => {
          for (;;) {
            const response = await callApi(fetch, `${origin}${path}`, {
              headers: anonymous ? {} : { authorization: `Bearer ${token}` },
              timeoutMs: options.timeoutMs,
              retryAfter: mastodonRetryAfter,
            });
            if (response.status === 403 && !anonymous) {
              anonymous = true;
              continue;
            }
            if (response.status === 401 && anonymous) return null;
            return response;
          }
        };

        const out = new Map<string, PostMetricsResult>();
        const settle = (id: string, status: Status | undefined) =>
          out.set(id, status ? { ok: true, metrics: metricsOf(status) } : { ok: false, reason: NOT_FOUND });
        for (const batch of batches(posts, MAX_IDS)) {
          const ids = batch.map((p) => p.postedId);
          if (batched) {
            const response = await get(`/api/v1/statuses?${new URLSearchParams(ids.map((id) => ['id[]', id]))}`);
            if (response === null) return refusedAll(posts);
            if (response.status === 404) {
              batched = false; // a server before 4.3 has no batch route: one status per request
            } else {
              if (response.status < 200 || response.status >= 300) throw mastodonError(response);
              const list = Array.isArray(response.json) ? (response.json as Status[]) : [];
              const found = new Map(list.filter((s) => s.id).map((s) => [String(s.id), s]));
              for (const id of ids) settle(id, found.get(id));
              continue;
            }
          }
          for (const id of ids) {
            const response = await get(`/api/v1/statuses/${encodeURIComponent(id)}`);
            if (response === null) return refusedAll(posts);
            if (response.status === 404) {
              settle(id, undefined);
              continue;
            }
            if (response.status < 200 || response.status >= 300) throw mastodonError(response);
            settle(id, response.json as Status);
          }
        }
        return out;
      });
    },
    // GET /api/v1/accounts/verify_credentials → followers_count (needs read:accounts, or the
    // profile scope's subset; https://docs.joinmastodon.org/methods/accounts/#verify_credentials)
    async readFollowers(connection, { tokens }) {
      const fetch = options.fetch ?? defaultFetch();
      const { origin } = serverOf(connection.platformData ?? {}, options.baseUrl);
      return withAccessToken(connection, null, tokens, async (token) => {
        const response = await callApi(fetch, `${origin}/api/v1/accounts/verify_credentials`, {
          headers: { authorization: `Bearer ${token}` },
          timeoutMs: options.timeoutMs,
          retryAfter: mastodonRetryAfter,
        });
        if (response.status === 403) return { value: null, reason: 'The server refused read:accounts to Herald’s token', networkName: 'followers_count' };
        if (response.status >= 400) throw mastodonError(response);
        return followers(
          (response.json as { followers_count?: unknown } | null)?.followers_count,
          'followers_count',
          'The server returned no followers_count for this account',
        );
      });
    },
  };
}

function refusedAll(posts: readonly { postedId: string }[]): Map<string, PostMetricsResult> {
  const reason = 'This Mastodon server requires a token with read:statuses to read statuses, which Herald’s connection was not granted';
  return new Map(posts.map((p) => [p.postedId, { ok: true, metrics: allNull(reason) }]));
}

function metricsOf(status: Status) {
  return networkMetricSet(
    'mastodon',
    {
      reactions: read(numeric(status.favourites_count), 'favourites_count', MISSING),
      comments: read(numeric(status.replies_count), 'replies_count', MISSING),
      shares: read(numeric(status.reblogs_count), 'reblogs_count', MISSING),
    },
    MISSING,
  );
}
