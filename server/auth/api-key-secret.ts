// Key material: `sk_live_` + 43 characters of base64url (256 random bits). The first 12
// characters after the marker form the public prefix used to find the row; only a sha256
// of the whole key is stored. A fast hash is right here: the secret is high-entropy, so
// there is nothing for a slow hash to protect against, and lookups stay sub-millisecond.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_MARKER = 'sk_live_';
const PREFIX_CHARS = 12;
const KEY_PATTERN = /^sk_live_[A-Za-z0-9_-]{43}$/;

export interface MintedSecret {
  secret: string;
  prefix: string;
  hash: string;
}

export function hashKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function generateKey(): MintedSecret {
  const secret = KEY_MARKER + randomBytes(32).toString('base64url');
  return { secret, prefix: prefixOf(secret), hash: hashKey(secret) };
}

export function prefixOf(secret: string): string {
  return secret.slice(0, KEY_MARKER.length + PREFIX_CHARS);
}

export function isWellFormedKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

/** Constant-time comparison of a presented key against a stored hash. */
export function keyMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashKey(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
