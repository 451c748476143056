// What the Google providers (YouTube, Google Business Profile) share: Google's OAuth 2.0 for
// web server apps, with PKCE (S256), offline access and a forced consent so a refresh token is
// granted on every connect (https://developers.google.com/identity/protocols/oauth2/web-server).
//   consent: <GOOGLE_OAUTH_AUTHORIZE_URL>?client_id&redirect_uri&response_type=code&scope&state
//            &access_type=offline&prompt=consent&include_granted_scopes=true&code_challenge…
//   token:   POST <GOOGLE_OAUTH_TOKEN_URL> (form) code, client_id, client_secret, redirect_uri,
//            grant_type=authorization_code, code_verifier → { access_token, expires_in,
//            refresh_token, scope, token_type }
import { callApi, firstJsonString, isSuccess, jsonString, withQuery, type Fetcher } from '@/server/platforms/http';
import { expiryFrom, OAuthFlowError, type AuthorizeParams, type ExchangeParams } from '../oauth-provider';

export interface GoogleGrant {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  scopes: string | null;
}

export function googleAuthorizeUrl(scopes: readonly string[], { app, state, redirectUri, codeChallenge }: AuthorizeParams): string {
  return withQuery(app.authorizeUrl, {
    client_id: app.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: scopes.join(' '),
    state,
    access_type: 'offline',
    prompt: 'consent',
    include_granted_scopes: 'true',
    code_challenge: codeChallenge ?? undefined,
    code_challenge_method: codeChallenge ? 'S256' : undefined,
  });
}

/** The code exchange; a refusal is an OAuthFlowError naming `label` and Google's reason. */
export async function googleCodeExchange(fetch: Fetcher, label: string, { app, code, redirectUri, codeVerifier }: ExchangeParams): Promise<GoogleGrant> {
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
    const reason = firstJsonString(token.json, ['error_description', 'error', ['error', 'message']]) ?? `HTTP ${token.status}`;
    throw new OAuthFlowError(`Google did not accept the sign-in to ${label} (${reason}). Please try again.`);
  }
  return {
    accessToken,
    refreshToken: jsonString(token.json, 'refresh_token') ?? null,
    expiresAt: expiryFrom(jsonString(token.json, 'expires_in')),
    scopes: jsonString(token.json, 'scope') ?? null,
  };
}

/** Google's error message of an API answer, for the client to read. */
export function googleRefusal(label: string, response: { status: number; json: unknown }, what: string): OAuthFlowError {
  const reason = firstJsonString(response.json, [['error', 'message'], 'error_description', 'error']) ?? `HTTP ${response.status}`;
  return new OAuthFlowError(`${label} did not share ${what} (${reason}). Please try again.`);
}
