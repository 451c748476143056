// Bearer key → principal. Every failure is the same 401 family with a precise message; the
// body shape is the flat one (server/errors/catalogue.ts → UNAUTHORIZED).
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { MAX_AUTHORIZATION_LENGTH } from '@/server/shared/http-limits';
import { isWellFormedKey, keyMatches, prefixOf } from './api-key-secret';
import { cachedKey, keyCacheMark, rememberKey, type StoredKey } from './key-cache';
import { SCOPES, type Scope } from './scopes';
import { log } from '@/server/observability/log';

export interface KeyPrincipal {
  keyId: string;
  workspaceId: string;
  scopes: Scope[];
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** A header parameter value as RFC 6750 allows it: printable ASCII without quote or backslash. */
const quotedString = (text: string) => text.replace(/…/g, '...').replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, '');

/**
 * The 401 with its challenge (RFC 6750 §3.1): `error="invalid_token"` and the reason when a
 * key was sent but is no good; no error code when none was sent, which only asks for one.
 */
function unauthorized(message: string, sent = true): AppError {
  const challenge = sent ? `Bearer realm="herald", error="invalid_token", error_description="${quotedString(message)}"` : 'Bearer realm="herald"';
  return new AppError('UNAUTHORIZED', message, { headers: { 'WWW-Authenticate': challenge } });
}

/** The well-formed key in an Authorization header; throws the 401 family otherwise. */
export function bearerKeyOf(authorization: string | null | undefined): string {
  if (!authorization) throw unauthorized('Missing API key: send Authorization: Bearer sk_live_…', false);
  if (authorization.length > MAX_AUTHORIZATION_LENGTH) throw unauthorized('Malformed Authorization header: expected "Bearer sk_live_…"');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw unauthorized('Malformed Authorization header: expected "Bearer sk_live_…"');
  const secret = match[1]!;
  if (!isWellFormedKey(secret)) throw unauthorized('Malformed API key: keys look like sk_live_ followed by 43 characters');
  return secret;
}

/**
 * `resource` is what the request is for: null for the REST API, the tool endpoint's URL there.
 * A pasted key works at both; an assistant connection's token only at the resource it was
 * issued for (RFC 8707).
 */
export async function authenticateApiKey(authorization: string | null | undefined, resource: string | null = null): Promise<KeyPrincipal> {
  const secret = bearerKeyOf(authorization);
  const prefix = prefixOf(secret);
  let key: StoredKey | null | undefined = cachedKey(prefix);
  if (!key) {
    const since = keyCacheMark();
    key = await db.apiKey.findUnique({ where: { prefix }, select: KEY_FIELDS });
    if (key) rememberKey(prefix, key, since);
  }
  return principalOfKey(secret, key, resource);
}

const KEY_FIELDS = { id: true, workspaceId: true, hash: true, scopes: true, expiresAt: true, revokedAt: true, lastUsedAt: true, resource: true } as const;

export type { StoredKey };

/**
 * The key check proper, for a row already read (by prefix here, or joined to a tool-endpoint
 * session in one query): the secret must hash to the row, the key be neither revoked nor expired.
 */
export function principalOfKey(secret: string, key: StoredKey | null | undefined, resource: string | null): KeyPrincipal {
  if (!key || !keyMatches(secret, key.hash)) throw unauthorized('Unknown API key');
  if (key.resource !== null && key.resource !== resource) throw unauthorized('This token was issued for another resource: the tool endpoint only');
  return principalOf(key);
}

function principalOf(key: Omit<StoredKey, 'hash'>, checkExpiry = true): KeyPrincipal {
  if (key.revokedAt) throw unauthorized('This API key was revoked');
  if (checkExpiry && key.expiresAt && key.expiresAt.getTime() <= Date.now()) throw unauthorized('This API key has expired');
  touchLastUsed(key);
  return {
    keyId: key.id,
    workspaceId: key.workspaceId,
    scopes: key.scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s)),
  };
}

/**
 * The principal of a key known by id, with the same revoked/expired checks: a staged action
 * runs later under the key that staged it, and not at all if that key was revoked meanwhile.
 */
export async function authenticateKeyById(keyId: string): Promise<KeyPrincipal> {
  const key = await db.apiKey.findUnique({ where: { id: keyId }, select: KEY_FIELDS });
  if (!key) throw unauthorized('Unknown API key');
  // An assistant connection's expiry is its current access token's, refreshed hourly; the
  // connection itself lasts until revoked, so an action confirmed after the token lapsed runs.
  return principalOf(key, key.resource === null);
}

/**
 * lastUsedAt is informative, not a ledger: write it at most once a minute per key, without
 * making the request wait, and with a guard in SQL so concurrent requests do not all write.
 */
function touchLastUsed(key: Omit<StoredKey, 'hash'>): void {
  const { id: keyId, lastUsedAt } = key;
  if (lastUsedAt && Date.now() - lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  // The row held (perhaps cached) is what the next request sees: no second write this minute.
  key.lastUsedAt = new Date();
  const cutoff = new Date(Date.now() - LAST_USED_RESOLUTION_MS);
  db.apiKey
    .updateMany({
      where: { id: keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: cutoff } }] },
      data: { lastUsedAt: new Date() },
    })
    .catch((err: unknown) => log.warn('auth', 'could not record lastUsedAt', err));
}
