// Connecting an Instagram professional account with Business Login for Instagram, against a
// local fake of its documented answers:
//   https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/business-login
//   (consent URL, code exchange at api.instagram.com/oauth/access_token, ig_exchange_token for
//   the 60-day token, GET /me?fields=user_id,username…)
import { describe, expect, it } from 'vitest';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import type { OAuthApp } from '@/server/platforms/oauth-apps';
import { OAuthFlowError } from '../oauth-provider';
import { instagramLoginOAuth } from './instagram-login';

const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/instagram_login`, name);
const platform = useFakePlatformApi();
const REDIRECT = 'https://herald.example/connect/callback/instagram_login';
const app = (): OAuthApp => ({
  clientId: '990602627938098',
  clientSecret: 'ig-app-secret',
  authorizeUrl: 'https://www.instagram.com/oauth/authorize',
  tokenUrl: `${platform.baseUrl}/oauth/access_token`,
  apiBaseUrl: `${platform.baseUrl}/v25.0`,
});

describe('Instagram (Instagram Login)', () => {
  it('asks Instagram itself for the business scopes, no Facebook Page', () => {
    const url = new URL(instagramLoginOAuth.authorizeUrl({ app: app(), state: 's', redirectUri: REDIRECT, codeChallenge: null }));
    expect(url.origin + url.pathname).toBe('https://www.instagram.com/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: '990602627938098',
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope:
        'instagram_business_basic,instagram_business_content_publish,instagram_business_manage_comments,instagram_business_manage_messages,instagram_business_manage_insights',
      state: 's',
    });
  });

  it('exchanges the code, swaps the token for the 60-day one and reads the professional account', async () => {
    platform.on('POST', '/oauth/access_token', { json: f('oauth-token') });
    platform.on('GET', '/access_token', { json: f('long-lived-token') });
    platform.on('GET', '/v25.0/me', { json: f('me') });
    const [account, ...more] = await instagramLoginOAuth.connect(platform.fetch, { app: app(), code: 'c0de', redirectUri: REDIRECT, codeVerifier: null });

    expect(more).toEqual([]);
    expect(Object.fromEntries(platform.calls('POST', '/oauth/access_token')[0]!.form())).toEqual({
      client_id: '990602627938098',
      client_secret: 'ig-app-secret',
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT,
      code: 'c0de',
    });
    expect(Object.fromEntries(platform.calls('GET', '/access_token')[0]!.query)).toEqual({
      grant_type: 'ig_exchange_token',
      client_secret: 'ig-app-secret',
      access_token: 'IGAAR-short-lived-token',
    });
    expect(platform.calls('GET', '/v25.0/me')[0]!.query.get('access_token')).toBe('IGAAR-long-lived-token');
    expect(account).toMatchObject({
      // The professional account's id (user_id), which the publishing calls take, not the app-scoped id.
      externalId: '17841400008460056',
      accountName: 'herald.coffee',
      displayName: 'Herald Coffee',
      accessToken: 'IGAAR-long-lived-token',
      refreshToken: null,
      scopes: 'instagram_business_basic instagram_business_content_publish instagram_business_manage_comments instagram_business_manage_insights',
    });
    expect(account!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 59 * 24 * 3_600_000);
  });

  it('shows Instagram’s own reason when the code is refused', async () => {
    platform.on('POST', '/oauth/access_token', { status: 400, json: f('error-oauth-code') });
    const attempt = instagramLoginOAuth.connect(platform.fetch, { app: app(), code: 'used', redirectUri: REDIRECT, codeVerifier: null });
    await expect(attempt).rejects.toBeInstanceOf(OAuthFlowError);
    await expect(attempt).rejects.toThrow('Instagram did not accept the sign-in (Invalid authorization code). Please try again.');
    expect(platform.calls('GET', '/v25.0/me')).toHaveLength(0);
  });
});
