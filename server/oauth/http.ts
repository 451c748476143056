// The OAuth endpoints for assistant clients as Web handlers (the app's route files export
// them): discovery metadata, client registration, the member's decision, the token endpoint
// and revocation. Errors use OAuth's own body, `{ error, error_description }`, which clients
// parse; authorization errors about a known client go back to its redirect URI instead.
import { staffUserIdFromRequest } from '@/server/auth/staff-session';
import { mustEnrolTwoFactor } from '@/server/auth/two-factor';
import { env } from '@/server/config/env';
import {
  authorizationServerMetadata,
  checkAuthorization,
  decide,
  exchangeToken,
  OAuthError,
  protectedResourceMetadata,
  registerClient,
  revokeToken,
} from './oauth';
import { log } from '@/server/observability/log';
import { isJsonContentType } from '@/server/shared/headers';

/** Discovery, registration and the token endpoint are called from browsers too (web-based clients). */
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Authorization, MCP-Protocol-Version',
};
const NO_STORE = { 'Cache-Control': 'no-store' };

function oauthError(err: unknown): Response {
  if (err instanceof OAuthError)
    return Response.json({ error: err.error, error_description: err.description }, { status: err.status, headers: { ...CORS, ...NO_STORE } });
  log.error('oauth', 'unexpected error', err);
  return Response.json({ error: 'server_error', error_description: 'Something went wrong on our side' }, { status: 500, headers: CORS });
}

export const handleOAuthPreflight = () => new Response(null, { status: 204, headers: CORS });
export const handleProtectedResourceMetadata = () => Response.json(protectedResourceMetadata(), { headers: CORS });
export const handleAuthorizationServerMetadata = () => Response.json(authorizationServerMetadata(), { headers: CORS });

export async function handleRegister(req: Request): Promise<Response> {
  try {
    const body = (await req.json().catch(() => null)) as Record<string, unknown> | null;
    if (!body || typeof body !== 'object') throw new OAuthError('invalid_client_metadata', 'Send the client metadata as a JSON object');
    return Response.json(await registerClient(body), { status: 201, headers: { ...CORS, ...NO_STORE } });
  } catch (err) {
    return oauthError(err);
  }
}

/** The form a client posts (form-encoded per RFC 6749; some clients send JSON). */
async function formOf(req: Request): Promise<URLSearchParams> {
  if (!isJsonContentType(req.headers.get('content-type'))) return new URLSearchParams(await req.text());
  const body = (await req.json().catch(() => null)) as unknown;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_request', 'Send the parameters form-encoded');
  return new URLSearchParams(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

export async function handleToken(req: Request): Promise<Response> {
  try {
    return Response.json(await exchangeToken(await formOf(req)), { headers: { ...CORS, ...NO_STORE } });
  } catch (err) {
    return oauthError(err);
  }
}

/** RFC 7009: 200 whether or not the token was known, so it tells nothing about tokens. */
export async function handleRevoke(req: Request): Promise<Response> {
  try {
    await revokeToken(await formOf(req));
    return new Response(null, { status: 200, headers: { ...CORS, ...NO_STORE } });
  } catch (err) {
    return oauthError(err);
  }
}

const AUTHORIZE_FIELDS = ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'state', 'scope', 'resource'] as const;

/**
 * The consent form's POST: the signed-in member approves (with a workspace and scopes) or
 * declines. A form from another site is refused: the session cookie is SameSite=Lax, and an
 * Origin other than Herald's is turned away as well.
 */
export async function handleDecision(req: Request): Promise<Response> {
  const origin = req.headers.get('origin');
  if (origin && origin !== new URL(env.baseUrl()).origin) return oauthError(new OAuthError('access_denied', 'The consent must come from Herald', 403));
  const userId = await staffUserIdFromRequest(req.headers);
  if (!userId) return oauthError(new OAuthError('access_denied', 'Sign in to Herald first', 401));
  if (await mustEnrolTwoFactor(userId)) return oauthError(new OAuthError('access_denied', 'Your agency requires two-factor sign-in: set it up first', 403));
  try {
    const form = new URLSearchParams(await req.text());
    const params = Object.fromEntries(AUTHORIZE_FIELDS.map((f) => [f, form.get(f)]));
    const request = await checkAuthorization(params);
    const location = await decide({
      userId,
      request,
      approve: form.get('decision') === 'approve',
      workspaceId: form.get('workspaceId'),
      scopes: form.getAll('scopes'),
      // The consent page marks that it showed the toolsets, so none ticked is told apart from a form without them.
      toolsets: form.has('toolsetsShown') ? form.getAll('toolsets') : undefined,
    });
    return new Response(null, { status: 303, headers: { Location: location, ...NO_STORE } });
  } catch (err) {
    if (err instanceof OAuthError && err.redirectTo) return new Response(null, { status: 303, headers: { Location: err.redirectTo, ...NO_STORE } });
    return oauthError(err);
  }
}
