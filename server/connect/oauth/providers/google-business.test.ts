// Google Business Profile's connect: Google's consent URL with business.manage, the code
// exchange, then the accounts and their locations as choices, against a local HTTPS fake:
//   https://developers.google.com/my-business/reference/accountmanagement/rest/v1/accounts/list
//   https://developers.google.com/my-business/reference/businessinformation/rest/v1/accounts.locations/list
import { describe, expect, it } from 'vitest';
import type { OAuthApp } from '@/server/platforms/oauth-apps';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { googleBusinessOAuth } from './google-business';

const platform = useFakePlatformApi();
const REDIRECT = 'https://herald.example/connect/callback/google_business';
const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/google_business`, name);
const ACCOUNT = 'accounts/109876543210987654321';

const app = (): OAuthApp => ({
  clientId: 'google-client.apps.googleusercontent.com',
  clientSecret: 'google-secret',
  authorizeUrl: 'https://accounts.google.test/o/oauth2/v2/auth',
  tokenUrl: `${platform.baseUrl}/token`,
  apiBaseUrl: platform.baseUrl,
});

describe('Google Business Profile connect', () => {
  it('asks for business.manage with offline access and PKCE', () => {
    const url = new URL(googleBusinessOAuth.authorizeUrl({ app: app(), state: 's', redirectUri: REDIRECT, codeChallenge: 'challenge' }));
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      scope: 'https://www.googleapis.com/auth/business.manage',
      access_type: 'offline',
      prompt: 'consent',
      code_challenge: 'challenge',
      code_challenge_method: 'S256',
      redirect_uri: REDIRECT,
    });
    expect(googleBusinessOAuth.choose).toBe(true);
  });

  it('offers every location of every account, named accounts/{a}/locations/{l}', async () => {
    platform.on('POST', '/token', { json: f('token-granted') });
    platform.on('GET', '/v1/accounts', { json: f('accounts') });
    platform.on('GET', `/v1/${ACCOUNT}/locations`, { json: f('locations') });

    const accounts = await googleBusinessOAuth.connect(platform.fetch, { app: app(), code: '4/0code', redirectUri: REDIRECT, codeVerifier: 'verifier' });

    expect(accounts.map((a) => a.externalId)).toEqual([`${ACCOUNT}/locations/1234567890123456789`, `${ACCOUNT}/locations/9876543210987654321`]);
    expect(accounts[0]).toMatchObject({
      accountName: 'Herald Coffee Soho',
      displayName: 'Herald Coffee Soho (12 Greek Street, London)',
      accessToken: 'ya29.a0business-granted',
      refreshToken: '1//0gbusiness-refresh',
      kind: 'Business Profile location (Herald Coffee)',
      platformData: { mapsUri: 'https://maps.google.com/maps?cid=2930398276565902304' },
    });
    expect(platform.calls('POST', '/token')[0]!.form().get('code_verifier')).toBe('verifier');
    const [locations] = platform.calls('GET', `/v1/${ACCOUNT}/locations`);
    expect(locations!.query.get('readMask')).toBe('name,title,storefrontAddress,metadata');
    expect(locations!.headers.authorization).toBe('Bearer ya29.a0business-granted');
  });

  it('turns a refused code, and an account without locations, into readable messages', async () => {
    platform.on('POST', '/token', { status: 400, json: { error: 'invalid_grant', error_description: 'Malformed auth code.' } });
    const refused = await googleBusinessOAuth
      .connect(platform.fetch, { app: app(), code: 'x', redirectUri: REDIRECT, codeVerifier: 'v' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OAuthFlowError);
    expect((refused as Error).message).toBe('Google did not accept the sign-in to Google Business Profile (Malformed auth code.). Please try again.');

    platform.on('POST', '/token', { json: f('token-granted') });
    platform.on('GET', '/v1/accounts', { json: f('accounts') });
    platform.on('GET', `/v1/${ACCOUNT}/locations`, { json: {} });
    await expect(googleBusinessOAuth.connect(platform.fetch, { app: app(), code: 'c', redirectUri: REDIRECT, codeVerifier: 'v' })).rejects.toThrow(
      'This Google account manages no Business Profile location. Sign in with the account that manages the business, then try again.',
    );
  });
});
