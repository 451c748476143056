// Tumblr OAuth 2.0 (https://www.tumblr.com/docs/en/api/v2#oauth2-authorization):
//   consent: https://www.tumblr.com/oauth2/authorize?client_id&response_type=code&scope&state&redirect_uri
//            (scopes space-delimited: basic, write, offline_access)
//   token:   POST https://api.tumblr.com/v2/oauth2/token (form: grant_type=authorization_code,
//            code, client_id, client_secret, redirect_uri) → { access_token, expires_in,
//            refresh_token (with offline_access), scope, token_type }
//   user:    GET /v2/user/info → { response: { user: { name, blogs: [{ name, title, url,
//            uuid, primary }] } } } (https://www.tumblr.com/docs/en/api/v2#userinfo--get-a-users-information)
// Tumblr documents no PKCE. A connection is one blog the user can post to: with several, the
// client picks (each blog is a choice, as Pinterest boards are).
import { callApi, firstJsonString, isSuccess, jsonAt, jsonString, withQuery } from '@/server/platforms/http';
import { TUMBLR_USER_AGENT } from '@/server/platforms/tumblr/tumblr-api';
import { expiryFrom, OAuthFlowError, type GrantedAccount, type OAuthProvider } from '../oauth-provider';

// write: posting; offline_access: a refresh token (access tokens last about 40 minutes).
export const TUMBLR_SCOPES = ['basic', 'write', 'offline_access'];

const ERROR_PATHS = ['error_description', 'error', ['errors', 0, 'detail'], ['errors', 0, 'title'], ['meta', 'msg']] as const;

export const tumblrOAuth: OAuthProvider = {
  label: 'Tumblr',
  pkce: false,
  choose: true,
  authorizeUrl: ({ app, state, redirectUri }) =>
    withQuery(app.authorizeUrl, { client_id: app.clientId, response_type: 'code', scope: TUMBLR_SCOPES.join(' '), state, redirect_uri: redirectUri }),

  async connect(fetch, { app, code, redirectUri }) {
    const token = await callApi(fetch, app.tokenUrl, {
      headers: { 'user-agent': TUMBLR_USER_AGENT },
      form: { grant_type: 'authorization_code', code, client_id: app.clientId, client_secret: app.clientSecret ?? undefined, redirect_uri: redirectUri },
    });
    const accessToken = jsonString(token.json, 'access_token');
    if (!isSuccess(token) || !accessToken) {
      throw new OAuthFlowError(`Tumblr did not accept the sign-in (${firstJsonString(token.json, ERROR_PATHS) ?? `HTTP ${token.status}`}). Please try again.`);
    }
    const info = await callApi(fetch, `${app.apiBaseUrl}/v2/user/info`, {
      headers: { authorization: `Bearer ${accessToken}`, 'user-agent': TUMBLR_USER_AGENT },
    });
    const user = jsonAt(info.json, 'response', 'user');
    const blogs = jsonAt(user, 'blogs');
    if (!isSuccess(info) || !Array.isArray(blogs)) {
      throw new OAuthFlowError(
        `Tumblr signed you in but did not share your blogs (${firstJsonString(info.json, ERROR_PATHS) ?? `HTTP ${info.status}`}). Please try again.`,
      );
    }
    const tokens = {
      accessToken,
      refreshToken: jsonString(token.json, 'refresh_token') ?? null,
      expiresAt: expiryFrom(jsonString(token.json, 'expires_in')),
      scopes: jsonString(token.json, 'scope') ?? TUMBLR_SCOPES.join(' '),
    };
    const username = jsonString(user, 'name') ?? null;
    const choices: GrantedAccount[] = blogs.flatMap((blog) => {
      const name = jsonString(blog, 'name');
      if (!name) return [];
      const uuid = jsonString(blog, 'uuid');
      return [
        {
          // The uuid does not change when the blog is renamed; the name is the fallback.
          externalId: uuid ?? name,
          accountName: name,
          displayName: jsonString(blog, 'title') || name,
          avatarUrl: null,
          ...tokens,
          kind: jsonAt(blog, 'primary') === true ? 'Tumblr blog (primary)' : 'Tumblr blog',
          platformData: { blogName: name, blogUuid: uuid ?? null, blogUrl: jsonString(blog, 'url') ?? null, username },
        },
      ];
    });
    if (choices.length === 0) throw new OAuthFlowError('This Tumblr account has no blog to post to. Create one on Tumblr, then try again.');
    return choices;
  },
};
