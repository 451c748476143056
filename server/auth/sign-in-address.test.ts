// The sign-in page says when the browser opened Herald at another address than the one
// configured; local addresses of one port are the same place.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signInAddressMismatch } from './sign-in-address';

afterEach(() => vi.unstubAllEnvs());

describe('signInAddressMismatch', () => {
  it('is silent when nothing is configured (the local default follows the address opened)', () => {
    vi.stubEnv('HERALD_BASE_URL', '');
    vi.stubEnv('AUTH_URL', '');
    expect(signInAddressMismatch('10.0.0.5:3000', null)).toBeNull();
  });
  it('treats localhost, 127.0.0.1 and [::1] on one port as one place', () => {
    vi.stubEnv('HERALD_BASE_URL', 'http://localhost:3000');
    expect(signInAddressMismatch('127.0.0.1:3000', null)).toBeNull();
    expect(signInAddressMismatch('[::1]:3000', 'http')).toBeNull();
    expect(signInAddressMismatch('127.0.0.1:3001', null)).toEqual({ configured: 'http://localhost:3000', opened: 'http://127.0.0.1:3001' });
  });
  it('names both addresses when a configured public address is opened elsewhere', () => {
    vi.stubEnv('HERALD_BASE_URL', 'https://herald.example.com/');
    expect(signInAddressMismatch('herald.example.com', 'https')).toBeNull();
    expect(signInAddressMismatch('203.0.113.7:3000', null)).toEqual({ configured: 'https://herald.example.com', opened: 'http://203.0.113.7:3000' });
    expect(signInAddressMismatch('herald.example.com', 'http')).toEqual({ configured: 'https://herald.example.com', opened: 'http://herald.example.com' });
  });
});
