// AES-256-GCM sealing for secrets Herald must be able to read again (webhook signing secrets,
// platform tokens). The key is derived from a deployment secret and a purpose label, so one
// deployment secret yields unrelated keys per purpose. Pure crypto: callers bring the secret.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const SEAL_VERSION = 'v1';

export function sealingKeyFor(purpose: string, secret: string): Buffer {
  return createHash('sha256').update(`${purpose}\0${secret}`).digest();
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function seal(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [SEAL_VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

/** The plaintext, or null when the value is not a sealed box or does not open with this key. */
export function open(key: Buffer, sealed: string): string | null {
  const [version, iv, tag, data, extra] = sealed.split('.');
  if (version !== SEAL_VERSION || !iv || !tag || data === undefined || extra !== undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
