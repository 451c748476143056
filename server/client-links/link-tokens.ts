// Client-link and connect-session tokens: 256 random bits, base64url, stored only as their
// sha256 (a fast hash is right for tokens this long: there is nothing to guess).
import { createHash, randomBytes } from 'node:crypto';

export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Tokens Herald issued look like this; anything else is refused without a lookup. */
export function isWellFormedLinkToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}
