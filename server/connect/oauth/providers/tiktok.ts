// TikTok Login Kit for Web: client_key (not client_id), comma-separated scopes; PKCE is
// for TikTok's desktop and mobile kits, not web, so none is sent.
//   token: POST <api>/v2/oauth/token/ (form);  the user: GET <api>/v2/user/info/?fields=…
import { callApi, firstJsonString, jsonString, withQuery } from '@/server/platforms/http';
import { expiryFrom, OAuthFlowError, type OAuthProvider } from '../oauth-provider';

const SCOPES = ['user.info.basic', 'video.publish', 'video.upload'];

export const tiktokOAuth: OAuthProvider = {
  label: 'TikTok',
  pkce: false,
  choose: false,
  authorizeUrl: ({ app, state, redirectUri }) =>
    withQuery(app.authorizeUrl, { client_key: app.clientId, response_type: 'code', scope: SCOPES.join(','), redirect_uri: redirectUri, state }),

  async connect(fetch, { app, code, redirectUri }) {
    const token = await callApi(fetch, app.tokenUrl, {
      form: { client_key: app.clientId, client_secret: app.clientSecret ?? undefined, code, grant_type: 'authorization_code', redirect_uri: redirectUri },
    });
    // TikTok's token endpoint is judged by its body: an error can come with HTTP 200.
    const accessToken = jsonString(token.json, 'access_token');
    if (!accessToken) {
      throw new OAuthFlowError(
        `TikTok did not accept the sign-in (${firstJsonString(token.json, ['error_description', 'error']) ?? `HTTP ${token.status}`}). Please try again.`,
      );
    }
    const me = await callApi(fetch, withQuery(`${app.apiBaseUrl}/v2/user/info/`, { fields: 'open_id,avatar_url,display_name,username' }), {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const openId = jsonString(me.json, 'data', 'user', 'open_id') ?? jsonString(token.json, 'open_id');
    if (!openId) throw new OAuthFlowError('TikTok signed you in but did not share your account. Please try again.');
    const username = jsonString(me.json, 'data', 'user', 'username');
    const displayName = jsonString(me.json, 'data', 'user', 'display_name') ?? username ?? openId;
    return [
      {
        externalId: openId,
        accountName: username ? `@${username}` : displayName,
        displayName,
        avatarUrl: jsonString(me.json, 'data', 'user', 'avatar_url') ?? null,
        accessToken,
        refreshToken: jsonString(token.json, 'refresh_token') ?? null,
        expiresAt: expiryFrom(jsonString(token.json, 'expires_in')),
        scopes: jsonString(token.json, 'scope')?.replace(/,/g, ' ') ?? null,
      },
    ];
  },
};
