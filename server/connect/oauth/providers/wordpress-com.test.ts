// WordPress.com's connect against a local HTTPS fake with the documented shapes:
//   https://developer.wordpress.com/docs/oauth2/ (consent, the code exchanged at /oauth2/token)
//   https://developer.wordpress.com/docs/api/1.1/get/me/sites/ (the user's sites and capabilities)
import { describe, expect, it } from 'vitest';
import type { OAuthApp } from '@/server/platforms/oauth-apps';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { wordpressComOAuth } from './wordpress-com';

const platform = useFakePlatformApi();
const REDIRECT = 'https://herald.example/connect/callback/wordpress_com';
const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/wordpress_com`, name);

const app = (): OAuthApp => ({
  clientId: '81234',
  clientSecret: 'wpcom-secret',
  authorizeUrl: `${platform.baseUrl}/oauth2/authorize`,
  tokenUrl: `${platform.baseUrl}/oauth2/token`,
  apiBaseUrl: platform.baseUrl,
});
const connect = (code = 'c0de') => wordpressComOAuth.connect(platform.fetch, { app: app(), code, redirectUri: REDIRECT, codeVerifier: null });

describe('WordPress.com connect', () => {
  it('asks for the global scope, so that one consent reaches every site the user writes for', () => {
    const url = new URL(wordpressComOAuth.authorizeUrl({ app: app(), state: 's', redirectUri: REDIRECT, codeChallenge: null }));
    expect(url.pathname).toBe('/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: '81234', redirect_uri: REDIRECT, response_type: 'code', scope: 'global', state: 's' });
  });

  it('exchanges the code and offers each site where the user can publish', async () => {
    platform.on('POST', '/oauth2/token', { json: f('token') });
    platform.on('GET', '/rest/v1.1/me/sites', { json: f('me-sites') });

    const choices = await connect();

    expect(Object.fromEntries(platform.calls('POST', '/oauth2/token')[0]!.form())).toEqual({
      client_id: '81234',
      client_secret: 'wpcom-secret',
      redirect_uri: REDIRECT,
      code: 'c0de',
      grant_type: 'authorization_code',
    });
    expect(platform.calls('GET', '/rest/v1.1/me/sites')[0]!.headers.authorization).toBe('Bearer wpcom-token-Qx7b2');
    // The friend's blog (publish_posts false) is not offered.
    expect(choices.map((c) => c.externalId)).toEqual(['211489302', '198223001']);
    expect(choices[0]).toEqual({
      externalId: '211489302',
      accountName: 'news.heraldcoffee.example',
      displayName: 'Herald Coffee News',
      avatarUrl: 'https://news.heraldcoffee.example/wp-content/uploads/icon.png',
      accessToken: 'wpcom-token-Qx7b2',
      refreshToken: null,
      expiresAt: null,
      scopes: 'global',
      kind: 'WordPress.com site',
      platformData: { siteId: '211489302', siteUrl: 'https://news.heraldcoffee.example' },
    });
    expect(choices[1]).toMatchObject({ accountName: 'roastery.heraldcoffee.example', kind: 'Jetpack site', avatarUrl: null });
  });

  it('turns a refused code into WordPress.com’s own words', async () => {
    platform.on('POST', '/oauth2/token', { status: 400, json: f('error-invalid-grant') });
    const error = await connect('old').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe(
      'WordPress.com did not accept the sign-in (The provided authorization grant is invalid, expired, revoked, or does not match the redirection URI used in the authorization request.). Please try again.',
    );
  });

  it('says so when the user can publish on none of their sites', async () => {
    platform.on('POST', '/oauth2/token', { json: f('token') });
    platform.on('GET', '/rest/v1.1/me/sites', { json: { sites: [f('me-sites').sites[2]] } });
    await expect(connect()).rejects.toThrow('This WordPress.com account cannot publish on any site');
  });
});
