// RFC 6238 Appendix B's test vectors (SHA-1, SHA-256, SHA-512; 8 digits), and the rules
// around a code: drift of one step either side, six digits, base32 both ways.
import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, generateTotpSecret, matchTotp, otpauthUri, totpCode, totpStep } from './totp';

const seed = (n: number) => base32Encode(Buffer.from('1234567890'.repeat(7).slice(0, n)));

describe('TOTP (RFC 6238)', () => {
  it.each([
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ])('at %i s: %s / %s / %s', (t, sha1, sha256, sha512) => {
    const step = Math.floor(t / 30);
    expect(totpCode(seed(20), step, 8, 'sha1')).toBe(sha1);
    expect(totpCode(seed(32), step, 8, 'sha256')).toBe(sha256);
    expect(totpCode(seed(64), step, 8, 'sha512')).toBe(sha512);
  });

  it('accepts the code of now and of one step either side, nothing further, and only six digits', () => {
    const secret = generateTotpSecret();
    const at = new Date('2026-11-25T12:00:10Z');
    const now = totpStep(at);
    expect(matchTotp(secret, totpCode(secret, now), at)).toBe(now);
    expect(matchTotp(secret, totpCode(secret, now - 1), at)).toBe(now - 1);
    expect(matchTotp(secret, totpCode(secret, now + 1), at)).toBe(now + 1);
    expect(matchTotp(secret, totpCode(secret, now - 2), at)).toBeNull();
    expect(matchTotp(secret, `${totpCode(secret, now).slice(0, 3)} ${totpCode(secret, now).slice(3)}`, at)).toBe(now);
    expect(matchTotp(secret, 'abcdef', at)).toBeNull();
  });

  it('writes secrets authenticator apps read: 160 bits of base32, in an otpauth:// URI', () => {
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(base32Decode(base32Encode(Buffer.from('hello')))).toEqual(Buffer.from('hello'));
    const text = otpauthUri({ secret, account: 'owner@agency.example', issuer: 'Herald' });
    expect(text.startsWith('otpauth://totp/Herald:owner%40agency.example?')).toBe(true);
    const uri = new URL(text);
    expect(Object.fromEntries(uri.searchParams)).toEqual({ secret, issuer: 'Herald', algorithm: 'SHA1', digits: '6', period: '30' });
  });
});
