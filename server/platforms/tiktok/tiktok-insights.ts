// TikTok post metrics: the Display API's video query, up to 20 videos per request.
//
// Sources: https://developers.tiktok.com/doc/tiktok-api-v2-video-query and
//   https://developers.tiktok.com/doc/tiktok-api-v2-video-object
//   POST /v2/video/query/?fields=id,view_count,like_count,comment_count,share_count
//   { "filters": { "video_ids": [ … at most 20 ] } }
//   → { data: { videos: [{ id, view_count, like_count, comment_count, share_count }], cursor, has_more },
//       error: { code: "ok", message, log_id } }
//   Scope video.list; without it TikTok answers scope_not_authorized, which leaves every metric
//   null with that reason instead of failing the connection. A video missing from the answer
//   is not (or no longer) public. The Display API has no impressions, reach, saves or watch time.
import { apiEndpoint, callApi, jsonString } from '../http';
import { followers, allNull, networkMetricSet, numeric, read, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { withAccessToken } from '../token-refresh';
import { tiktokError, TIKTOK_DEFAULT_BASE_URL } from './tiktok-api';
import { tiktokRefresher, type TikTokOptions } from './tiktok-publisher';

const FIELDS = 'id,view_count,like_count,comment_count,share_count';
const MISSING = 'TikTok returned no value for this video';

export function createTikTokInsightsReader(options: TikTokOptions = {}): PostMetricsReader {
  return {
    maxIdsPerRequest: 20,
    source: 'tiktok',
    async readPostMetrics(connection, posts, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'TIKTOK_API_BASE_URL', TIKTOK_DEFAULT_BASE_URL);
      const out = new Map<string, PostMetricsResult>();
      // A publish id (the video is still processing or private) is not a video id yet.
      const videos = posts.filter((p) => /^\d+$/.test(p.postedId));
      for (const p of posts)
        if (!videos.includes(p))
          out.set(p.postedId, { ok: false, reason: 'TikTok has not given this post a public video id yet (processing, or posted privately)' });
      if (!videos.length) return out;
      return withAccessToken(connection, tiktokRefresher(fetch, baseUrl, options), tokens, async (token) => {
        const response = await callApi(fetch, `${baseUrl}/v2/video/query/?fields=${FIELDS}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' },
          json: { filters: { video_ids: videos.map((v) => v.postedId) } },
          timeoutMs: options.timeoutMs,
        });
        if (jsonString(response.json, 'error', 'code') === 'scope_not_authorized') {
          const reason = `TikTok refused the video query: ${jsonString(response.json, 'error', 'message') || 'scope_not_authorized'} (the account did not grant video.list)`;
          for (const v of videos) out.set(v.postedId, { ok: true, metrics: allNull(reason) });
          return out;
        }
        const error = tiktokError(response);
        if (error) throw error;
        // The Video Object's id is a string (an int64 would lose digits as a JSON number).
        const list = (response.json as { data?: { videos?: Record<string, unknown>[] } } | null)?.data?.videos ?? [];
        const byId = new Map(list.map((v) => [String(v.id), v]));
        for (const { postedId } of videos) {
          const video = byId.get(postedId);
          if (!video) {
            out.set(postedId, { ok: false, reason: 'TikTok did not return this video (deleted, private, or not the account’s)' });
            continue;
          }
          out.set(postedId, {
            ok: true,
            metrics: networkMetricSet(
              'tiktok',
              {
                views: read(numeric(video.view_count), 'view_count', MISSING),
                reactions: read(numeric(video.like_count), 'like_count', MISSING),
                comments: read(numeric(video.comment_count), 'comment_count', MISSING),
                shares: read(numeric(video.share_count), 'share_count', MISSING),
              },
              MISSING,
            ),
          });
        }
        return out;
      });
    },
    // GET /v2/user/info/?fields=follower_count → data.user.follower_count; needs user.info.stats
    // (https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info)
    async readFollowers(connection, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'TIKTOK_API_BASE_URL', TIKTOK_DEFAULT_BASE_URL);
      return withAccessToken(connection, tiktokRefresher(fetch, baseUrl, options), tokens, async (token) => {
        const response = await callApi(fetch, `${baseUrl}/v2/user/info/?fields=follower_count`, {
          headers: { authorization: `Bearer ${token}` },
          timeoutMs: options.timeoutMs,
        });
        if (jsonString(response.json, 'error', 'code') === 'scope_not_authorized') {
          return { value: null, reason: 'The account did not grant user.info.stats, which TikTok requires for follower_count', networkName: 'follower_count' };
        }
        const error = tiktokError(response);
        if (error) throw error;
        const user = (response.json as { data?: { user?: { follower_count?: unknown } } } | null)?.data?.user;
        return followers(user?.follower_count, 'follower_count', 'TikTok returned no follower_count for this account');
      });
    },
  };
}
