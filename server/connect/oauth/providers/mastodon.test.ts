// Connecting a Mastodon account on any server: app registration (https://docs.joinmastodon.org/methods/apps/#create),
// OAuth with PKCE (https://docs.joinmastodon.org/methods/oauth/), the account
// (https://docs.joinmastodon.org/methods/accounts/#verify_credentials) and the server's limits
// (https://docs.joinmastodon.org/methods/instance/#v2), against a local fake.
import { describe, expect, it } from 'vitest';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { instanceOrigin } from '@/server/platforms/mastodon/mastodon-api';
import { OAuthFlowError } from '../oauth-provider';
import { mastodonOAuth } from './mastodon';

const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/mastodon`, name);
const platform = useFakePlatformApi();
const REDIRECT = 'https://herald.example/connect/callback/mastodon';

describe('Mastodon', () => {
  it('registers Herald on the server and uses that server’s endpoints', async () => {
    platform.on('POST', '/api/v1/apps', { json: f('app-registered') });
    const app = await mastodonOAuth.instance!.registerApp(platform.fetch, platform.baseUrl, REDIRECT);
    expect(app).toEqual({
      clientId: 'TWhM-tNSuncnqN7DBJmoyeLnk6K3iJJ71KKXxgL1hPM',
      clientSecret: 'ZEaFUFmF0umgBX1qKJDjaU99Q31lDkOU8NutzTOoliw',
      authorizeUrl: `${platform.baseUrl}/oauth/authorize`,
      tokenUrl: `${platform.baseUrl}/oauth/token`,
      apiBaseUrl: platform.baseUrl,
    });
    expect(platform.calls('POST', '/api/v1/apps')[0]!.json()).toMatchObject({
      client_name: 'Herald',
      redirect_uris: REDIRECT,
      scopes: 'read:accounts read:statuses write:statuses write:media',
    });

    const url = new URL(mastodonOAuth.authorizeUrl({ app, state: 's', redirectUri: REDIRECT, codeChallenge: 'challenge' }));
    expect(url.pathname).toBe('/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: REDIRECT,
      scope: 'read:accounts read:statuses write:statuses write:media',
      state: 's',
      code_challenge: 'challenge',
      code_challenge_method: 'S256',
    });
  });

  it('exchanges the code with the verifier, reads the account and the server’s limits', async () => {
    platform.on('POST', '/oauth/token', { json: f('token') });
    platform.on('GET', '/api/v1/accounts/verify_credentials', { json: f('verify-credentials') });
    platform.on('GET', '/api/v2/instance', { json: f('instance') });
    const app = { clientId: 'cid', clientSecret: 'csecret', authorizeUrl: '', tokenUrl: `${platform.baseUrl}/oauth/token`, apiBaseUrl: platform.baseUrl };
    const [account] = await mastodonOAuth.connect(platform.fetch, { app, code: 'c0de', redirectUri: REDIRECT, codeVerifier: 'verifier' });
    const host = new URL(platform.baseUrl).host;
    expect(account).toEqual({
      externalId: `14715@${host}`,
      accountName: `@heraldcoffee@${host}`,
      displayName: 'Herald Coffee',
      avatarUrl: 'https://files.mastodon.example/accounts/avatars/000/014/715/original/34aa222f4ae2e0a9.png',
      accessToken: 'ZA-Yj3aBD8U8Cm7lKUp-lm9O9BmDgdhHzDeqsY8tlL0',
      refreshToken: null,
      expiresAt: null,
      scopes: 'read:accounts write:statuses write:media',
      platformData: {
        instanceUrl: platform.baseUrl,
        accountId: '14715',
        profileUrl: 'https://mastodon.example/@heraldcoffee',
        maxChars: 1000,
        maxMedia: 4,
        imageSizeLimit: 16777216,
        videoSizeLimit: 103809024,
      },
    });
    expect(Object.fromEntries(platform.calls('POST', '/oauth/token')[0]!.form())).toEqual({
      grant_type: 'authorization_code',
      code: 'c0de',
      client_id: 'cid',
      client_secret: 'csecret',
      redirect_uri: REDIRECT,
      scope: 'read:accounts read:statuses write:statuses write:media',
      code_verifier: 'verifier',
    });
    expect(platform.calls('GET', '/api/v2/instance')[0]!.headers.authorization).toBe('Bearer ZA-Yj3aBD8U8Cm7lKUp-lm9O9BmDgdhHzDeqsY8tlL0');
  });

  it('turns a refused code into a readable message', async () => {
    platform.on('POST', '/oauth/token', { status: 400, json: f('token-refused') });
    const app = { clientId: 'cid', clientSecret: 'csecret', authorizeUrl: '', tokenUrl: `${platform.baseUrl}/oauth/token`, apiBaseUrl: platform.baseUrl };
    const error = await mastodonOAuth.connect(platform.fetch, { app, code: 'used', redirectUri: REDIRECT, codeVerifier: 'v' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toMatch(/^Mastodon did not accept the sign-in \(The provided authorization grant is invalid/);
  });

  it('reads a server address the way clients type it, and refuses what is not one', async () => {
    expect(instanceOrigin('mastodon.social')).toBe('https://mastodon.social');
    expect(instanceOrigin('https://Mastodon.Social/about')).toBe('https://mastodon.social');
    expect(instanceOrigin('@me@fosstodon.org')).toBe('https://fosstodon.org');
    expect(instanceOrigin('not a server')).toBeNull();
    await expect(mastodonOAuth.instance!.registerApp(platform.fetch, 'not a server', REDIRECT)).rejects.toBeInstanceOf(OAuthFlowError);
  });
});
