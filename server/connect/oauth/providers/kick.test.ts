// Kick's connect against a local HTTPS fake with the documented shapes:
//   https://docs.kick.com/getting-started/generating-tokens-oauth2-flow (consent parameters with
//     PKCE; the code exchange, its answer and its refusal { error })
//   https://docs.kick.com/apis/users (GET /public/v1/users: the token's user)
//   https://docs.kick.com/apis/channels (GET /public/v1/channels: the token's user's channel)
import { describe, expect, it } from 'vitest';
import type { OAuthApp } from '@/server/platforms/oauth-apps';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { kickOAuth } from './kick';

const platform = useFakePlatformApi();
const REDIRECT = 'https://herald.example/connect/callback/kick';
const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/kick`, name);

const app = (): OAuthApp => ({
  clientId: 'kick-client',
  clientSecret: 'kick-secret',
  authorizeUrl: 'https://id.kick.test/oauth/authorize',
  tokenUrl: `${platform.baseUrl}/oauth/token`,
  apiBaseUrl: platform.baseUrl,
});
const exchange = { code: 'c0de', redirectUri: REDIRECT, codeVerifier: 'verifier' };

describe('Kick connect', () => {
  it('asks for the user, the channel and chat, with a PKCE challenge', () => {
    const url = new URL(kickOAuth.authorizeUrl({ app: app(), state: 's', redirectUri: REDIRECT, codeChallenge: 'challenge' }));
    expect(url.origin + url.pathname).toBe('https://id.kick.test/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'kick-client',
      response_type: 'code',
      redirect_uri: REDIRECT,
      state: 's',
      scope: 'user:read channel:read chat:write',
      code_challenge: 'challenge',
      code_challenge_method: 'S256',
    });
    expect(kickOAuth.pkce).toBe(true);
  });

  it('exchanges the code with the verifier and the app’s secret, and connects the user’s own channel', async () => {
    platform.on('POST', '/oauth/token', { json: f('oauth-token') });
    platform.on('GET', '/users', { json: f('users') });
    platform.on('GET', '/channels', { json: f('channels') });

    const accounts = await kickOAuth.connect(platform.fetch, { app: app(), ...exchange });

    expect(Object.fromEntries(platform.calls('POST', '/oauth/token')[0]!.form())).toEqual({
      code: 'c0de',
      client_id: 'kick-client',
      client_secret: 'kick-secret',
      redirect_uri: REDIRECT,
      grant_type: 'authorization_code',
      code_verifier: 'verifier',
    });
    expect(platform.calls('GET', '/users')[0]!.headers.authorization).toBe('Bearer kick_access_1');
    expect(platform.calls('GET', '/channels')[0]!.headers.authorization).toBe('Bearer kick_access_1');
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({
      externalId: '123456',
      accountName: 'heraldcoffee',
      displayName: 'HeraldCoffee',
      accessToken: 'kick_access_1',
      refreshToken: 'kick_refresh_1',
      scopes: 'user:read channel:read chat:write',
      platformData: { slug: 'heraldcoffee' },
    });
    expect(accounts[0]!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 7_000_000);
  });

  it('turns a refused code into Kick’s own words', async () => {
    platform.on('POST', '/oauth/token', { status: 400, json: { error: 'Invalid request' } });
    const error = await kickOAuth.connect(platform.fetch, { app: app(), ...exchange }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe('Kick did not accept the sign-in (Invalid request). Please try again.');
  });

  it('says so when Kick does not share the channel', async () => {
    platform.on('POST', '/oauth/token', { json: f('oauth-token') });
    platform.on('GET', '/users', { json: f('users') });
    platform.on('GET', '/channels', { status: 403, json: { data: {}, message: 'Forbidden' } });
    await expect(kickOAuth.connect(platform.fetch, { app: app(), ...exchange })).rejects.toThrow(
      'Kick signed you in but did not share your channel (Forbidden). Please try again.',
    );
  });
});
