// Which Instagram API an Instagram connection is published through. Instagram offers its Graph
// content-publishing API in two flavours that share every call Herald makes (containers,
// media_publish, container status, the media and stories edges, comments, media insights) and
// differ in host and token:
//   - Facebook Login (`instagram`): graph.facebook.com, a Page token of the Facebook Page the
//     professional account is linked to; it does not expire and has no refresh grant.
//     https://developers.facebook.com/docs/instagram-platform/instagram-api-with-facebook-login/content-publishing
//   - Instagram Login (`instagram_login`): graph.instagram.com, a 60-day Instagram user token
//     extended with ig_refresh_token; no Facebook Page.
//     https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/content-publishing
// The publisher, reconciler, comments client and insights reader in this folder take the
// flavour; each flavour's own folder only names it.
import type { PlatformApiBaseUrlVariable } from '@/server/config/env';
import { apiEndpoint, type AdapterOptions, type Fetcher } from '../http';
import type { TokenRefresher } from '../token-refresh';

export type InstagramPlatform = 'instagram' | 'instagram_login';

export interface InstagramApi {
  platform: InstagramPlatform;
  /** The network's name in messages. */
  name: string;
  /** The variable that replaces the API base (a stand-in, a proxy). */
  envName: PlatformApiBaseUrlVariable;
  defaultBaseUrl: string;
  /** How the token is extended, or null when it cannot be (a Page token). */
  refresher(fetch: Fetcher, baseUrl: string): TokenRefresher | null;
  /**
   * Whether media insights are read one media at a time (GET /{media-id}/insights) rather
   * than with Graph's multiple-id lookup (GET /?ids=…), which only graph.facebook.com documents.
   */
  insightsPerMedia: boolean;
}

export const INSTAGRAM_DEFAULT_BASE_URL = 'https://graph.facebook.com/v25.0';

/** The Page-linked Instagram professional account, through Facebook Login. */
export const INSTAGRAM_FACEBOOK_LOGIN: InstagramApi = {
  platform: 'instagram',
  name: 'Instagram',
  envName: 'INSTAGRAM_GRAPH_BASE_URL',
  defaultBaseUrl: INSTAGRAM_DEFAULT_BASE_URL,
  // Facebook Login Page tokens have no refresh grant; an expired one (code 190) means reconnecting.
  refresher: () => null,
  insightsPerMedia: false,
};

/** The fetcher, API base and token refresher one call of `api` uses. */
export function instagramEndpoint(options: AdapterOptions, api: InstagramApi): { fetch: Fetcher; baseUrl: string; refresher: TokenRefresher | null } {
  const { fetch, baseUrl } = apiEndpoint(options, api.envName, api.defaultBaseUrl);
  return { fetch, baseUrl, refresher: api.refresher(fetch, baseUrl) };
}
