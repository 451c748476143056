// Signing secrets: their form, sealing at rest, and what a wrong or missing key does.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkConfiguration } from '@/server/config/env';
import { generateSigningSecret, openSecret, sealSecret, signPayload } from './secrets';

afterEach(() => vi.unstubAllEnvs());

describe('webhook signing secrets', () => {
  it('are whsec_ and 64 lower-case hex characters, never twice the same', () => {
    const a = generateSigningSecret();
    expect(a).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(generateSigningSecret()).not.toBe(a);
  });

  it('seal to a different text each time and open to the secret', () => {
    const secret = generateSigningSecret();
    const one = sealSecret(secret);
    const two = sealSecret(secret);
    expect(one).not.toBe(two);
    expect(one).not.toContain(secret.slice(6));
    expect(openSecret(one)).toBe(secret);
    expect(openSecret(two)).toBe(secret);
  });

  it('refuse to open when tampered with or under another key', () => {
    const sealed = sealSecret(generateSigningSecret());
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3]!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => openSecret([...parts.slice(0, 3), flipped.toString('base64url')].join('.'))).toThrow(/cannot be opened/);
    expect(() => openSecret('v0.a.b.c')).toThrow(/Unreadable/);
    vi.stubEnv('WEBHOOK_SECRET_KEY', 'another-key-another-key-another-key!');
    expect(() => openSecret(sealed)).toThrow(/WEBHOOK_SECRET_KEY/);
  });

  it('need WEBHOOK_SECRET_KEY, at least 32 characters', () => {
    vi.stubEnv('WEBHOOK_SECRET_KEY', '');
    expect(() => sealSecret('whsec_x')).toThrow(/WEBHOOK_SECRET_KEY is not set/);
    vi.stubEnv('WEBHOOK_SECRET_KEY', 'too-short');
    expect(() => checkConfiguration()).toThrow(/WEBHOOK_SECRET_KEY must be at least 32 characters/);
  });

  it('sign with HMAC-SHA256 keyed by the whole secret, lower-case hex', () => {
    // The expected value comes from `printf '{"a":1}' | openssl dgst -sha256 -hmac whsec_test`.
    expect(signPayload('whsec_test', '{"a":1}')).toBe('51426af50a41dd7ff2cd3f116594734766d4018d15d6fb07169aee5d2959adf5');
    expect(signPayload('whsec_test', Buffer.from('{"a":1}'))).toBe(signPayload('whsec_test', '{"a":1}'));
  });
});
