// The browser-safe URL rules: the same verdicts as Node's own IP parsing, so the app's
// as-you-type check and the server's registration check cannot disagree.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { allowListOf, checkUrlShape, EMPTY_ALLOW_LIST, isIpLiteral } from './url-rules';

describe('isIpLiteral', () => {
  it('agrees with node:net on the spellings URLs and DNS answers produce', () => {
    const samples = [
      '127.0.0.1',
      '8.8.8.8',
      '255.255.255.255',
      '256.1.1.1',
      '1.2.3',
      '01.2.3.4',
      '0x7f.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '2001:db8::1',
      'fe80::1',
      'example.com',
      '',
      '1.2.3.4.5',
      '::ffff:7f00:1',
      '64:ff9b::1.2.3.4',
    ];
    for (const s of samples) expect(isIpLiteral(s), s).toBe(net.isIP(s) !== 0);
  });
});

describe('checkUrlShape', () => {
  it('refuses what the contract refuses, with the reason', () => {
    expect(checkUrlShape('http://hooks.example.com/x', EMPTY_ALLOW_LIST)).toMatchObject({ ok: false, code: 'not_https' });
    expect(checkUrlShape('https://u:p@hooks.example.com/x', EMPTY_ALLOW_LIST)).toMatchObject({ ok: false, code: 'credentials_in_url' });
    expect(checkUrlShape('https://api.localhost/x', EMPTY_ALLOW_LIST)).toMatchObject({ ok: false, code: 'localhost' });
    expect(checkUrlShape('https://0x7f.1/x', EMPTY_ALLOW_LIST)).toMatchObject({ ok: false, code: 'private_address' });
    expect(checkUrlShape('https://[::ffff:10.0.0.1]/x', EMPTY_ALLOW_LIST)).toMatchObject({ ok: false, code: 'private_address' });
    expect(checkUrlShape('not a url', EMPTY_ALLOW_LIST)).toMatchObject({ ok: false, code: 'invalid_url' });
    expect(checkUrlShape('https://hooks.example.com/x', EMPTY_ALLOW_LIST)).toMatchObject({ ok: true });
  });

  it('lets an allow-listed host through the private-address rule, never through https', () => {
    const allow = allowListOf(['127.0.0.1']);
    expect(checkUrlShape('https://127.0.0.1:8443/hook', allow)).toMatchObject({ ok: true });
    expect(checkUrlShape('http://127.0.0.1:8443/hook', allow)).toMatchObject({ ok: false, code: 'not_https' });
  });
});
