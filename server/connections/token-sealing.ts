// Platform tokens at rest. Herald must present a connection's access and refresh tokens to
// the platform, so they are sealed (AES-256-GCM) rather than hashed, under a key derived from
// WEBHOOK_SECRET_KEY, the deployment's sealing secret (docs/decisions.md): a database dump
// alone reveals no token.
//
// Rows written before tokens were sealed hold them in clear; `openToken` passes such a value
// through unchanged (a sealed value carries the `sealed:` marker, which no platform token
// starts with), and the next save seals it.
import { env } from '@/server/config/env';
import { open, seal, sealingKeyFor } from '@/server/shared/sealed-box';

const MARKER = 'sealed:';
let cachedKey: { raw: string; key: Buffer } | undefined;

function key(): Buffer {
  const raw = env.webhookSecretKey();
  if (!raw) throw new Error('WEBHOOK_SECRET_KEY is not set: it seals platform tokens at rest (`npm start` generates one into DATA_DIR)');
  if (cachedKey?.raw !== raw) cachedKey = { raw, key: sealingKeyFor('herald/connection-tokens', raw) };
  return cachedKey.key;
}

export function sealToken(token: string): string;
export function sealToken(token: string | null): string | null;
export function sealToken(token: string | null): string | null {
  return token === null ? null : `${MARKER}${seal(key(), token)}`;
}

export function openToken(stored: string | null): string | null {
  if (stored === null || !stored.startsWith(MARKER)) return stored;
  const opened = open(key(), stored.slice(MARKER.length));
  if (opened === null) throw new Error('A stored platform token cannot be opened with this WEBHOOK_SECRET_KEY (was the key changed?); reconnect the account');
  return opened;
}

/** Any secret value (a PKCE verifier, accounts awaiting a choice) sealed under the same key. */
export function sealValue(value: string): string {
  return seal(key(), value);
}

export function openValue(sealed: string): string | null {
  return open(key(), sealed);
}
