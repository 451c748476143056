// Tumblr's connect against a local HTTPS fake with the documented shapes:
//   https://www.tumblr.com/docs/en/api/v2#oauth2authorize---authorization-request (consent)
//   https://www.tumblr.com/docs/en/api/v2#v2oauth2token---authorization-code-grant-request (token)
//   https://www.tumblr.com/docs/en/api/v2#userinfo--get-a-users-information (the user's blogs)
import { describe, expect, it } from 'vitest';
import type { OAuthApp } from '@/server/platforms/oauth-apps';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { tumblrOAuth } from './tumblr';

const platform = useFakePlatformApi();
const REDIRECT = 'https://herald.example/connect/callback/tumblr';
const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/tumblr`, name);

const app = (): OAuthApp => ({
  clientId: 'consumer-key',
  clientSecret: 'consumer-secret',
  authorizeUrl: 'https://www.tumblr.test/oauth2/authorize',
  tokenUrl: `${platform.baseUrl}/v2/oauth2/token`,
  apiBaseUrl: platform.baseUrl,
});

describe('Tumblr connect', () => {
  it('asks for basic, write and offline_access, space-delimited', () => {
    const url = new URL(tumblrOAuth.authorizeUrl({ app: app(), state: 's', redirectUri: REDIRECT, codeChallenge: null }));
    expect(url.origin + url.pathname).toBe('https://www.tumblr.test/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'consumer-key',
      response_type: 'code',
      scope: 'basic write offline_access',
      state: 's',
      redirect_uri: REDIRECT,
    });
  });

  it('exchanges the code with the app’s key and secret and offers each blog the user can post to', async () => {
    platform.on('POST', '/v2/oauth2/token', { json: f('oauth-token') });
    platform.on('GET', '/v2/user/info', { json: f('user-info') });

    const choices = await tumblrOAuth.connect(platform.fetch, { app: app(), code: 'c0de', redirectUri: REDIRECT, codeVerifier: null });

    expect(Object.fromEntries(platform.calls('POST', '/v2/oauth2/token')[0]!.form())).toEqual({
      grant_type: 'authorization_code',
      code: 'c0de',
      client_id: 'consumer-key',
      client_secret: 'consumer-secret',
      redirect_uri: REDIRECT,
    });
    const [info] = platform.calls('GET', '/v2/user/info');
    expect(info!.headers.authorization).toBe('Bearer tumblr_access_1');
    expect(info!.headers['user-agent']).toBe('Herald');
    expect(choices.map((c) => c.externalId)).toEqual(['t:0aY0xL2Fi1OFJg4YxpmegQ', 't:WX5xItRbCiJH_GJDsIdhAQ']);
    expect(choices[0]).toMatchObject({
      accountName: 'heraldcoffee',
      displayName: 'Herald Coffee',
      accessToken: 'tumblr_access_1',
      refreshToken: 'tumblr_refresh_1',
      scopes: 'basic write offline_access',
      kind: 'Tumblr blog (primary)',
      platformData: { blogName: 'heraldcoffee', blogUuid: 't:0aY0xL2Fi1OFJg4YxpmegQ', blogUrl: 'https://heraldcoffee.tumblr.com/', username: 'heraldcoffee' },
    });
    expect(choices[0]!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 2_400_000);
    expect(choices[1]).toMatchObject({ accountName: 'heraldroastery', kind: 'Tumblr blog', platformData: { blogName: 'heraldroastery' } });
  });

  it('turns a refused code into Tumblr’s own words', async () => {
    platform.on('POST', '/v2/oauth2/token', { status: 401, json: { error: 'invalid_grant', error_description: 'Authorization code is invalid' } });
    const error = await tumblrOAuth.connect(platform.fetch, { app: app(), code: 'old', redirectUri: REDIRECT, codeVerifier: null }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe('Tumblr did not accept the sign-in (Authorization code is invalid). Please try again.');
  });

  it('says so when the account has no blog', async () => {
    platform.on('POST', '/v2/oauth2/token', { json: f('oauth-token') });
    platform.on('GET', '/v2/user/info', { json: { meta: { status: 200, msg: 'OK' }, response: { user: { name: 'nobody', blogs: [] } } } });
    await expect(tumblrOAuth.connect(platform.fetch, { app: app(), code: 'c0de', redirectUri: REDIRECT, codeVerifier: null })).rejects.toThrow(
      'This Tumblr account has no blog to post to',
    );
  });
});
