// Runs a platform call with a usable access token, refreshing it when the platform has a
// refresh mechanism. Tokens are read from and written to the TokenStore that delivery passes
// in (server/posts/delivery/connection-tokens.ts keeps them on the Connection row); nothing
// here touches the database.
//
// Why a store the adapter writes to, rather than new tokens returned with the result for
// delivery to record with the outcome: X and TikTok rotate the refresh token on every use, so
// from the moment a grant succeeds the stored refresh token is spent. Until the new pair is
// stored, any other delivery to the same account (posts go out concurrently) would refresh
// with the spent one, be refused, and mark a healthy connection expired; and a publish can
// take minutes (media processing), or end in a crash that would lose the only valid refresh
// token for good. So the grant is saved the moment it arrives, through the port.
//
// Refresh tokens are read from the store, not from the connection passed in: the publisher
// port does not carry them, and the store is the freshest copy when several deliveries for the
// same account run at once. Before refreshing, and again after a refused grant, a token that
// another delivery stored meanwhile is used instead: the later delivery rides on the earlier
// one's refresh rather than spending the refresh token again or giving up.
import { callApi, firstJsonString, isSuccess, jsonString, type Fetcher, type JsonPath } from './http';
import { PlatformError, TokenExpiredError, type PublishableConnection, type StoredTokens, type TokenStore } from './publisher';

export interface TokenGrant {
  accessToken: string;
  /** Absent when the platform keeps the previous refresh token valid. */
  refreshToken?: string | null;
  expiresInSeconds?: number | null;
}

export interface TokenRefresher {
  /**
   * 'refresh_token': an OAuth refresh_token grant (needs the stored refresh token).
   * 'access_token': the platform extends a still-valid token with itself (Threads).
   */
  uses: 'refresh_token' | 'access_token';
  /** Refresh this long before the stored expiry (a long-lived token must be extended before it lapses). */
  aheadMs: number;
  /** Throws TokenExpiredError when the platform refuses the grant. */
  refresh(credential: string): Promise<TokenGrant>;
}

/** How one platform takes an OAuth 2.0 refresh_token grant (RFC 6749 §6). */
export interface RefreshTokenGrant {
  /** The platform's name, for the message of a refusal without one ("X answered HTTP 400"). */
  platform: string;
  /** The token endpoint. */
  url: string;
  /** The app's client fields sent along with grant_type and refresh_token. */
  client: Record<string, string>;
  /** E.g. HTTP Basic client authentication. */
  headers?: Record<string, string>;
  /** Where the platform puts a refusal's message, tried after the standard error_description. */
  errorKeys: readonly JsonPath[];
  /**
   * Whether a non-2xx answer is a refusal even with an access_token in it. TikTok's token
   * endpoint is judged by its body alone.
   */
  requireOkStatus: boolean;
  timeoutMs?: number;
}

/**
 * A refresher for a platform with OAuth 2.0 refresh tokens: POSTs the grant as a form,
 * refreshing a minute before the stored expiry. A 429 or 5xx is a PlatformError (the platform
 * is busy or down; the account is fine); any other refusal is a TokenExpiredError (the
 * account must reconnect).
 */
export function refreshTokenGrant(fetch: Fetcher, grant: RefreshTokenGrant): TokenRefresher {
  return {
    uses: 'refresh_token',
    aheadMs: 60_000,
    async refresh(refreshToken) {
      const response = await callApi(fetch, grant.url, {
        headers: grant.headers,
        form: { grant_type: 'refresh_token', refresh_token: refreshToken, ...grant.client },
        timeoutMs: grant.timeoutMs,
      });
      const accessToken = jsonString(response.json, 'access_token');
      if (!accessToken || (grant.requireOkStatus && !isSuccess(response))) {
        const message = firstJsonString(response.json, ['error_description', ...grant.errorKeys]) || `${grant.platform} answered HTTP ${response.status}`;
        if (response.status === 429 || response.status >= 500) throw new PlatformError(message, { status: response.status });
        throw new TokenExpiredError(message);
      }
      return {
        accessToken,
        refreshToken: jsonString(response.json, 'refresh_token') ?? null,
        expiresInSeconds: Number(jsonString(response.json, 'expires_in')) || null,
      };
    },
  };
}

const NO_TOKEN = 'No access token is stored for this account; reconnect it to publish.';

/**
 * Calls `call` with the connection's token. With a refresher: refreshes first when the token
 * is (nearly) expired, and once more after the platform rejects the token as expired. Every
 * refreshed token goes to `tokens` as soon as the platform grants it.
 */
export async function withAccessToken<T>(
  connection: Pick<PublishableConnection, 'id' | 'accessToken' | 'tokenExpiresAt'>,
  refresher: TokenRefresher | null,
  tokens: TokenStore,
  call: (accessToken: string) => Promise<T>,
): Promise<T> {
  let token = connection.accessToken;
  let refreshed = false;

  if (refresher && (!token || isDue(connection.tokenExpiresAt, refresher.aheadMs))) {
    try {
      token = await refreshStoredToken(tokens, connection.id, token, refresher);
      refreshed = true;
    } catch (error) {
      // An early refresh of a token that still works must not stop the post.
      const stillValid = token && connection.tokenExpiresAt && connection.tokenExpiresAt.getTime() > Date.now();
      if (!stillValid) throw error;
    }
  }
  if (!token) throw new TokenExpiredError(NO_TOKEN);

  try {
    return await call(token);
  } catch (error) {
    if (!(error instanceof TokenExpiredError) || !refresher || refreshed) throw error;
    const fresh = await refreshStoredToken(tokens, connection.id, token, refresher, error);
    return call(fresh);
  }
}

function isDue(expiresAt: Date | null, aheadMs: number): boolean {
  return expiresAt !== null && expiresAt.getTime() - aheadMs <= Date.now();
}

/** A token another delivery stored since `staleToken` was read, if it is usable. */
function newerToken(stored: StoredTokens | null, staleToken: string | null): string | null {
  if (!stored?.accessToken || stored.accessToken === staleToken) return null;
  if (stored.expiresAt && stored.expiresAt.getTime() <= Date.now()) return null;
  return stored.accessToken;
}

async function refreshStoredToken(
  tokens: TokenStore,
  connectionId: string,
  staleToken: string | null,
  refresher: TokenRefresher,
  rejection?: TokenExpiredError,
): Promise<string> {
  const stored = await tokens.read(connectionId);
  const newer = newerToken(stored, staleToken);
  if (newer) return newer;

  const credential = refresher.uses === 'refresh_token' ? stored?.refreshToken : (stored?.accessToken ?? staleToken);
  if (!credential) {
    throw rejection ?? new TokenExpiredError('The access token has expired and no refresh token is stored; reconnect the account.');
  }

  let grant: TokenGrant;
  try {
    grant = await refresher.refresh(credential);
  } catch (error) {
    // Lost a race with another delivery that rotated the refresh token: use its result.
    const raced = newerToken(await tokens.read(connectionId), staleToken);
    if (raced) return raced;
    throw error;
  }

  await tokens.save(connectionId, {
    accessToken: grant.accessToken,
    refreshToken: grant.refreshToken ?? stored?.refreshToken ?? null,
    expiresAt: grant.expiresInSeconds ? new Date(Date.now() + grant.expiresInSeconds * 1000) : null,
  });
  return grant.accessToken;
}
