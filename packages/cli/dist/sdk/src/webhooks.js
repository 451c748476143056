// Verifies a webhook delivery as Herald signs it (docs/webhooks.md): X-Service-Signature is
// the lower-case hex HMAC-SHA256 of the raw body, keyed with the endpoint's whole `whsec_…`
// secret. Checked over the bytes received, before parsing, in constant time (Web Crypto's
// HMAC verify); several secrets are tried, for the time a rotation takes to reach every
// receiver. The signed body's `timestamp` can be held to a maximum age.
import { webCrypto } from './crypto.js';
export const SIGNATURE_HEADER = 'X-Service-Signature';
export const EVENT_HEADER = 'X-Service-Event';
export const DELIVERY_HEADER = 'X-Service-Delivery';
export class WebhookVerificationError extends Error {
    reason;
    name = 'WebhookVerificationError';
    constructor(reason, message) {
        super(message);
        this.reason = reason;
    }
}
function header(headers, name) {
    if (typeof headers.get === 'function')
        return headers.get(name) ?? undefined;
    const lower = name.toLowerCase();
    for (const [key, value] of Object.entries(headers)) {
        if (key.toLowerCase() === lower)
            return Array.isArray(value) ? value[0] : value;
    }
    return undefined;
}
function bytesOf(body) {
    if (typeof body === 'string')
        return new TextEncoder().encode(body);
    return body instanceof Uint8Array ? body : new Uint8Array(body);
}
/**
 * The delivery's event, once its signature matches one of `secret` (and, when asked, its
 * timestamp is recent); otherwise throws WebhookVerificationError. Pass the raw body, as
 * received: a re-serialised object has other bytes and fails.
 */
export async function verifyWebhook(rawBody, headers, secret, options = {}) {
    const received = (header(headers, SIGNATURE_HEADER) ?? '').trim().toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(received))
        throw new WebhookVerificationError('SIGNATURE_MISSING', `${SIGNATURE_HEADER} is missing or not 64 hex characters`);
    const signature = new Uint8Array(32);
    for (let i = 0; i < 32; i++)
        signature[i] = parseInt(received.slice(i * 2, i * 2 + 2), 16);
    const body = bytesOf(rawBody);
    const { subtle } = await webCrypto();
    const encoder = new TextEncoder();
    let matched = false;
    // Every secret is tried, so the time taken does not say which one matched.
    for (const candidate of typeof secret === 'string' ? [secret] : secret) {
        const key = await subtle.importKey('raw', encoder.encode(candidate), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
        if (await subtle.verify('HMAC', key, signature, body))
            matched = true;
    }
    if (!matched)
        throw new WebhookVerificationError('SIGNATURE_MISMATCH', 'The signature matches none of the secrets');
    let event;
    try {
        event = JSON.parse(new TextDecoder().decode(body));
    }
    catch {
        throw new WebhookVerificationError('BODY_NOT_JSON', 'The signed body is not JSON');
    }
    if (options.toleranceSeconds !== undefined) {
        const at = Date.parse(String(event.timestamp));
        const now = (options.now?.() ?? new Date()).getTime();
        if (Number.isNaN(at) || Math.abs(now - at) > options.toleranceSeconds * 1000) {
            throw new WebhookVerificationError('TIMESTAMP_OUT_OF_TOLERANCE', `The event's timestamp is more than ${options.toleranceSeconds} s from now`);
        }
    }
    return event;
}
