import { describe, expect, it } from 'vitest';
import { checkOutboundUrl, isPublicAddress, parseAllowList } from './address-policy';

const none = parseAllowList([]);

describe('checkOutboundUrl', () => {
  it.each([
    ['not a url', 'invalid_url'],
    ['http://example.com/hook', 'not_https'],
    ['ftp://example.com/file', 'not_https'],
    ['https://user:secret@example.com/hook', 'credentials_in_url'],
    ['https://user@example.com/hook', 'credentials_in_url'],
    ['https://localhost/hook', 'localhost'],
    ['https://LOCALHOST./hook', 'localhost'],
    ['https://api.localhost/hook', 'localhost'],
  ])('refuses %s (%s)', (url, code) => {
    expect(checkOutboundUrl(url, none)).toMatchObject({ ok: false, code });
  });

  it.each([
    ['https://127.0.0.1/', 'loopback'],
    ['https://127.8.9.10/', 'loopback range'],
    ['https://2130706433/', 'loopback written as one number'],
    ['https://0x7f.1/', 'loopback written in hex'],
    ['https://10.1.2.3/', 'private'],
    ['https://172.16.5.4/', 'private'],
    ['https://192.168.1.1/', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'link-local (cloud metadata)'],
    ['https://100.64.0.1/', 'carrier-grade NAT'],
    ['https://0.0.0.0/', 'unspecified'],
    ['https://224.0.0.1/', 'multicast'],
    ['https://255.255.255.255/', 'broadcast'],
    ['https://192.0.2.10/', 'documentation'],
    ['https://[::1]/', 'IPv6 loopback'],
    ['https://[::]/', 'IPv6 unspecified'],
    ['https://[fe80::1]/', 'IPv6 link-local'],
    ['https://[fc00::1]/', 'IPv6 unique-local'],
    ['https://[fd12:3456::1]/', 'IPv6 unique-local'],
    ['https://[ff02::1]/', 'IPv6 multicast'],
    ['https://[::ffff:127.0.0.1]/', 'IPv4-mapped loopback'],
    ['https://[::ffff:10.0.0.1]/', 'IPv4-mapped private'],
    ['https://[::ffff:7f00:1]/', 'IPv4-mapped loopback in hex'],
    ['https://[::7f00:1]/', 'IPv4-compatible loopback'],
    ['https://[64:ff9b::a00:1]/', 'NAT64'],
  ])('refuses the IP literal in %s (%s)', (url) => {
    expect(checkOutboundUrl(url, none)).toMatchObject({ ok: false, code: 'private_address' });
  });

  it.each(['https://example.com/hook', 'https://8.8.8.8/', 'https://[2606:4700:4700::1111]/', 'https://hooks.example.com:8443/x?y=1'])('accepts %s', (url) => {
    const result = checkOutboundUrl(url, none);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.url.href).toBe(new URL(url).href);
  });

  it('gives a human reason', () => {
    const result = checkOutboundUrl('http://example.com', none);
    expect(result).toEqual({ ok: false, code: 'not_https', reason: 'Only https URLs are allowed.' });
  });

  it('lets allowed hosts skip the private-address rule but never https or credentials', () => {
    const allow = parseAllowList(['receiver.test', '127.0.0.1', 'localhost', '[::1]']);
    expect(checkOutboundUrl('https://receiver.test/', allow).ok).toBe(true);
    expect(checkOutboundUrl('https://127.0.0.1:8443/', allow).ok).toBe(true);
    expect(checkOutboundUrl('https://[::ffff:127.0.0.1]/', allow).ok).toBe(true);
    expect(checkOutboundUrl('https://[::1]/', allow).ok).toBe(true);
    expect(checkOutboundUrl('https://localhost/', allow).ok).toBe(true);
    expect(checkOutboundUrl('http://receiver.test/', allow)).toMatchObject({ ok: false, code: 'not_https' });
    expect(checkOutboundUrl('https://a:b@receiver.test/', allow)).toMatchObject({ ok: false, code: 'credentials_in_url' });
    expect(checkOutboundUrl('https://10.0.0.1/', allow)).toMatchObject({ ok: false, code: 'private_address' });
  });

  it('reads OUTBOUND_ALLOW_HOSTS by default', () => {
    const before = process.env.OUTBOUND_ALLOW_HOSTS;
    try {
      process.env.OUTBOUND_ALLOW_HOSTS = ' Receiver.Test. , 10.0.0.7 ';
      expect(checkOutboundUrl('https://receiver.test/').ok).toBe(true);
      expect(checkOutboundUrl('https://10.0.0.7/').ok).toBe(true);
      expect(checkOutboundUrl('https://10.0.0.8/').ok).toBe(false);
    } finally {
      if (before === undefined) delete process.env.OUTBOUND_ALLOW_HOSTS;
      else process.env.OUTBOUND_ALLOW_HOSTS = before;
    }
  });
});

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8'])('%s is public', (ip) =>
    expect(isPublicAddress(ip)).toBe(true),
  );
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.0.1',
    '0.0.0.0',
    '100.100.0.1',
    '198.18.0.1',
    '240.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'ff00::1',
    '::ffff:127.0.0.1',
    '::ffff:192.168.1.1',
    '2001:db8::1',
    'not-an-ip',
  ])('%s is not public', (ip) => expect(isPublicAddress(ip)).toBe(false));
});
