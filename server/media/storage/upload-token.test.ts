// Signed upload URLs of the local store: bound to key, type, length and expiry.
import { describe, expect, it } from 'vitest';
import { createUploadToken, verifyUploadToken } from './upload-token';

const grant = { key: 'ws/asset.png', contentType: 'image/png', bytes: 1234, expiresAt: new Date(Date.now() + 60_000) };

describe('upload tokens', () => {
  it('round-trips a grant', () => {
    const check = verifyUploadToken('s3cret', createUploadToken('s3cret', grant));
    expect(check.ok).toBe(true);
    if (check.ok) expect(check.grant).toMatchObject({ key: grant.key, contentType: 'image/png', bytes: 1234 });
  });

  it('refuses a token signed with another secret', () => {
    expect(verifyUploadToken('other', createUploadToken('s3cret', grant))).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses any change to the payload', () => {
    const token = createUploadToken('s3cret', grant);
    const [payload, signature] = token.split('.') as [string, string];
    const changed = JSON.parse(Buffer.from(payload, 'base64url').toString());
    for (const edit of [{ n: 99_999 }, { t: 'image/gif' }, { k: 'ws/other.png' }, { e: changed.e + 3600 }]) {
      const forged = `${Buffer.from(JSON.stringify({ ...changed, ...edit })).toString('base64url')}.${signature}`;
      expect(verifyUploadToken('s3cret', forged)).toEqual({ ok: false, reason: 'bad_signature' });
    }
    expect(verifyUploadToken('s3cret', `${payload}.${signature.slice(0, -2)}AA`).ok).toBe(false);
  });

  it('refuses an expired token, and garbage', () => {
    const expired = createUploadToken('s3cret', { ...grant, expiresAt: new Date(Date.now() - 1000) });
    expect(verifyUploadToken('s3cret', expired)).toMatchObject({ ok: false, reason: 'expired' });
    for (const junk of ['', 'abc', 'a.b.c', '../../etc/passwd']) expect(verifyUploadToken('s3cret', junk)).toEqual({ ok: false, reason: 'malformed' });
  });
});
