// WordPress.com: a site hosted by WordPress.com (or a Jetpack-connected one) reached through
// WordPress.com's API host with the OAuth token its connect flow stored. Published and settled by
// the WordPress adapters (server/platforms/wordpress/), whose wp/v2 calls are the same there,
// site-scoped; this file names the host, the token, and what WordPress.com alone reports.
//
// Sources:
//   https://developer.wordpress.com/docs/api/getting-started/ — the wp/v2 routes of a site at
//     https://public-api.wordpress.com/wp/v2/sites/{site_id}/…, with "Authorization: Bearer <token>"
//   https://developer.wordpress.com/docs/api/1.1/get/sites/%24site/stats/post/%24post_id/ —
//     GET /rest/v1.1/sites/{site}/stats/post/{post_id} → { views, years, months, … } (all-time views)
//   https://developer.wordpress.com/docs/api/1.1/get/sites/%24site/posts/%24post_ID/ —
//     GET /rest/v1.1/sites/{site}/posts/{post_id}?fields=ID,like_count,discussion → { like_count,
//     discussion: { comment_count } }
//   https://developer.wordpress.com/docs/api/1.1/get/sites/%24site/ — GET /rest/v1.1/sites/{site}
//     ?fields=ID,subscribers_count → { subscribers_count }
// Errors of both namespaces come as { error|code, message } with the HTTP status; wordpressError
// reads both, and asks for a reconnect when the token is refused.
import { apiEndpoint, callApi, isSuccess, jsonAt, type AdapterOptions, type ApiResponse, type Fetcher } from '../http';
import { followers, networkMetricSet, numeric, read, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { TokenExpiredError } from '../publisher';
import { withAccessToken } from '../token-refresh';
import { wordpressError, type WordpressApi } from '../wordpress/wordpress-api';
import { createWordpressPublisher } from '../wordpress/wordpress-publisher';
import { createWordpressReconciler } from '../wordpress/wordpress-reconcile';

export const WORDPRESS_COM_DEFAULT_BASE_URL = 'https://public-api.wordpress.com';
const ENV = 'WORDPRESS_COM_API_BASE_URL';
const MISSING = 'WordPress.com returned no value for this post';

/** The site a connection publishes to (platformData.siteId, stored at connect). */
function siteIdOf(connection: { platformData?: Readonly<Record<string, unknown>> }): string {
  const id = connection.platformData?.siteId;
  if (typeof id !== 'string' && typeof id !== 'number')
    throw new TokenExpiredError('No WordPress.com site is stored for this account; reconnect it to publish.');
  return encodeURIComponent(String(id));
}

export const WORDPRESS_COM: WordpressApi = {
  platform: 'wordpress_com',
  endpoint(connection, baseUrl) {
    if (!connection.accessToken) throw new TokenExpiredError('No WordPress.com token is stored for this account; reconnect it to publish.');
    const host = (baseUrl ?? WORDPRESS_COM_DEFAULT_BASE_URL).replace(/\/+$/, '');
    return { apiRoot: `${host}/wp/v2/sites/${siteIdOf(connection)}`, authorization: `Bearer ${connection.accessToken}` };
  },
};

/** The adapters' options with the API host from the configuration when a test gives none. */
const withHost = (options: AdapterOptions): AdapterOptions => ({ ...options, baseUrl: apiEndpoint(options, ENV, WORDPRESS_COM_DEFAULT_BASE_URL).baseUrl });

export const createWordpressComPublisher = (options: AdapterOptions = {}) => createWordpressPublisher<'wordpress_com'>(withHost(options), WORDPRESS_COM);
export const createWordpressComReconciler = (options: AdapterOptions = {}) => createWordpressReconciler(withHost(options), WORDPRESS_COM);

async function restGet(fetch: Fetcher, url: string, token: string, timeoutMs: number | undefined): Promise<ApiResponse> {
  const response = await callApi(fetch, url, { headers: { authorization: `Bearer ${token}` }, timeoutMs });
  if (!isSuccess(response) && response.status !== 404) throw wordpressError(response);
  return response;
}

/**
 * Views from the post's statistics, likes and comments from the post itself: two calls a post
 * (neither route takes several ids). A post WordPress.com no longer has (404) is reported so.
 */
export function createWordpressComInsightsReader(options: AdapterOptions = {}): PostMetricsReader {
  return {
    maxIdsPerRequest: 1,
    source: 'wordpress_com',
    async readPostMetrics(connection, posts, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, ENV, WORDPRESS_COM_DEFAULT_BASE_URL);
      const site = `${baseUrl.replace(/\/+$/, '')}/rest/v1.1/sites/${siteIdOf(connection)}`;
      return withAccessToken(connection, null, tokens, async (token) => {
        const out = new Map<string, PostMetricsResult>();
        for (const { postedId } of posts) {
          const id = encodeURIComponent(postedId);
          const post = await restGet(fetch, `${site}/posts/${id}?fields=ID,like_count,discussion`, token, options.timeoutMs);
          if (post.status === 404) {
            out.set(postedId, { ok: false, reason: 'WordPress.com no longer has this post (deleted since)' });
            continue;
          }
          const stats = await restGet(fetch, `${site}/stats/post/${id}?fields=views`, token, options.timeoutMs);
          out.set(postedId, {
            ok: true,
            metrics: networkMetricSet(
              'wordpress_com',
              {
                views: read(stats.status === 404 ? null : numeric(jsonAt(stats.json, 'views')), 'views', MISSING),
                reactions: read(numeric(jsonAt(post.json, 'like_count')), 'like_count', MISSING),
                comments: read(numeric(jsonAt(post.json, 'discussion', 'comment_count')), 'discussion.comment_count', MISSING),
              },
              MISSING,
            ),
          });
        }
        return out;
      });
    },
    async readFollowers(connection, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, ENV, WORDPRESS_COM_DEFAULT_BASE_URL);
      return withAccessToken(connection, null, tokens, async (token) => {
        const url = `${baseUrl.replace(/\/+$/, '')}/rest/v1.1/sites/${siteIdOf(connection)}?fields=ID,subscribers_count`;
        const response = await callApi(fetch, url, { headers: { authorization: `Bearer ${token}` }, timeoutMs: options.timeoutMs });
        if (!isSuccess(response)) throw wordpressError(response);
        return followers(jsonAt(response.json, 'subscribers_count'), 'subscribers_count', 'WordPress.com returned no subscriber count for this site');
      });
    },
  };
}
