// Pinterest post metrics: a Pin's analytics, one Pin per request (the multi-Pin endpoint is a
// beta not open to every app).
//
// Source: https://developers.pinterest.com/docs/api/v5/pins-analytics (GET /v5/pins/{pin_id}/analytics;
//   scopes pins:read, user_accounts:read)
//   ?start_date=YYYY-MM-DD&end_date=YYYY-MM-DD&metric_types=IMPRESSION,SAVE,OUTBOUND_CLICK,VIDEO_MRC_VIEW
//   → { "all": { "daily_metrics": [{ date, data_status, metrics: { IMPRESSION, … } }],
//                "summary_metrics": { IMPRESSION, SAVE, OUTBOUND_CLICK, VIDEO_MRC_VIEW, … } } }
//   Dates are at most 90 days back and not after today (UTC). Errors { code, message }: 401
//   token refused, 403 not allowed (scope, or a Pin of another account), 404 Pin not found,
//   429 code 8 rate limited.
// Decisions: the window runs from the Pin's publishing day (or 89 days back, the API's limit)
// to today, and the reading is summary_metrics over it; IMPRESSION → impressions, SAVE → saves,
// OUTBOUND_CLICK → linkClicks, VIDEO_MRC_VIEW → views (a Pin that is not a video has none: null);
// PIN_CLICK (close-ups) has no place in the metric set and is not asked. A 403 leaves that Pin's
// metrics null with Pinterest's words (Herald's token asks pins:write, not pins:read).
import { apiEndpoint, callApi, type ApiResponse } from '../http';
import { followers, allNull, networkMetricSet, numeric, read, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { withAccessToken } from '../token-refresh';
import { PINTEREST_DEFAULT_BASE_URL, pinterestError } from './pinterest-api';
import { pinterestRefresher, type PinterestOptions } from './pinterest-publisher';

const METRICS = ['IMPRESSION', 'SAVE', 'OUTBOUND_CLICK', 'VIDEO_MRC_VIEW'] as const;
const MAX_DAYS_BACK = 89;
const MISSING = 'Pinterest returned no value for this Pin (data not ready yet)';
const day = (d: Date) => d.toISOString().slice(0, 10);

export function createPinterestInsightsReader(options: PinterestOptions = {}): PostMetricsReader {
  return {
    maxIdsPerRequest: 1,
    source: 'pinterest',
    async readPostMetrics(connection, posts, { tokens, now }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'PINTEREST_API_BASE_URL', PINTEREST_DEFAULT_BASE_URL);
      return withAccessToken(connection, pinterestRefresher(fetch, baseUrl, options), tokens, async (token) => {
        const out = new Map<string, PostMetricsResult>();
        const earliest = new Date(now.getTime() - MAX_DAYS_BACK * 86_400_000);
        for (const post of posts) {
          const start = post.publishedAt > earliest ? post.publishedAt : earliest;
          const ask = (metrics: readonly string[]): Promise<ApiResponse> =>
            callApi(
              fetch,
              `${baseUrl}/v5/pins/${encodeURIComponent(post.postedId)}/analytics?${new URLSearchParams({
                start_date: day(start > now ? now : start),
                end_date: day(now),
                metric_types: metrics.join(','),
              })}`,
              { headers: { authorization: `Bearer ${token}` }, timeoutMs: options.timeoutMs },
            );
          let response = await ask(METRICS);
          // A Pin that is not a video may be refused the video metric: ask again without it.
          if (response.status === 400) response = await ask(METRICS.filter((m) => m !== 'VIDEO_MRC_VIEW'));
          if (response.status === 404) {
            out.set(post.postedId, { ok: false, reason: 'Pinterest did not find this Pin (deleted)' });
            continue;
          }
          if (response.status === 403) {
            const error = pinterestError(response);
            out.set(post.postedId, { ok: true, metrics: allNull(`Pinterest refused this Pin’s analytics: ${error?.message} (they need the pins:read scope)`) });
            continue;
          }
          const error = pinterestError(response);
          if (error) throw error; // 401 → token expired (refreshed once); 429, 5xx → the connection's failure
          const all = (response.json as { all?: { summary_metrics?: Record<string, unknown>; lifetime_metrics?: Record<string, unknown> } } | null)?.all;
          const summary = all?.summary_metrics ?? all?.lifetime_metrics ?? {};
          out.set(post.postedId, {
            ok: true,
            metrics: networkMetricSet(
              'pinterest',
              {
                impressions: read(numeric(summary.IMPRESSION), 'IMPRESSION', MISSING),
                views: read(numeric(summary.VIDEO_MRC_VIEW), 'VIDEO_MRC_VIEW', 'Pinterest reports video views only for video Pins'),
                saves: read(numeric(summary.SAVE), 'SAVE', MISSING),
                linkClicks: read(numeric(summary.OUTBOUND_CLICK), 'OUTBOUND_CLICK', MISSING),
              },
              MISSING,
            ),
          });
        }
        return out;
      });
    },
    // GET /v5/user_account → follower_count (https://developers.pinterest.com/docs/api/v5/user_account-get)
    async readFollowers(connection, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'PINTEREST_API_BASE_URL', PINTEREST_DEFAULT_BASE_URL);
      return withAccessToken(connection, pinterestRefresher(fetch, baseUrl, options), tokens, async (token) => {
        const response = await callApi(fetch, `${baseUrl}/v5/user_account`, { headers: { authorization: `Bearer ${token}` }, timeoutMs: options.timeoutMs });
        const error = pinterestError(response);
        if (error) throw error;
        return followers(
          (response.json as { follower_count?: unknown } | null)?.follower_count,
          'follower_count',
          'Pinterest returned no follower_count for this account',
        );
      });
    },
  };
}
