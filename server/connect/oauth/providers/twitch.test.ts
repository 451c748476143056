// Twitch's connect against a local HTTPS fake with the documented shapes:
//   https://dev.twitch.tv/docs/authentication/getting-tokens-oauth/#authorization-code-grant-flow
//     (consent parameters; the code exchange and its answer, scope as an array)
//   https://dev.twitch.tv/docs/api/reference/users#get-users (the token's user)
import { describe, expect, it } from 'vitest';
import type { OAuthApp } from '@/server/platforms/oauth-apps';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { twitchOAuth } from './twitch';

const platform = useFakePlatformApi();
const REDIRECT = 'https://herald.example/connect/callback/twitch';
const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/twitch`, name);

const app = (): OAuthApp => ({
  clientId: 'app-client-id',
  clientSecret: 'app-secret',
  authorizeUrl: 'https://id.twitch.test/oauth2/authorize',
  tokenUrl: `${platform.baseUrl}/oauth2/token`,
  apiBaseUrl: platform.baseUrl,
});

describe('Twitch connect', () => {
  it('asks for chat messages and announcements, space-delimited, without PKCE', () => {
    const url = new URL(twitchOAuth.authorizeUrl({ app: app(), state: 's', redirectUri: REDIRECT, codeChallenge: null }));
    expect(url.origin + url.pathname).toBe('https://id.twitch.test/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'app-client-id',
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'user:write:chat moderator:manage:announcements',
      state: 's',
    });
    expect(twitchOAuth.pkce).toBe(false);
  });

  it('exchanges the code with the app’s id and secret and connects the user’s own channel', async () => {
    platform.on('POST', '/oauth2/token', { json: f('oauth-token') });
    platform.on('GET', '/users', { json: f('users') });

    const accounts = await twitchOAuth.connect(platform.fetch, { app: app(), code: 'c0de', redirectUri: REDIRECT, codeVerifier: null });

    expect(Object.fromEntries(platform.calls('POST', '/oauth2/token')[0]!.form())).toEqual({
      client_id: 'app-client-id',
      client_secret: 'app-secret',
      code: 'c0de',
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT,
    });
    const [users] = platform.calls('GET', '/users');
    expect(users!.headers.authorization).toBe('Bearer twitch_access_1');
    expect(users!.headers['client-id']).toBe('app-client-id');
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({
      externalId: '141981764',
      accountName: 'heraldcoffee',
      displayName: 'HeraldCoffee',
      avatarUrl: 'https://static-cdn.jtvnw.net/jtv_user_pictures/heraldcoffee-profile_image-300x300.png',
      accessToken: 'twitch_access_1',
      refreshToken: 'twitch_refresh_1',
      scopes: 'moderator:manage:announcements user:write:chat',
      platformData: { login: 'heraldcoffee' },
    });
    expect(accounts[0]!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 14_000_000);
  });

  it('turns a refused code into Twitch’s own words', async () => {
    platform.on('POST', '/oauth2/token', { status: 400, json: { status: 400, message: 'Invalid authorization code' } });
    const error = await twitchOAuth.connect(platform.fetch, { app: app(), code: 'old', redirectUri: REDIRECT, codeVerifier: null }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe('Twitch did not accept the sign-in (Invalid authorization code). Please try again.');
  });

  it('says so when Twitch does not share the user', async () => {
    platform.on('POST', '/oauth2/token', { json: f('oauth-token') });
    platform.on('GET', '/users', { status: 401, json: { error: 'Unauthorized', status: 401, message: 'Client ID and OAuth token do not match' } });
    await expect(twitchOAuth.connect(platform.fetch, { app: app(), code: 'c0de', redirectUri: REDIRECT, codeVerifier: null })).rejects.toThrow(
      'Twitch signed you in but did not share your channel (Client ID and OAuth token do not match). Please try again.',
    );
  });
});
