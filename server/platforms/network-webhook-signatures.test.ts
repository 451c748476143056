// Each network's webhook proof, checked against values computed here the way each network's
// page describes them, and against forged, tampered and malformed input (refused, never thrown).
//   https://developers.facebook.com/docs/graph-api/webhooks/getting-started#validate-payloads
//   https://docs.x.com/x-api/webhooks/introduction (challenge-response checks)
//   https://cloud.google.com/pubsub/docs/push
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { googlePushTokenValid, metaSignatureValid, metaVerifyChallenge, xCrcResponse, xSignatureValid } from './network-webhook-signatures';

const APP_SECRET = 'a3c1f0e8d4b2a6c9e7f5d3b1a9c7e5f3';
const body = Buffer.from(JSON.stringify({ object: 'page', entry: [{ id: '546349135390552', time: 1764065115, changes: [] }] }));
const hex = (key: string, data: string | Buffer) => createHmac('sha256', key).update(data).digest('hex');
const b64 = (key: string, data: string | Buffer) => createHmac('sha256', key).update(data).digest('base64');

describe('Meta payload signature', () => {
  const header = `sha256=${hex(APP_SECRET, body)}`;

  it('accepts the HMAC of the exact bytes with the app secret, in either case of hex', () => {
    expect(metaSignatureValid(body, header, APP_SECRET)).toBe(true);
    expect(metaSignatureValid(body, `sha256=${hex(APP_SECRET, body).toUpperCase()}`, APP_SECRET)).toBe(true);
  });

  it('refuses another secret, a tampered body and a missing or malformed header', () => {
    expect(metaSignatureValid(body, header, 'another-app-secret')).toBe(false);
    expect(metaSignatureValid(Buffer.concat([body, Buffer.from(' ')]), header, APP_SECRET)).toBe(false);
    expect(metaSignatureValid(Buffer.from(body.toString().replace('1764065115', '1764065116')), header, APP_SECRET)).toBe(false);
    for (const bad of [
      null,
      '',
      'sha256=',
      hex(APP_SECRET, body),
      `sha1=${hex(APP_SECRET, body)}`,
      `sha256=${hex(APP_SECRET, body).slice(0, 62)}`,
      `sha256=${hex(APP_SECRET, body)}00`,
      `sha256=${'z'.repeat(64)}`,
      `sha256=${b64(APP_SECRET, body)}`,
      `sha256=${hex(APP_SECRET, body)},sha256=${hex(APP_SECRET, body)}`,
    ]) {
      expect(metaSignatureValid(body, bad, APP_SECRET)).toBe(false);
    }
  });

  it('verifies nothing without a secret, and never throws on what is not a body', () => {
    expect(metaSignatureValid(body, `sha256=${hex('', body)}`, '')).toBe(false);
    expect(metaSignatureValid('text' as unknown as Buffer, header, APP_SECRET)).toBe(false);
    expect(metaSignatureValid(body, 42 as unknown as string, APP_SECRET)).toBe(false);
  });
});

describe('Meta verification request', () => {
  const query = (params: Record<string, string>) => new URLSearchParams(params);

  it('echoes the challenge for a subscription with Herald’s verify token', () => {
    expect(
      metaVerifyChallenge(query({ 'hub.mode': 'subscribe', 'hub.challenge': '1158201444', 'hub.verify_token': 'herald-meta-verify' }), 'herald-meta-verify'),
    ).toBe('1158201444');
  });

  it('refuses another token, another mode, a missing challenge and an unset token', () => {
    const ok = { 'hub.mode': 'subscribe', 'hub.challenge': '1158201444', 'hub.verify_token': 'herald-meta-verify' };
    expect(metaVerifyChallenge(query({ ...ok, 'hub.verify_token': 'herald-meta-verifx' }), 'herald-meta-verify')).toBeNull();
    expect(metaVerifyChallenge(query({ ...ok, 'hub.verify_token': 'herald-meta-verify-and-more' }), 'herald-meta-verify')).toBeNull();
    expect(metaVerifyChallenge(query({ ...ok, 'hub.mode': 'unsubscribe' }), 'herald-meta-verify')).toBeNull();
    const { 'hub.challenge': _challenge, ...noChallenge } = ok;
    expect(metaVerifyChallenge(query(noChallenge), 'herald-meta-verify')).toBeNull();
    const { 'hub.verify_token': _token, ...noToken } = ok;
    expect(metaVerifyChallenge(query(noToken), 'herald-meta-verify')).toBeNull();
    expect(metaVerifyChallenge(query({ ...ok, 'hub.verify_token': '' }), '')).toBeNull();
    expect(metaVerifyChallenge(new URLSearchParams(), 'herald-meta-verify')).toBeNull();
  });
});

describe('X webhooks', () => {
  const CONSUMER_SECRET = 'z3ZX4v7mAAUGykl3EcmkqbartmuW8VFOOzCloLx9Q45P0hLrFu';

  it('answers the challenge-response check with the base64 HMAC of the token', () => {
    const token = '9b4507b3-9040-4669-9ca3-6b94edb50553';
    expect(xCrcResponse(token, CONSUMER_SECRET)).toBe(`sha256=${b64(CONSUMER_SECRET, token)}`);
    expect(xCrcResponse(token, CONSUMER_SECRET)).toMatch(/^sha256=[A-Za-z0-9+/]{43}=$/);
  });

  it('accepts a body signed with the consumer secret and refuses anything else', () => {
    const events = Buffer.from(JSON.stringify({ for_user_id: '2244994945', direct_message_events: [] }));
    const header = `sha256=${b64(CONSUMER_SECRET, events)}`;
    expect(xSignatureValid(events, header, CONSUMER_SECRET)).toBe(true);
    expect(xSignatureValid(events, header, 'another-consumer-secret')).toBe(false);
    expect(xSignatureValid(Buffer.from(events.toString().replace('2244994945', '2244994946')), header, CONSUMER_SECRET)).toBe(false);
    expect(xSignatureValid(events, header, '')).toBe(false);
    for (const bad of [null, '', 'sha256=', b64(CONSUMER_SECRET, events), `sha256=${hex(CONSUMER_SECRET, events)}`, `${header}AA`, 'sha256=====']) {
      expect(xSignatureValid(events, bad, CONSUMER_SECRET)).toBe(false);
    }
  });
});

describe('Google Pub/Sub push token', () => {
  const TOKEN = 'pubsub-verification-7f3a9c';
  it('accepts the configured token and nothing else', () => {
    expect(googlePushTokenValid(new URL(`https://herald.example/hooks/google?token=${TOKEN}`), TOKEN)).toBe(true);
    expect(googlePushTokenValid(new URL(`https://herald.example/hooks/google?token=${TOKEN}x`), TOKEN)).toBe(false);
    expect(googlePushTokenValid(new URL('https://herald.example/hooks/google?token=pubsub'), TOKEN)).toBe(false);
    expect(googlePushTokenValid(new URL('https://herald.example/hooks/google'), TOKEN)).toBe(false);
    expect(googlePushTokenValid(new URL(`https://herald.example/hooks/google?token=${TOKEN}&token=other`), TOKEN)).toBe(false);
    expect(googlePushTokenValid(new URL('https://herald.example/hooks/google?token='), '')).toBe(false);
    expect(googlePushTokenValid('https://herald.example/hooks/google' as unknown as URL, TOKEN)).toBe(false);
  });
});
