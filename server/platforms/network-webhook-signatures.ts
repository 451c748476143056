// How Herald knows a webhook delivery comes from the network it claims to: each network's proof,
// checked before a payload is read (facebook/meta-ratings-webhook.ts and the other parsers
// trust what passes here). Pure: no configuration is read here, the caller hands in the app
// secret or token; malformed input is a refusal (false, null), never an exception, and every
// comparison of a secret-derived value takes the same time whatever it is compared with.
//
// Sources:
//   Meta  https://developers.facebook.com/docs/graph-api/webhooks/getting-started#validate-payloads
//         X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw payload, keyed with the app
//         secret>. Verification request: GET ?hub.mode=subscribe&hub.challenge=…&hub.verify_token=…,
//         answered with the challenge when the token is the one configured in the app dashboard.
//   X     https://docs.x.com/x-api/webhooks/introduction (challenge-response checks, and
//         https://docs.x.com/x-api/webhooks/quickstart)
//         CRC: GET ?crc_token=…, answered { response_token: 'sha256=' + base64(HMAC-SHA256 of the
//         token, keyed with the consumer secret) }; each POST carries
//         x-twitter-webhooks-signature: sha256=<base64 HMAC-SHA256 of the body, same key>.
//         secret_token: "1-256 characters. Only characters A-Z, a-z, 0-9, _ and - are allowed",
//         sent back as X-Telegram-Bot-Api-Secret-Token on every update.
//   Google https://cloud.google.com/pubsub/docs/push (the push endpoint's URL is Herald's, with a
//         verification token in its query; Pub/Sub calls it as given).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

const hmac = (key: string, data: string | Buffer) => createHmac('sha256', key).update(data).digest();

/**
 * Whether two strings are equal, in a time that depends on neither: both are hashed first, so
 * neither their length nor where they differ shows.
 */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

/** Whether `digest` (32 bytes, or anything else from a hostile header) is the one expected. */
function sameDigest(digest: Buffer | null, expected: Buffer): boolean {
  return digest !== null && digest.length === expected.length && timingSafeEqual(digest, expected);
}

/** `sha256=<64 hex digits>` as the 32 bytes it spells; null for anything else. */
function hexSignature(header: string | null | undefined): Buffer | null {
  const match = typeof header === 'string' ? /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim()) : null;
  return match ? Buffer.from(match[1]!, 'hex') : null;
}

/** `sha256=<base64 of 32 bytes>` as those bytes; null for anything else. */
function base64Signature(header: string | null | undefined): Buffer | null {
  const match = typeof header === 'string' ? /^sha256=([A-Za-z0-9+/]{43}=)$/.exec(header.trim()) : null;
  return match ? Buffer.from(match[1]!, 'base64') : null;
}

/** Meta (Facebook, Instagram): whether X-Hub-Signature-256 signs exactly these bytes with the app secret. */
export function metaSignatureValid(rawBody: Buffer, header: string | null, appSecret: string): boolean {
  if (!appSecret || !Buffer.isBuffer(rawBody)) return false;
  return sameDigest(hexSignature(header), hmac(appSecret, rawBody));
}

/**
 * Meta's verification request when the webhook is set up: the challenge to echo back, or null
 * when it is not a subscription request with Herald's verify token (an unset token verifies nothing).
 */
export function metaVerifyChallenge(query: URLSearchParams, verifyToken: string): string | null {
  if (!verifyToken) return null;
  const challenge = query.get('hub.challenge');
  const token = query.get('hub.verify_token');
  if (query.get('hub.mode') !== 'subscribe' || !challenge || token === null) return null;
  return sameSecret(token, verifyToken) ? challenge : null;
}

/** X's challenge-response check: the `response_token` to answer `crc_token` with. */
export function xCrcResponse(crcToken: string, consumerSecret: string): string {
  return `sha256=${hmac(consumerSecret, crcToken).toString('base64')}`;
}

/** X: whether x-twitter-webhooks-signature signs exactly these bytes with the consumer secret. */
export function xSignatureValid(rawBody: Buffer, header: string | null, consumerSecret: string): boolean {
  if (!consumerSecret || !Buffer.isBuffer(rawBody)) return false;
  return sameDigest(base64Signature(header), hmac(consumerSecret, rawBody));
}

/** Google Pub/Sub push: whether the URL it called carries the verification token Herald configured. */
export function googlePushTokenValid(url: URL, expected: string): boolean {
  if (!expected || !(url instanceof URL)) return false;
  const given = url.searchParams.getAll('token');
  return given.length === 1 && sameSecret(given[0]!, expected);
}
