// Connecting a self-hosted WordPress site with an application password: GET
// /wp-json/wp/v2/users/me?context=edit as HTTP Basic (https://developer.wordpress.org/rest-api/reference/users/#retrieve-a-user,
// https://developer.wordpress.org/rest-api/using-the-rest-api/authentication/#basic-authentication-with-application-passwords)
// and the index GET /wp-json/ for the site's name, against a local fake.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { wordpressCredentials } from './wordpress';

const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/wordpress`, name);
const platform = useFakePlatformApi();
const PASSWORD = 'abcd EFGH ijkl MNOP qrst UVWX';
// The fake site lives on 127.0.0.1, which the outbound guard refuses unless allowed.
beforeEach(() => vi.stubEnv('OUTBOUND_ALLOW_HOSTS', '127.0.0.1'));
afterEach(() => vi.unstubAllEnvs());

describe('WordPress connect', () => {
  it('checks the password against the site and keeps it, with the site’s address and the username', async () => {
    platform.on('GET', '/blog/wp-json/wp/v2/users/me', { json: f('users-me') });
    platform.on('GET', '/blog/wp-json/', { json: f('index') });
    const [account] = await wordpressCredentials.connect(platform.fetch, {
      siteUrl: `${platform.baseUrl}/blog/`,
      username: ' heraldeditor ',
      applicationPassword: ` ${PASSWORD} `,
    });
    const host = new URL(platform.baseUrl).host;
    expect(account).toEqual({
      externalId: `${host}/blog#3`,
      accountName: host,
      displayName: 'Herald Coffee Blog',
      avatarUrl: 'https://secure.gravatar.com/avatar/5f2c?s=96&d=mm&r=g',
      accessToken: PASSWORD,
      refreshToken: null,
      expiresAt: null,
      scopes: null,
      platformData: { siteUrl: `${platform.baseUrl}/blog`, username: 'heraldeditor', userId: '3' },
    });
    const [me] = platform.calls('GET', '/blog/wp-json/wp/v2/users/me');
    expect(me!.query.get('context')).toBe('edit');
    expect(me!.headers.authorization).toBe(`Basic ${Buffer.from(`heraldeditor:${PASSWORD}`).toString('base64')}`);
  });

  it('turns a refused password into a readable message, in WordPress’s words', async () => {
    platform.on('GET', '/wp-json/wp/v2/users/me', { status: 401, json: f('error-invalid-password') });
    const error = await wordpressCredentials
      .connect(platform.fetch, { siteUrl: platform.baseUrl, username: 'heraldeditor', applicationPassword: 'wrong' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe(
      'WordPress did not accept the username and application password (The provided password is an invalid application password.). Check the site’s address and both values.',
    );
  });

  it('refuses a user who cannot write posts', async () => {
    platform.on('GET', '/wp-json/wp/v2/users/me', { json: { ...f('users-me'), capabilities: { read: true, edit_posts: false } } });
    await expect(
      wordpressCredentials.connect(platform.fetch, { siteUrl: platform.baseUrl, username: 'reader', applicationPassword: PASSWORD }),
    ).rejects.toThrow(`The WordPress user reader cannot write posts on ${new URL(platform.baseUrl).host}.`);
  });

  it('refuses an address the outbound guard refuses, and missing credentials, before any call', async () => {
    vi.stubEnv('OUTBOUND_ALLOW_HOSTS', '');
    await expect(wordpressCredentials.connect(platform.fetch, { siteUrl: 'https://10.0.0.8', username: 'a', applicationPassword: 'b' })).rejects.toThrow(
      'The address 10.0.0.8 is private or reserved, not a public internet address.',
    );
    await expect(wordpressCredentials.connect(platform.fetch, { siteUrl: 'http://blog.example.com', username: 'a', applicationPassword: 'b' })).rejects.toThrow(
      'Only https URLs are allowed.',
    );
    await expect(wordpressCredentials.connect(platform.fetch, { siteUrl: 'blog.example.com', username: 'a', applicationPassword: ' ' })).rejects.toThrow(
      'Enter the username and the application password you created for Herald.',
    );
    expect(platform.requests).toHaveLength(0);
  });
});
