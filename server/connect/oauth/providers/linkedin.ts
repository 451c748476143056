// LinkedIn: "Sign In with LinkedIn using OpenID Connect" plus posting as the member
// (scopes openid, profile, w_member_social). LinkedIn's 3-legged flow for web apps is a
// confidential client with a secret; it offers PKCE only to native apps, so none is sent.
// Token: POST /oauth/v2/accessToken (form); the member: GET /v2/userinfo (OIDC claims).
import { callApi, firstJsonString, isSuccess, jsonString, withQuery, type Fetcher } from '@/server/platforms/http';
import { expiryFrom, OAuthFlowError, type OAuthProvider } from '../oauth-provider';

const SCOPES = ['openid', 'profile', 'w_member_social'];

export const linkedinOAuth: OAuthProvider = {
  label: 'LinkedIn',
  pkce: false,
  choose: false,
  authorizeUrl: ({ app, state, redirectUri }) =>
    withQuery(app.authorizeUrl, { response_type: 'code', client_id: app.clientId, redirect_uri: redirectUri, state, scope: SCOPES.join(' ') }),

  async connect(fetch: Fetcher, { app, code, redirectUri }) {
    const token = await callApi(fetch, app.tokenUrl, {
      form: { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: app.clientId, client_secret: app.clientSecret ?? undefined },
    });
    const accessToken = jsonString(token.json, 'access_token');
    if (!isSuccess(token) || !accessToken) {
      const reason = firstJsonString(token.json, ['error_description', 'error', 'message']) ?? `HTTP ${token.status}`;
      throw new OAuthFlowError(`LinkedIn did not accept the sign-in (${reason}). Please try again.`);
    }
    const me = await callApi(fetch, `${app.apiBaseUrl}/v2/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
    const sub = jsonString(me.json, 'sub');
    if (!isSuccess(me) || !sub) throw new OAuthFlowError('LinkedIn signed you in but did not share your profile. Please try again.');
    const name = jsonString(me.json, 'name') ?? [jsonString(me.json, 'given_name'), jsonString(me.json, 'family_name')].filter(Boolean).join(' ');
    return [
      {
        externalId: sub,
        accountName: jsonString(me.json, 'email') ?? name ?? sub,
        displayName: name || sub,
        avatarUrl: jsonString(me.json, 'picture') ?? null,
        accessToken,
        refreshToken: jsonString(token.json, 'refresh_token') ?? null,
        expiresAt: expiryFrom(jsonString(token.json, 'expires_in')),
        scopes: (jsonString(token.json, 'scope') ?? SCOPES.join(' ')).replace(/,/g, ' '),
      },
    ];
  },
};
