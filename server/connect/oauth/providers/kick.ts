// Kick OAuth 2.1 with PKCE (https://docs.kick.com/getting-started/generating-tokens-oauth2-flow):
//   consent: https://id.kick.com/oauth/authorize?client_id&response_type=code&redirect_uri&state
//            &scope&code_challenge&code_challenge_method=S256 (PKCE and state required)
//   token:   POST https://id.kick.com/oauth/token (form: code, client_id, client_secret,
//            redirect_uri, grant_type=authorization_code, code_verifier) → { access_token,
//            token_type, refresh_token, expires_in, scope }; a refusal is { error }
//   user:    GET /public/v1/users (no id: the token's user) → { data: [{ user_id, name,
//            profile_picture }] } (https://docs.kick.com/apis/users)
//   channel: GET /public/v1/channels (no id: the token's user's channel) → { data: [{
//            broadcaster_user_id, slug }] } (https://docs.kick.com/apis/channels)
// A connection is the user's own channel, whose chat Herald writes in as the user: nothing to
// choose. Scopes (https://docs.kick.com/scopes/scopes): user:read, channel:read, chat:write.
import { callApi, firstJsonString, isSuccess, jsonAt, jsonString, withQuery } from '@/server/platforms/http';
import { expiryFrom, OAuthFlowError, type OAuthProvider } from '../oauth-provider';

export const KICK_SCOPES = ['user:read', 'channel:read', 'chat:write'];

const ERROR_PATHS = ['error_description', 'error', 'message'] as const;

export const kickOAuth: OAuthProvider = {
  label: 'Kick',
  pkce: true,
  choose: false,
  authorizeUrl: ({ app, state, redirectUri, codeChallenge }) =>
    withQuery(app.authorizeUrl, {
      client_id: app.clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      state,
      scope: KICK_SCOPES.join(' '),
      code_challenge: codeChallenge ?? undefined,
      code_challenge_method: 'S256',
    }),

  async connect(fetch, { app, code, redirectUri, codeVerifier }) {
    const token = await callApi(fetch, app.tokenUrl, {
      form: {
        code,
        client_id: app.clientId,
        client_secret: app.clientSecret ?? undefined,
        redirect_uri: redirectUri,
        grant_type: 'authorization_code',
        code_verifier: codeVerifier ?? undefined,
      },
    });
    const accessToken = jsonString(token.json, 'access_token');
    if (!isSuccess(token) || !accessToken) {
      throw new OAuthFlowError(`Kick did not accept the sign-in (${firstJsonString(token.json, ERROR_PATHS) ?? `HTTP ${token.status}`}). Please try again.`);
    }
    const auth = { authorization: `Bearer ${accessToken}` };
    const users = await callApi(fetch, `${app.apiBaseUrl}/users`, { headers: auth });
    const user = jsonAt(users.json, 'data', 0);
    const id = jsonString(user, 'user_id');
    if (!isSuccess(users) || !id) {
      throw new OAuthFlowError(
        `Kick signed you in but did not share your account (${firstJsonString(users.json, ERROR_PATHS) ?? `HTTP ${users.status}`}). Please try again.`,
      );
    }
    const channels = await callApi(fetch, `${app.apiBaseUrl}/channels`, { headers: auth });
    const slug = jsonString(jsonAt(channels.json, 'data', 0), 'slug');
    if (!isSuccess(channels) || !slug) {
      throw new OAuthFlowError(
        `Kick signed you in but did not share your channel (${firstJsonString(channels.json, ERROR_PATHS) ?? `HTTP ${channels.status}`}). Please try again.`,
      );
    }
    const name = jsonString(user, 'name') || slug;
    return [
      {
        externalId: id,
        accountName: slug,
        displayName: name,
        avatarUrl: jsonString(user, 'profile_picture') || null,
        accessToken,
        refreshToken: jsonString(token.json, 'refresh_token') ?? null,
        expiresAt: expiryFrom(jsonString(token.json, 'expires_in')),
        scopes: jsonString(token.json, 'scope') ?? KICK_SCOPES.join(' '),
        kind: 'Kick channel',
        platformData: { slug },
      },
    ];
  },
};
