// Connecting a Ghost site with a custom integration's Admin API key: GET /ghost/api/admin/site/
// (https://docs.ghost.org/admin-api/#site) and a posts browse to prove the key, against a local fake.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { ghostCredentials } from './ghost';

const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/ghost`, name);
const platform = useFakePlatformApi();
const KEY = `6489f2a1c2b3d40001a1b2c3:${'c'.repeat(64)}`;
// The fake site lives on 127.0.0.1, which the outbound guard refuses unless allowed.
beforeEach(() => vi.stubEnv('OUTBOUND_ALLOW_HOSTS', '127.0.0.1'));
afterEach(() => vi.unstubAllEnvs());

describe('Ghost connect', () => {
  it('checks the key against the site and keeps it, with the site’s address', async () => {
    platform.on('GET', '/ghost/api/admin/site/', { json: f('site') });
    platform.on('GET', '/ghost/api/admin/posts/', { json: f('posts-browse') });
    const [account] = await ghostCredentials.connect(platform.fetch, { siteUrl: `${platform.baseUrl}/`, adminKey: ` ${KEY} ` });
    const host = new URL(platform.baseUrl).host;
    expect(account).toEqual({
      externalId: `${host}#6489f2a1c2b3d40001a1b2c3`,
      accountName: 'heraldcoffee.ghost.io',
      displayName: 'Herald Coffee Journal',
      avatarUrl: f('site').site.icon,
      accessToken: KEY,
      refreshToken: null,
      expiresAt: null,
      scopes: null,
      platformData: { siteUrl: platform.baseUrl, publicUrl: 'https://heraldcoffee.ghost.io' },
    });
    expect(String(platform.calls('GET', '/ghost/api/admin/posts/')[0]!.headers.authorization)).toMatch(/^Ghost [\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('turns a refused key into a readable message, in Ghost’s words', async () => {
    platform.on('GET', '/ghost/api/admin/site/', { json: f('site') });
    platform.on('GET', '/ghost/api/admin/posts/', { status: 401, json: f('error-unauthorized') });
    const error = await ghostCredentials.connect(platform.fetch, { siteUrl: platform.baseUrl, adminKey: KEY }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe('Ghost did not accept the Admin API key (Unknown Admin API Key). Check the site’s address and the key.');
  });

  it('refuses an address the outbound guard refuses, and a key not in Ghost’s form, before any call', async () => {
    vi.stubEnv('OUTBOUND_ALLOW_HOSTS', '');
    await expect(ghostCredentials.connect(platform.fetch, { siteUrl: 'https://10.0.0.8', adminKey: KEY })).rejects.toThrow(
      'The address 10.0.0.8 is private or reserved, not a public internet address.',
    );
    await expect(ghostCredentials.connect(platform.fetch, { siteUrl: 'http://blog.example.com', adminKey: KEY })).rejects.toThrow(
      'Only https URLs are allowed.',
    );
    await expect(ghostCredentials.connect(platform.fetch, { siteUrl: 'blog.example.com', adminKey: 'abc' })).rejects.toThrow(
      'Enter the Admin API key as Ghost shows it: 24 characters, a colon, then 64 characters.',
    );
    expect(platform.requests).toHaveLength(0);
  });
});
