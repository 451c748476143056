// The X, TikTok and Threads code exchanges and account reads, against a local HTTPS fake with
// each platform's documented shapes (LinkedIn and Meta run end to end in ../../oauth-flow.test.ts).
import { describe, expect, it } from 'vitest';
import type { OAuthApp } from '@/server/platforms/oauth-apps';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { OAuthFlowError } from '../oauth-provider';
import { threadsOAuth } from './threads';
import { tiktokOAuth } from './tiktok';
import { xOAuth } from './x';

const platform = useFakePlatformApi();
const REDIRECT = 'https://herald.example/connect/callback/x';

function app(tokenPath: string, secret: string | null = 'app-secret'): OAuthApp {
  return {
    clientId: 'app-id',
    clientSecret: secret,
    authorizeUrl: 'https://consent.example/authorize',
    tokenUrl: `${platform.baseUrl}${tokenPath}`,
    apiBaseUrl: platform.baseUrl,
  };
}

describe('X', () => {
  it('sends PKCE on both legs, authenticates a confidential client with Basic, and reads the user', async () => {
    const url = new URL(xOAuth.authorizeUrl({ app: app('/2/oauth2/token'), state: 's', redirectUri: REDIRECT, codeChallenge: 'challenge' }));
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      code_challenge: 'challenge',
      code_challenge_method: 'S256',
      scope: expect.stringContaining('offline.access'),
    });

    platform.on('POST', '/2/oauth2/token', {
      json: {
        token_type: 'bearer',
        expires_in: 7200,
        access_token: 'x-access',
        scope: 'tweet.read tweet.write users.read offline.access',
        refresh_token: 'x-refresh',
      },
    });
    platform.on('GET', '/2/users/me', {
      json: { data: { id: '2244994945', name: 'Client Co', username: 'clientco', profile_image_url: 'https://pbs.twimg.test/p.jpg' } },
    });
    const [account] = await xOAuth.connect(platform.fetch, { app: app('/2/oauth2/token'), code: 'c0de', redirectUri: REDIRECT, codeVerifier: 'verifier' });
    expect(account).toMatchObject({
      externalId: '2244994945',
      accountName: '@clientco',
      displayName: 'Client Co',
      accessToken: 'x-access',
      refreshToken: 'x-refresh',
    });
    const [exchange] = platform.calls('POST', '/2/oauth2/token');
    expect(Object.fromEntries(exchange!.form())).toEqual({
      grant_type: 'authorization_code',
      code: 'c0de',
      redirect_uri: REDIRECT,
      code_verifier: 'verifier',
      client_id: 'app-id',
    });
    expect(exchange!.headers.authorization).toBe(`Basic ${Buffer.from('app-id:app-secret').toString('base64')}`);
    expect(platform.calls('GET', '/2/users/me')[0]!.headers.authorization).toBe('Bearer x-access');
  });

  it('turns a refused code into a readable message', async () => {
    platform.on('POST', '/2/oauth2/token', {
      status: 400,
      json: { error: 'invalid_request', error_description: 'Value passed for the authorization code was invalid.' },
    });
    const error = await xOAuth
      .connect(platform.fetch, { app: app('/2/oauth2/token', null), code: 'used', redirectUri: REDIRECT, codeVerifier: 'v' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe('X did not accept the sign-in (Value passed for the authorization code was invalid.). Please try again.');
  });
});

describe('TikTok', () => {
  it('exchanges with client_key and reads the user; an error body with HTTP 200 is a refusal', async () => {
    platform.on('POST', '/v2/oauth/token/', {
      json: {
        access_token: 'act.1',
        expires_in: 86400,
        open_id: 'open-1',
        refresh_expires_in: 31536000,
        refresh_token: 'rft.1',
        scope: 'user.info.basic,video.publish',
        token_type: 'Bearer',
      },
    });
    platform.on('GET', '/v2/user/info/', {
      json: {
        data: { user: { open_id: 'open-1', display_name: 'Client Co', username: 'clientco', avatar_url: 'https://p16.tiktok.test/a.jpg' } },
        error: { code: 'ok', message: '' },
      },
    });
    const [account] = await tiktokOAuth.connect(platform.fetch, { app: app('/v2/oauth/token/'), code: 'c', redirectUri: REDIRECT, codeVerifier: null });
    expect(account).toMatchObject({
      externalId: 'open-1',
      accountName: '@clientco',
      accessToken: 'act.1',
      refreshToken: 'rft.1',
      scopes: 'user.info.basic video.publish',
    });
    expect(Object.fromEntries(platform.calls('POST', '/v2/oauth/token/')[0]!.form())).toMatchObject({
      client_key: 'app-id',
      client_secret: 'app-secret',
      grant_type: 'authorization_code',
    });

    platform.on('POST', '/v2/oauth/token/', { json: { error: 'invalid_grant', error_description: 'Authorization code is expired.', log_id: 'x' } });
    await expect(tiktokOAuth.connect(platform.fetch, { app: app('/v2/oauth/token/'), code: 'c', redirectUri: REDIRECT, codeVerifier: null })).rejects.toThrow(
      'TikTok did not accept the sign-in (Authorization code is expired.). Please try again.',
    );
  });
});

describe('Threads', () => {
  it('exchanges the code, extends the token to a long-lived one, and reads the profile', async () => {
    platform.on('POST', '/oauth/access_token', { json: { access_token: 'THQshort', user_id: 1789 } });
    platform.on('GET', '/access_token', { json: { access_token: 'THQlong', token_type: 'bearer', expires_in: 5183944 } });
    platform.on('GET', '/me', { json: { id: '1789', username: 'clientco', name: 'Client Co', threads_profile_picture_url: 'https://scontent.test/t.jpg' } });
    const [account] = await threadsOAuth.connect(platform.fetch, { app: app('/oauth/access_token'), code: 'c', redirectUri: REDIRECT, codeVerifier: null });
    expect(account).toMatchObject({ externalId: '1789', accountName: '@clientco', accessToken: 'THQlong' });
    expect(Math.abs(account!.expiresAt!.getTime() - (Date.now() + 5_183_944_000))).toBeLessThan(60_000);
    expect(platform.calls('GET', '/access_token')[0]!.query.get('grant_type')).toBe('th_exchange_token');
  });
});
