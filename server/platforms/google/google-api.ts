// What YouTube and Google Business Profile share: one Google OAuth app (GOOGLE_CLIENT_ID /
// GOOGLE_CLIENT_SECRET), its token endpoint, and Google's JSON error envelope.
//
// Errors (https://cloud.google.com/apis/design/errors, https://developers.google.com/youtube/v3/docs/errors):
//   { "error": { "code": 403, "message": "…", "status": "PERMISSION_DENIED",
//                "errors": [ { "domain": "youtube.quota", "reason": "quotaExceeded", "message": "…" } ] } }
// 401 (UNAUTHENTICATED, reason authError) means the token is no longer accepted.
// Refresh (https://developers.google.com/identity/protocols/oauth2/web-server#offline):
//   POST https://oauth2.googleapis.com/token client_id, client_secret, grant_type=refresh_token,
//   refresh_token → { access_token, expires_in, scope, token_type }. Google keeps the refresh
//   token (none comes back); a revoked one answers 400 { "error": "invalid_grant",
//   "error_description": "Token has been expired or revoked." }.
import { PlatformError, TokenExpiredError } from '../publisher';
import { firstJsonString, isSuccess, jsonAt, type ApiResponse, type Fetcher } from '../http';
import { refreshTokenGrant, type TokenRefresher } from '../token-refresh';

export const GOOGLE_DEFAULT_AUTHORIZE_URL = 'https://accounts.google.com/o/oauth2/v2/auth';
export const GOOGLE_DEFAULT_TOKEN_URL = 'https://oauth2.googleapis.com/token';

/** The reasons of Google's `error.errors[]`, e.g. ["quotaExceeded"]. */
export function googleReasons(json: unknown): string[] {
  const errors = jsonAt(json, 'error', 'errors');
  if (!Array.isArray(errors)) return [];
  return errors.map((e) => jsonAt(e, 'reason')).filter((r): r is string => typeof r === 'string');
}

/**
 * Google's error text, verbatim. Google Business Profile puts what was wrong in
 * error.details[].errorDetails[].message (its message alone is "Request contains an invalid
 * argument."): those follow it, Google's words too.
 */
export function googleErrorText(response: ApiResponse, platform: string): string {
  const message = firstJsonString(response.json, [['error', 'message'], 'error_description', 'error']) || `${platform} answered HTTP ${response.status}`;
  const details = jsonAt(response.json, 'error', 'details');
  const specifics = (Array.isArray(details) ? details : [])
    .flatMap((d) => {
      const errorDetails = jsonAt(d, 'errorDetails');
      return Array.isArray(errorDetails) ? errorDetails : [];
    })
    .map((e) => {
      const text = jsonAt(e, 'message');
      const field = jsonAt(e, 'field');
      return typeof text === 'string' ? (typeof field === 'string' && field ? `${field}: ${text}` : text) : null;
    })
    .filter((t): t is string => t !== null);
  return specifics.length > 0 ? `${message} (${specifics.join('; ')})` : message;
}

/** Null for a success; otherwise the refusal with Google's words (a 401 is a token no longer accepted). */
export function googleError(response: ApiResponse, platform: string): PlatformError | null {
  if (isSuccess(response)) return null;
  const message = googleErrorText(response, platform);
  if (response.status === 401) return new TokenExpiredError(message);
  return new PlatformError(message, { status: response.status });
}

export interface GoogleClient {
  clientId?: string;
  clientSecret?: string;
  tokenUrl?: string;
}

/** Google's refresh_token grant, or null without the app's credentials (the token is then used until it lapses). */
/**
 * Google's refresh grant for an adapter: its own client (tests) field by field, else the
 * deployment's Google app; null when neither gives a complete client.
 */
export function googleRefresher(
  fetch: Fetcher,
  options: GoogleClient & { timeoutMs?: number },
  app: { clientId: string; clientSecret: string | null; tokenUrl: string } | null,
): TokenRefresher | null {
  const client = {
    clientId: options.clientId ?? app?.clientId,
    clientSecret: options.clientSecret ?? app?.clientSecret ?? undefined,
    tokenUrl: options.tokenUrl ?? app?.tokenUrl,
  };
  const timeoutMs = options.timeoutMs;
  if (!client.clientId || !client.clientSecret || !client.tokenUrl) return null;
  return refreshTokenGrant(fetch, {
    platform: 'Google',
    url: client.tokenUrl,
    client: { client_id: client.clientId, client_secret: client.clientSecret },
    errorKeys: ['error'],
    requireOkStatus: true,
    timeoutMs,
  });
}
