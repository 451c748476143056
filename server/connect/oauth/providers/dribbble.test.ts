// Dribbble's connect against a local HTTPS fake with the documented shapes:
//   https://developer.dribbble.com/v2/oauth/ (consent parameters; the code exchange and its answer)
//   https://developer.dribbble.com/v2/user/ (GET /v2/user: the user, with can_upload_shot)
import { describe, expect, it } from 'vitest';
import type { OAuthApp } from '@/server/platforms/oauth-apps';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { dribbbleOAuth } from './dribbble';

const platform = useFakePlatformApi();
const REDIRECT = 'https://herald.example/connect/callback/dribbble';
const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/dribbble`, name);

const app = (): OAuthApp => ({
  clientId: 'dribbble-client',
  clientSecret: 'dribbble-secret',
  authorizeUrl: 'https://dribbble.test/oauth/authorize',
  tokenUrl: `${platform.baseUrl}/oauth/token`,
  apiBaseUrl: platform.baseUrl,
});
const exchange = { code: 'c0de', redirectUri: REDIRECT, codeVerifier: null };

describe('Dribbble connect', () => {
  it('asks for public and upload', () => {
    const url = new URL(dribbbleOAuth.authorizeUrl({ app: app(), state: 's', redirectUri: REDIRECT, codeChallenge: null }));
    expect(url.origin + url.pathname).toBe('https://dribbble.test/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: 'dribbble-client', redirect_uri: REDIRECT, scope: 'public upload', state: 's' });
  });

  it('exchanges the code with the app’s id and secret and connects the user, whose token does not expire', async () => {
    platform.on('POST', '/oauth/token', { json: f('oauth-token') });
    platform.on('GET', '/user', { json: f('user') });

    const accounts = await dribbbleOAuth.connect(platform.fetch, { app: app(), ...exchange });

    expect(Object.fromEntries(platform.calls('POST', '/oauth/token')[0]!.form())).toEqual({
      client_id: 'dribbble-client',
      client_secret: 'dribbble-secret',
      code: 'c0de',
      redirect_uri: REDIRECT,
    });
    expect(platform.calls('GET', '/user')[0]!.headers.authorization).toBe('Bearer dribbble_access_1');
    expect(accounts).toEqual([
      expect.objectContaining({
        externalId: '1',
        accountName: 'heraldcoffee',
        displayName: 'Herald Coffee Studio',
        accessToken: 'dribbble_access_1',
        refreshToken: null,
        expiresAt: null,
        scopes: 'public upload',
        platformData: { login: 'heraldcoffee' },
      }),
    ]);
  });

  it('turns a refused code into Dribbble’s own words', async () => {
    platform.on('POST', '/oauth/token', {
      status: 401,
      json: { error: 'invalid_grant', error_description: 'The provided authorization grant is invalid, expired, revoked, or was issued to another client.' },
    });
    const error = await dribbbleOAuth.connect(platform.fetch, { app: app(), ...exchange }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe(
      'Dribbble did not accept the sign-in (The provided authorization grant is invalid, expired, revoked, or was issued to another client.). Please try again.',
    );
  });

  it('says so when Dribbble does not let the account upload shots', async () => {
    platform.on('POST', '/oauth/token', { json: f('oauth-token') });
    platform.on('GET', '/user', { json: { ...(f('user') as object), can_upload_shot: false } });
    await expect(dribbbleOAuth.connect(platform.fetch, { app: app(), ...exchange })).rejects.toThrow('Dribbble does not let this account upload shots yet');
  });
});
