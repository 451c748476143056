// Webhook signing secrets: generated, sealed at rest, and used to sign.
//
// Herald must sign every delivery with the endpoint's secret, so the secret cannot be stored
// as a one-way hash like API keys are. It is sealed with AES-256-GCM under a key derived from
// WEBHOOK_SECRET_KEY (generated into DATA_DIR by `npm start` when unset): a database dump
// alone does not reveal any secret, and a tampered ciphertext fails to open.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { env } from '@/server/config/env';

const SECRET_PREFIX = 'whsec_';
const SEAL_VERSION = 'v1';

/** `whsec_` followed by 64 lower-case hex characters (256 random bits). */
export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('hex')}`;
}

let cachedKey: { raw: string; key: Buffer } | undefined;

function sealingKey(): Buffer {
  const raw = env.webhookSecretKey();
  if (!raw) {
    throw new Error('WEBHOOK_SECRET_KEY is not set: `npm start` generates one into DATA_DIR; set it wherever Herald runs without `npm start`');
  }
  if (cachedKey?.raw !== raw) cachedKey = { raw, key: createHash('sha256').update(`herald/webhook-secrets\0${raw}`).digest() };
  return cachedKey.key;
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function sealSecret(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [SEAL_VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

export function openSecret(sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== SEAL_VERSION || !iv || !tag || data === undefined) throw new Error('Unreadable sealed webhook secret');
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('The webhook secret cannot be opened with this WEBHOOK_SECRET_KEY (was the key changed?); rotate the endpoint secret');
  }
}

/** The X-Service-Signature value: lower-case hex HMAC-SHA256 of the exact body bytes, keyed with the whole secret. */
export function signPayload(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}
