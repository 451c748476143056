// X (OAuth 2.0 with PKCE, required by X). A confidential client authenticates the code
// exchange with HTTP Basic; a public client sends only its id.
//   token: POST <api>/2/oauth2/token (form);  the user: GET <api>/2/users/me
import { callApi, firstJsonString, isSuccess, jsonString, withQuery } from '@/server/platforms/http';
import { expiryFrom, OAuthFlowError, type OAuthProvider } from '../oauth-provider';

// like.write and tweet.moderate.write: liking and hiding replies from the inbox; dm.read and
// dm.write: the account's direct messages in the inbox.
const SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access', 'like.write', 'tweet.moderate.write', 'dm.read', 'dm.write'];

export const xOAuth: OAuthProvider = {
  label: 'X',
  pkce: true,
  choose: false,
  authorizeUrl: ({ app, state, redirectUri, codeChallenge }) =>
    withQuery(app.authorizeUrl, {
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: redirectUri,
      scope: SCOPES.join(' '),
      state,
      code_challenge: codeChallenge ?? undefined,
      code_challenge_method: 'S256',
    }),

  async connect(fetch, { app, code, redirectUri, codeVerifier }) {
    const token = await callApi(fetch, app.tokenUrl, {
      headers: app.clientSecret ? { authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}` } : undefined,
      form: { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: codeVerifier ?? undefined, client_id: app.clientId },
    });
    const accessToken = jsonString(token.json, 'access_token');
    if (!isSuccess(token) || !accessToken) {
      throw new OAuthFlowError(
        `X did not accept the sign-in (${firstJsonString(token.json, ['error_description', 'error']) ?? `HTTP ${token.status}`}). Please try again.`,
      );
    }
    const me = await callApi(fetch, withQuery(`${app.apiBaseUrl}/2/users/me`, { 'user.fields': 'profile_image_url' }), {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const id = jsonString(me.json, 'data', 'id');
    if (!isSuccess(me) || !id) throw new OAuthFlowError('X signed you in but did not share your account. Please try again.');
    const username = jsonString(me.json, 'data', 'username') ?? id;
    return [
      {
        externalId: id,
        accountName: `@${username}`,
        displayName: jsonString(me.json, 'data', 'name') ?? username,
        avatarUrl: jsonString(me.json, 'data', 'profile_image_url') ?? null,
        accessToken,
        refreshToken: jsonString(token.json, 'refresh_token') ?? null,
        expiresAt: expiryFrom(jsonString(token.json, 'expires_in')),
        scopes: jsonString(token.json, 'scope') ?? null,
      },
    ];
  },
};
