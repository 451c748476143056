// Webhook signing secrets: generated, sealed at rest, and used to sign.
//
// Herald must sign every delivery with the endpoint's secret, so the secret cannot be stored
// as a one-way hash like API keys are. It is sealed with AES-256-GCM under a key derived from
// WEBHOOK_SECRET_KEY (generated into DATA_DIR by `npm start` when unset): a database dump
// alone does not reveal any secret, and a tampered ciphertext fails to open.
import { createHmac, randomBytes } from 'node:crypto';
import { open, seal, sealingKeyFor } from '@/server/shared/sealed-box';
import { env } from '@/server/config/env';

const SECRET_PREFIX = 'whsec_';
let cachedKey: { raw: string; key: Buffer } | undefined;

function sealingKey(): Buffer {
  const raw = env.webhookSecretKey();
  if (!raw) {
    throw new Error('WEBHOOK_SECRET_KEY is not set: `npm start` generates one into DATA_DIR; set it wherever Herald runs without `npm start`');
  }
  if (cachedKey?.raw !== raw) cachedKey = { raw, key: sealingKeyFor('herald/webhook-secrets', raw) };
  return cachedKey.key;
}

/** Generated secrets are 256 random bits. */
export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('hex')}`;
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function sealSecret(secret: string): string {
  return seal(sealingKey(), secret);
}

export function openSecret(sealed: string): string {
  if (!sealed.startsWith('v1.') || sealed.split('.').length !== 4) throw new Error('Unreadable sealed webhook secret');
  const opened = open(sealingKey(), sealed);
  if (opened === null) {
    throw new Error('The webhook secret cannot be opened with this WEBHOOK_SECRET_KEY (was the key changed?); rotate the endpoint secret');
  }
  return opened;
}

/** The X-Service-Signature value: lower-case hex HMAC-SHA256 of the exact body bytes, keyed with the whole secret. */
export function signPayload(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}
