// Reddit OAuth 2 for a web app (https://github.com/reddit-archive/reddit/wiki/OAuth2):
//   consent: <oauth>/authorize?client_id&response_type=code&state&redirect_uri&duration=permanent&scope
//   token:   POST <oauth>/access_token (form; HTTP Basic client authentication) → access_token,
//            refresh_token (duration=permanent), expires_in, scope
//   account: GET <api>/api/v1/me (the user; the account is u/<name>)
// Reddit takes no PKCE for web apps; every request carries a descriptive User-Agent.
import { callApi, firstJsonString, isSuccess, jsonString, withQuery } from '@/server/platforms/http';
import { redditBasicAuth, redditUserAgent } from '@/server/platforms/reddit/reddit-api';
import { expiryFrom, OAuthFlowError, type OAuthProvider } from '../oauth-provider';

// read: the post's own statistics afterwards (/api/info, server/platforms/reddit/reddit-insights.ts).
// vote and modposts: upvoting and removing (hiding) comments from the inbox; history: the
// account's submitted list (a media post's address, and settling an interrupted publish).
const SCOPES = ['identity', 'submit', 'flair', 'read', 'vote', 'modposts', 'history'];

export const redditOAuth: OAuthProvider = {
  label: 'Reddit',
  pkce: false,
  choose: false,
  authorizeUrl: ({ app, state, redirectUri }) =>
    withQuery(app.authorizeUrl, {
      client_id: app.clientId,
      response_type: 'code',
      state,
      redirect_uri: redirectUri,
      duration: 'permanent',
      scope: SCOPES.join(' '),
    }),

  async connect(fetch, { app, code, redirectUri }) {
    const token = await callApi(fetch, app.tokenUrl, {
      headers: { authorization: redditBasicAuth(app.clientId, app.clientSecret ?? ''), 'user-agent': redditUserAgent() },
      form: { grant_type: 'authorization_code', code, redirect_uri: redirectUri },
    });
    // Reddit can answer a refused code with HTTP 200 and { "error": "invalid_grant" }.
    const accessToken = jsonString(token.json, 'access_token');
    if (!isSuccess(token) || !accessToken) {
      const reason = firstJsonString(token.json, ['error_description', 'error', 'message']) ?? `HTTP ${token.status}`;
      throw new OAuthFlowError(`Reddit did not accept the sign-in (${reason}). Please try again.`);
    }
    const me = await callApi(fetch, `${app.apiBaseUrl}/api/v1/me`, { headers: { authorization: `bearer ${accessToken}`, 'user-agent': redditUserAgent() } });
    const name = jsonString(me.json, 'name');
    const id = jsonString(me.json, 'id');
    if (!isSuccess(me) || !name || !id) throw new OAuthFlowError('Reddit signed you in but did not share your account. Please try again.');
    const icon = jsonString(me.json, 'icon_img')?.replace(/&amp;/g, '&');
    return [
      {
        externalId: `t2_${id}`,
        accountName: `u/${name}`,
        displayName: name,
        avatarUrl: icon || null,
        accessToken,
        refreshToken: jsonString(token.json, 'refresh_token') ?? null,
        expiresAt: expiryFrom(jsonString(token.json, 'expires_in')),
        scopes: jsonString(token.json, 'scope') ?? null,
        platformData: { username: name },
      },
    ];
  },
};
