// Platform tokens at rest: sealed with a marker, opened back, tamper-evident, and rows from
// before sealing still readable.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openToken, openValue, sealToken, sealValue } from './token-sealing';

afterEach(() => vi.unstubAllEnvs());

describe('platform token sealing', () => {
  it('seals with a random IV and opens back; null stays null', () => {
    const a = sealToken('EAAB-page-token');
    const b = sealToken('EAAB-page-token');
    expect(a).toMatch(/^sealed:v1\./);
    expect(a).not.toBe(b);
    expect(a).not.toContain('EAAB-page-token');
    expect(openToken(a)).toBe('EAAB-page-token');
    expect(sealToken(null)).toBeNull();
    expect(openToken(null)).toBeNull();
  });

  it('reads a token stored before sealing as it is', () => {
    expect(openToken('legacy-plain-token')).toBe('legacy-plain-token');
  });

  it('refuses a tampered value and a changed key', () => {
    const sealed = sealToken('secret-token');
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => openToken(tampered)).toThrow(/cannot be opened/);
    vi.stubEnv('WEBHOOK_SECRET_KEY', 'a-different-sealing-key-of-enough-length!');
    expect(() => openToken(sealed)).toThrow(/reconnect the account/);
  });

  it('keeps its key apart from webhook secrets (another purpose label)', async () => {
    const { openSecret } = await import('@/server/webhooks/secrets');
    expect(() => openSecret(sealValue('x'))).toThrow();
    expect(openValue(sealValue('{"a":1}'))).toBe('{"a":1}');
  });
});
