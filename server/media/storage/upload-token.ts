// Presigned upload URLs of the local store: `/media/upload/<payload>.<signature>`.
// The payload names the object key (which embeds the asset id), the content type, the exact
// byte length and the expiry; the signature is HMAC-SHA256 over the encoded payload with a key
// derived from MEDIA_SIGNING_SECRET (or AUTH_SECRET), so nothing about the upload can be
// changed without the server's secret, and a URL stops working at its expiry.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { env } from '@/server/config/env';

export interface UploadGrant {
  key: string;
  contentType: string;
  bytes: number;
  expiresAt: Date;
}

interface Payload {
  v: 1;
  k: string;
  t: string;
  n: number;
  /** Expiry, Unix seconds. */
  e: number;
}

export type TokenCheck = { ok: true; grant: UploadGrant } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired'; grant?: UploadGrant };

/** The raw secret, or undefined when none is configured (the local store is then unavailable). */
export function mediaSigningSecret(): string | undefined {
  return env.mediaSigningSecret();
}

// A purpose-bound key, so the auth secret is never used as-is for a second job.
function signingKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('herald/media-upload-url/v1').digest();
}

function sign(secret: string, encodedPayload: string): string {
  return createHmac('sha256', signingKey(secret)).update(encodedPayload).digest('base64url');
}

export function createUploadToken(secret: string, grant: UploadGrant): string {
  const payload: Payload = { v: 1, k: grant.key, t: grant.contentType, n: grant.bytes, e: Math.floor(grant.expiresAt.getTime() / 1000) };
  const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${encoded}.${sign(secret, encoded)}`;
}

function decode(encoded: string): UploadGrant | null {
  try {
    const p = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Partial<Payload>;
    if (p.v !== 1 || typeof p.k !== 'string' || typeof p.t !== 'string' || !Number.isSafeInteger(p.n) || !Number.isSafeInteger(p.e)) return null;
    return { key: p.k, contentType: p.t, bytes: p.n!, expiresAt: new Date(p.e! * 1000) };
  } catch {
    return null;
  }
}

export function verifyUploadToken(secret: string, token: string, now = new Date()): TokenCheck {
  const match = /^([A-Za-z0-9_-]{1,2048})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { ok: false, reason: 'malformed' };
  const [, encoded, signature] = match as unknown as [string, string, string];
  const expected = Buffer.from(sign(secret, encoded));
  if (!timingSafeEqual(expected, Buffer.from(signature))) return { ok: false, reason: 'bad_signature' };
  const grant = decode(encoded);
  if (!grant) return { ok: false, reason: 'malformed' };
  if (grant.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired', grant };
  return { ok: true, grant };
}
