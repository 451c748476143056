// Instagram with Instagram Login: an Instagram professional account connected through
// Instagram's own OAuth (Business Login for Instagram), no Facebook Page. Published, settled,
// read and moderated by the Instagram adapters (server/platforms/instagram/), whose Graph calls
// are the same on graph.instagram.com; this file names the host and the token's refresh.
//
// Sources:
//   https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/content-publishing
//     POST graph.instagram.com/<v>/<IG_ID>/media, GET /<IG_CONTAINER_ID>?fields=status_code,
//     POST /<IG_ID>/media_publish?creation_id= (the same container protocol as with Facebook Login)
//   https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login
//     long-lived tokens last 60 days; GET graph.instagram.com/refresh_access_token
//     ?grant_type=ig_refresh_token&access_token=<long-lived token> → { access_token, token_type,
//     expires_in }: the token must be at least 24 hours old and not expired.
//   https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/comment-moderation
//   https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights
//     (GET /<INSTAGRAM_MEDIA_ID>/insights, permission instagram_business_manage_insights)
import { callApi, isSuccess, jsonString, withQuery, type AdapterOptions, type Fetcher } from '../http';
import { graphError } from '../graph-api';
import type { TokenRefresher } from '../token-refresh';
import type { InstagramApi } from '../instagram/instagram-api';
import { createInstagramPublisher } from '../instagram/instagram-publisher';
import { createInstagramReconciler } from '../instagram/instagram-reconcile';
import { createInstagramCommentsClient, type InstagramCommentsOptions } from '../instagram/instagram-comments';
import { createInstagramInsightsReader } from '../instagram/instagram-insights';

export const INSTAGRAM_LOGIN_DEFAULT_BASE_URL = 'https://graph.instagram.com/v25.0';
const NAME = 'Instagram';
/** Extended a week before the stored expiry: an expired token can no longer be refreshed. */
const REFRESH_AHEAD_MS = 7 * 24 * 60 * 60 * 1000;

/** The refresh endpoint sits at the API host's root, outside the versioned path. */
export function instagramLoginRefresher(fetch: Fetcher, baseUrl: string): TokenRefresher {
  return {
    uses: 'access_token',
    aheadMs: REFRESH_AHEAD_MS,
    async refresh(accessToken) {
      const url = withQuery(`${new URL(baseUrl).origin}/refresh_access_token`, { grant_type: 'ig_refresh_token', access_token: accessToken });
      const response = await callApi(fetch, url);
      const fresh = jsonString(response.json, 'access_token');
      if (!isSuccess(response) || !fresh) throw graphError(response, NAME);
      const expiresIn = Number(jsonString(response.json, 'expires_in'));
      return { accessToken: fresh, expiresInSeconds: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : null };
    },
  };
}

export const INSTAGRAM_LOGIN: InstagramApi = {
  platform: 'instagram_login',
  name: NAME,
  envName: 'INSTAGRAM_LOGIN_API_BASE_URL',
  defaultBaseUrl: INSTAGRAM_LOGIN_DEFAULT_BASE_URL,
  refresher: instagramLoginRefresher,
  insightsPerMedia: true,
};

export const createInstagramLoginPublisher = (options: AdapterOptions = {}) => createInstagramPublisher<'instagram_login'>(options, INSTAGRAM_LOGIN);
export const createInstagramLoginReconciler = (options: AdapterOptions = {}) => createInstagramReconciler(options, INSTAGRAM_LOGIN);
export const createInstagramLoginCommentsClient = (options: InstagramCommentsOptions = {}) => createInstagramCommentsClient(options, INSTAGRAM_LOGIN);
export const createInstagramLoginInsightsReader = (options: AdapterOptions = {}) => createInstagramInsightsReader(options, INSTAGRAM_LOGIN);
