// Dribbble OAuth 2.0 (https://developer.dribbble.com/v2/oauth/):
//   consent: https://dribbble.com/oauth/authorize?client_id&redirect_uri&scope&state (scopes
//            space-separated: public, upload)
//   token:   POST https://dribbble.com/oauth/token (client_id, client_secret, code,
//            redirect_uri) → { access_token, token_type, scope }; tokens do not expire and no
//            refresh token is granted
//   user:    GET https://api.dribbble.com/v2/user → { id, name, login, avatar_url,
//            can_upload_shot } (https://developer.dribbble.com/v2/user/)
// A connection is the user who consents (shots go to their profile): nothing to choose. A user
// whom Dribbble does not let upload shots is told so at connect, not at the first post.
import { callApi, firstJsonString, isSuccess, jsonAt, jsonString, withQuery } from '@/server/platforms/http';
import { OAuthFlowError, type OAuthProvider } from '../oauth-provider';

// public: reading the user; upload: creating shots.
export const DRIBBBLE_SCOPES = ['public', 'upload'];

const ERROR_PATHS = ['error_description', 'error', 'message'] as const;

export const dribbbleOAuth: OAuthProvider = {
  label: 'Dribbble',
  pkce: false,
  choose: false,
  authorizeUrl: ({ app, state, redirectUri }) =>
    withQuery(app.authorizeUrl, { client_id: app.clientId, redirect_uri: redirectUri, scope: DRIBBBLE_SCOPES.join(' '), state }),

  async connect(fetch, { app, code, redirectUri }) {
    const token = await callApi(fetch, app.tokenUrl, {
      form: { client_id: app.clientId, client_secret: app.clientSecret ?? undefined, code, redirect_uri: redirectUri },
    });
    const accessToken = jsonString(token.json, 'access_token');
    if (!isSuccess(token) || !accessToken) {
      throw new OAuthFlowError(
        `Dribbble did not accept the sign-in (${firstJsonString(token.json, ERROR_PATHS) ?? `HTTP ${token.status}`}). Please try again.`,
      );
    }
    const me = await callApi(fetch, `${app.apiBaseUrl}/user`, { headers: { authorization: `Bearer ${accessToken}` } });
    const id = jsonString(me.json, 'id');
    const login = jsonString(me.json, 'login');
    if (!isSuccess(me) || !id || !login) {
      throw new OAuthFlowError(
        `Dribbble signed you in but did not share your account (${firstJsonString(me.json, ERROR_PATHS) ?? `HTTP ${me.status}`}). Please try again.`,
      );
    }
    if (jsonAt(me.json, 'can_upload_shot') === false) {
      throw new OAuthFlowError('Dribbble does not let this account upload shots yet, so Herald could not post to it. Once it can, connect it again.');
    }
    return [
      {
        externalId: id,
        accountName: login,
        displayName: jsonString(me.json, 'name') || login,
        avatarUrl: jsonString(me.json, 'avatar_url') || null,
        accessToken,
        refreshToken: null,
        expiresAt: null,
        scopes: jsonString(token.json, 'scope') ?? DRIBBBLE_SCOPES.join(' '),
        kind: 'Dribbble profile',
        platformData: { login },
      },
    ];
  },
};
