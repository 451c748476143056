// Threads (Meta's Threads API, its own app id and secret). The short-lived token from the
// code exchange is swapped for a 60-day one at once; the adapter extends it later.
//   token:  POST <graph.threads.net>/oauth/access_token (form)
//   extend: GET <api>/access_token?grant_type=th_exchange_token&client_secret&access_token
//   user:   GET <api>/me?fields=id,username,name,threads_profile_picture_url
import { callApi, firstJsonString, isSuccess, jsonString, withQuery } from '@/server/platforms/http';
import { expiryFrom, OAuthFlowError, type OAuthProvider } from '../oauth-provider';

// threads_read_replies / threads_manage_replies: the replies under the account's posts (the inbox).
const SCOPES = ['threads_basic', 'threads_content_publish', 'threads_read_replies', 'threads_manage_replies'];

export const threadsOAuth: OAuthProvider = {
  label: 'Threads',
  pkce: false,
  choose: false,
  authorizeUrl: ({ app, state, redirectUri }) =>
    withQuery(app.authorizeUrl, { client_id: app.clientId, redirect_uri: redirectUri, scope: SCOPES.join(','), response_type: 'code', state }),

  async connect(fetch, { app, code, redirectUri }) {
    const short = await callApi(fetch, app.tokenUrl, {
      form: { client_id: app.clientId, client_secret: app.clientSecret ?? undefined, code, grant_type: 'authorization_code', redirect_uri: redirectUri },
    });
    const shortToken = jsonString(short.json, 'access_token');
    if (!isSuccess(short) || !shortToken) {
      throw new OAuthFlowError(
        `Threads did not accept the sign-in (${firstJsonString(short.json, [['error', 'message'], 'error_description', 'error_message']) ?? `HTTP ${short.status}`}). Please try again.`,
      );
    }
    const long = await callApi(
      fetch,
      withQuery(`${app.apiBaseUrl}/access_token`, { grant_type: 'th_exchange_token', client_secret: app.clientSecret ?? undefined, access_token: shortToken }),
    );
    const longToken = isSuccess(long) ? jsonString(long.json, 'access_token') : undefined;
    const accessToken = longToken ?? shortToken;
    const me = await callApi(fetch, withQuery(`${app.apiBaseUrl}/me`, { fields: 'id,username,name,threads_profile_picture_url', access_token: accessToken }));
    const id = jsonString(me.json, 'id') ?? jsonString(short.json, 'user_id');
    if (!id) throw new OAuthFlowError('Threads signed you in but did not share your account. Please try again.');
    const username = jsonString(me.json, 'username') ?? id;
    return [
      {
        externalId: id,
        accountName: `@${username}`,
        displayName: jsonString(me.json, 'name') ?? username,
        avatarUrl: jsonString(me.json, 'threads_profile_picture_url') ?? null,
        accessToken,
        refreshToken: null,
        expiresAt: longToken ? expiryFrom(jsonString(long.json, 'expires_in')) : expiryFrom(3600),
        scopes: SCOPES.join(' '),
      },
    ];
  },
};
