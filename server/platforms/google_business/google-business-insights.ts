// Google Business Profile post metrics: the insights of the location's local posts (My Business v4).
//
// Source: https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/reportInsights
//   POST /v4/{accounts/*/locations/*}/localPosts:reportInsights
//     { localPostNames: [<accounts/…/localPosts/…>], basicRequest: { metricRequests: [{ metric }],
//       timeRange: { startTime, endTime } } }
//   → { name, localPostMetrics: [{ localPostName, metricValues: [{ metric, totalValue: { metricOption,
//       timeDimension: { timeRange }, value: "123" } }] }], timeZone }  — one entry per post found.
//   Metrics: LOCAL_POST_VIEWS_SEARCH ("the number of times the local post was viewed on Google
//   Search"), LOCAL_POST_ACTIONS_CALL_TO_ACTION ("the number of times the call to action button
//   was clicked on Google").
// Google's banner on these pages schedules the v4 location reportInsights for retirement in
// favour of the Business Profile Performance API, which has no per-post metrics. The local-post
// method is still documented; should Google retire it (the method answers 404/410 or
// UNIMPLEMENTED, or the v4 API is no longer enabled for the project), every metric is null with
// Google's words instead of failing the collection.
// Decisions: views on Search are `impressions` (a view of a post card, not a video view); CTA
// clicks are `linkClicks`; 10 posts per request (the reference sets no maximum); the time range
// runs from the oldest post's publishing to now.
import { apiEndpoint, callApi, type ApiResponse } from '../http';
import { googleError, googleErrorText, googleReasons, googleRefresher } from '../google/google-api';
import { allNull, batches, networkMetricSet, numeric, read, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { oauthApps } from '../oauth-apps';
import { PlatformError } from '../publisher';
import { withAccessToken } from '../token-refresh';
import { GOOGLE_BUSINESS_DEFAULT_BASE_URL, googleBusinessHosts, LOCATION_NAME } from './google-business-api';
import type { GoogleBusinessOptions } from './google-business-publisher';

const MAX_POSTS = 10;
const METRICS = ['LOCAL_POST_VIEWS_SEARCH', 'LOCAL_POST_ACTIONS_CALL_TO_ACTION'] as const;
const MISSING = 'Google returned no value for this post';

interface LocalPostMetrics {
  localPostName?: string;
  metricValues?: { metric?: string; totalValue?: { value?: unknown } }[];
}

/** Whether Google answered that the method (or the v4 API) is no longer there for Herald. */
function retired(response: ApiResponse): boolean {
  if (response.status === 404 || response.status === 410 || response.status === 501) return true;
  const status = (response.json as { error?: { status?: string } } | null)?.error?.status;
  return status === 'UNIMPLEMENTED' || (response.status === 403 && googleReasons(response.json).includes('accessNotConfigured'));
}

export function createGoogleBusinessInsightsReader(options: GoogleBusinessOptions = {}): PostMetricsReader {
  return {
    maxIdsPerRequest: MAX_POSTS,
    source: 'google_business',
    async readPostMetrics(connection, posts, { tokens, now }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'GOOGLE_BUSINESS_API_BASE_URL', GOOGLE_BUSINESS_DEFAULT_BASE_URL);
      if (!LOCATION_NAME.test(connection.externalId)) {
        throw new PlatformError(`This Google Business Profile connection names no location (${connection.externalId}); reconnect it`);
      }
      const refresher = googleRefresher(fetch, options, oauthApps.google_business());
      const { posts: host } = googleBusinessHosts(baseUrl);
      const out = new Map<string, PostMetricsResult>();
      const own = posts.filter((p) => p.postedId.startsWith(`${connection.externalId}/localPosts/`));
      for (const p of posts) {
        if (!own.includes(p)) out.set(p.postedId, { ok: false, reason: 'This post is not a local post of the connected location' });
      }
      if (own.length === 0) return out;

      return withAccessToken(connection, refresher, tokens, async (token) => {
        for (const batch of batches(own, MAX_POSTS)) {
          const names = batch.map((p) => p.postedId);
          const start = new Date(Math.min(...batch.map((p) => p.publishedAt.getTime())));
          const response = await callApi(fetch, `${host}/v4/${connection.externalId}/localPosts:reportInsights`, {
            headers: { authorization: `Bearer ${token}` },
            json: {
              localPostNames: names,
              basicRequest: {
                metricRequests: METRICS.map((metric) => ({ metric })),
                timeRange: { startTime: start.toISOString(), endTime: now.toISOString() },
              },
            },
            timeoutMs: options.timeoutMs,
          });
          if (retired(response)) {
            const reason = `Google no longer answers local post insights (v4 localPosts.reportInsights): ${googleErrorText(response, 'Google Business Profile')}`;
            for (const name of names) out.set(name, { ok: true, metrics: allNull(reason) });
            continue;
          }
          const error = googleError(response, 'Google Business Profile');
          if (error) throw error; // 401 → token expired (refreshed once); 429 not waited out, 5xx → the connection's failure
          const entries = (response.json as { localPostMetrics?: LocalPostMetrics[] } | null)?.localPostMetrics ?? [];
          const found = new Map(entries.filter((e) => e.localPostName).map((e) => [String(e.localPostName), e]));
          for (const name of names) {
            const entry = found.get(name);
            if (!entry) {
              out.set(name, { ok: false, reason: 'Google did not return this local post (deleted, or expired)' });
              continue;
            }
            const value = (metric: (typeof METRICS)[number]) => numeric(entry.metricValues?.find((v) => v.metric === metric)?.totalValue?.value);
            out.set(name, {
              ok: true,
              metrics: networkMetricSet(
                'google_business',
                {
                  impressions: read(value('LOCAL_POST_VIEWS_SEARCH'), 'LOCAL_POST_VIEWS_SEARCH', MISSING),
                  linkClicks: read(value('LOCAL_POST_ACTIONS_CALL_TO_ACTION'), 'LOCAL_POST_ACTIONS_CALL_TO_ACTION', MISSING),
                },
                MISSING,
              ),
            });
          }
        }
        return out;
      });
    },
  };
}
