// Twitch OAuth 2.0, authorization code grant
// (https://dev.twitch.tv/docs/authentication/getting-tokens-oauth/#authorization-code-grant-flow):
//   consent: https://id.twitch.tv/oauth2/authorize?client_id&redirect_uri&response_type=code&scope&state
//            (scopes space-delimited)
//   token:   POST https://id.twitch.tv/oauth2/token (form: client_id, client_secret, code,
//            grant_type=authorization_code, redirect_uri) → { access_token, expires_in,
//            refresh_token, scope: [..], token_type }; a refusal is { status, message }
//   user:    GET https://api.twitch.tv/helix/users (Bearer + Client-Id; no query: the token's
//            user) → { data: [{ id, login, display_name, profile_image_url }] }
//            (https://dev.twitch.tv/docs/api/reference/users#get-users)
// Twitch documents no PKCE for this flow. A connection is the broadcaster's own channel: the
// user who consents is the one whose chat Herald writes in, so there is nothing to choose.
import { callApi, firstJsonString, isSuccess, jsonAt, jsonString, withQuery } from '@/server/platforms/http';
import { expiryFrom, OAuthFlowError, type OAuthProvider } from '../oauth-provider';

// user:write:chat: chat messages as the user; moderator:manage:announcements: announcements
// (a broadcaster moderates their own chat).
export const TWITCH_SCOPES = ['user:write:chat', 'moderator:manage:announcements'];

const ERROR_PATHS = ['message', 'error_description', 'error'] as const;

/** Twitch lists granted scopes as an array; Herald stores them space-separated. */
function grantedScopes(json: unknown): string {
  const scope = jsonAt(json, 'scope');
  if (Array.isArray(scope)) return scope.filter((s) => typeof s === 'string').join(' ');
  return typeof scope === 'string' ? scope : TWITCH_SCOPES.join(' ');
}

export const twitchOAuth: OAuthProvider = {
  label: 'Twitch',
  pkce: false,
  choose: false,
  authorizeUrl: ({ app, state, redirectUri }) =>
    withQuery(app.authorizeUrl, { client_id: app.clientId, redirect_uri: redirectUri, response_type: 'code', scope: TWITCH_SCOPES.join(' '), state }),

  async connect(fetch, { app, code, redirectUri }) {
    const token = await callApi(fetch, app.tokenUrl, {
      form: { client_id: app.clientId, client_secret: app.clientSecret ?? undefined, code, grant_type: 'authorization_code', redirect_uri: redirectUri },
    });
    const accessToken = jsonString(token.json, 'access_token');
    if (!isSuccess(token) || !accessToken) {
      throw new OAuthFlowError(`Twitch did not accept the sign-in (${firstJsonString(token.json, ERROR_PATHS) ?? `HTTP ${token.status}`}). Please try again.`);
    }
    const users = await callApi(fetch, `${app.apiBaseUrl}/users`, { headers: { authorization: `Bearer ${accessToken}`, 'client-id': app.clientId } });
    const user = jsonAt(users.json, 'data', 0);
    const id = jsonString(user, 'id');
    const login = jsonString(user, 'login');
    if (!isSuccess(users) || !id || !login) {
      throw new OAuthFlowError(
        `Twitch signed you in but did not share your channel (${firstJsonString(users.json, ERROR_PATHS) ?? `HTTP ${users.status}`}). Please try again.`,
      );
    }
    return [
      {
        externalId: id,
        accountName: login,
        displayName: jsonString(user, 'display_name') || login,
        avatarUrl: jsonString(user, 'profile_image_url') || null,
        accessToken,
        refreshToken: jsonString(token.json, 'refresh_token') ?? null,
        expiresAt: expiryFrom(jsonString(token.json, 'expires_in')),
        scopes: grantedScopes(token.json),
        kind: 'Twitch channel',
        platformData: { login },
      },
    ];
  },
};
