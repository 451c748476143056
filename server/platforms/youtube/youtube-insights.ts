// YouTube post metrics: the public statistics of the Data API v3 video resource.
//
// Source: https://developers.google.com/youtube/v3/docs/videos/list and
//   https://developers.google.com/youtube/v3/docs/videos#statistics
//   GET /youtube/v3/videos?part=statistics&id=<id>,<id>  (up to 50 ids; quota cost 1)
//   → { kind: "youtube#videoListResponse", items: [{ id, statistics: { viewCount, likeCount,
//       favoriteCount, commentCount } }], pageInfo }  — counts are strings ("4210").
//   A video that does not exist (deleted) or that the token may not see is left out of items.
//   likeCount is absent when the owner hides likes, commentCount when comments are off;
//   dislikeCount has been private since December 2021 and favoriteCount is deprecated (always 0),
//   so neither is read.
// Scope: youtube.readonly (asked at connect). A token from before it was asked is refused with
//   403 insufficientPermissions: every metric is then null with that reason, not a failure.
// Watch time (estimatedMinutesWatched) is a YouTube Analytics API report (reports.query, scope
//   yt-analytics.readonly), which Herald does not ask for: null with that reason. Shares,
//   impressions and reach are Analytics-only too.
import { apiEndpoint, callApi, withQuery, type AdapterOptions } from '../http';
import { googleError, googleErrorText, googleReasons, googleRefresher, type GoogleClient } from '../google/google-api';
import { followers, allNull, batches, networkMetricSet, notOffered, numeric, read, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { oauthApps } from '../oauth-apps';
import { withAccessToken } from '../token-refresh';
import { YOUTUBE_DEFAULT_BASE_URL } from './youtube-api';

const MAX_IDS = 50;
const MISSING = 'YouTube returned no value for this video (hidden by the owner, or comments turned off)';
const ANALYTICS_ONLY = (what: string) =>
  `YouTube reports ${what} only in the YouTube Analytics API (scope yt-analytics.readonly), which Herald does not ask for; the Data API’s statistics do not include it`;
const SCOPE_REASONS = new Set(['insufficientPermissions', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT', 'forbidden']);

interface YouTubeVideo {
  id?: string;
  statistics?: Record<string, unknown>;
}

export interface YouTubeInsightsOptions extends AdapterOptions, GoogleClient {}

export function createYouTubeInsightsReader(options: YouTubeInsightsOptions = {}): PostMetricsReader {
  return {
    maxIdsPerRequest: MAX_IDS,
    source: 'youtube',
    async readPostMetrics(connection, posts, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'YOUTUBE_API_BASE_URL', YOUTUBE_DEFAULT_BASE_URL);
      const refresher = googleRefresher(fetch, options, oauthApps.youtube());
      return withAccessToken(connection, refresher, tokens, async (token) => {
        const out = new Map<string, PostMetricsResult>();
        for (const batch of batches(posts, MAX_IDS)) {
          const ids = batch.map((p) => p.postedId);
          const response = await callApi(fetch, withQuery(`${baseUrl}/youtube/v3/videos`, { part: 'statistics', id: ids.join(',') }), {
            headers: { authorization: `Bearer ${token}` },
            timeoutMs: options.timeoutMs,
          });
          if (response.status === 403 && googleReasons(response.json).some((r) => SCOPE_REASONS.has(r))) {
            const reason = `YouTube refused the statistics: ${googleErrorText(response, 'YouTube')} (the account did not grant youtube.readonly; reconnect it)`;
            for (const id of ids) out.set(id, { ok: true, metrics: allNull(reason) });
            continue;
          }
          const error = googleError(response, 'YouTube');
          if (error) throw error; // 401 → token expired (refreshed once); quotaExceeded, 5xx → the connection's failure
          const items = (response.json as { items?: YouTubeVideo[] } | null)?.items ?? [];
          const found = new Map(items.filter((v) => v.id).map((v) => [String(v.id), v]));
          for (const id of ids) {
            const video = found.get(id);
            if (!video) {
              out.set(id, { ok: false, reason: 'YouTube did not return this video (deleted, or private to another account)' });
              continue;
            }
            const stats = video.statistics ?? {};
            out.set(id, {
              ok: true,
              metrics: networkMetricSet(
                'youtube',
                {
                  views: read(numeric(stats.viewCount), 'statistics.viewCount', MISSING),
                  reactions: read(numeric(stats.likeCount), 'statistics.likeCount', MISSING),
                  comments: read(numeric(stats.commentCount), 'statistics.commentCount', MISSING),
                  videoWatchSeconds: notOffered(ANALYTICS_ONLY('watch time (estimatedMinutesWatched)')),
                },
                MISSING,
              ),
            });
          }
        }
        return out;
      });
    },
    // GET /youtube/v3/channels?part=statistics&mine=true → items[0].statistics.subscriberCount
    // (https://developers.google.com/youtube/v3/docs/channels; hiddenSubscriberCount hides it)
    async readFollowers(connection, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'YOUTUBE_API_BASE_URL', YOUTUBE_DEFAULT_BASE_URL);
      return withAccessToken(connection, googleRefresher(fetch, options, oauthApps.youtube()), tokens, async (token) => {
        const response = await callApi(fetch, withQuery(`${baseUrl}/youtube/v3/channels`, { part: 'statistics', mine: 'true' }), {
          headers: { authorization: `Bearer ${token}` },
          timeoutMs: options.timeoutMs,
        });
        const error = googleError(response, 'YouTube');
        if (error) throw error;
        const stats = (response.json as { items?: { statistics?: { subscriberCount?: unknown; hiddenSubscriberCount?: unknown } }[] } | null)?.items?.[0]
          ?.statistics;
        if (stats?.hiddenSubscriberCount === true) return { value: null, reason: 'The channel hides its subscriber count', networkName: 'subscriberCount' };
        return followers(stats?.subscriberCount, 'subscriberCount', 'YouTube returned no subscriberCount for this channel');
      });
    },
  };
}
