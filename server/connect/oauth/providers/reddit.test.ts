// Reddit's connect against a local HTTPS fake with the documented shapes:
//   https://github.com/reddit-archive/reddit/wiki/OAuth2 (authorize, access_token)
//   https://www.reddit.com/dev/api#GET_api_v1_me
import { describe, expect, it } from 'vitest';
import type { OAuthApp } from '@/server/platforms/oauth-apps';
import { REDDIT_DEFAULT_USER_AGENT } from '@/server/platforms/reddit/reddit-api';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { redditOAuth } from './reddit';

const platform = useFakePlatformApi();
const REDIRECT = 'https://herald.example/connect/callback/reddit';
const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/reddit`, name);

const app = (): OAuthApp => ({
  clientId: 'p-jcoLKBynTLew',
  clientSecret: 'reddit-secret',
  authorizeUrl: 'https://www.reddit.test/api/v1/authorize',
  tokenUrl: `${platform.baseUrl}/api/v1/access_token`,
  apiBaseUrl: platform.baseUrl,
});

describe('Reddit connect', () => {
  it('asks for a permanent grant with the identity, submit and flair scopes', () => {
    const url = new URL(redditOAuth.authorizeUrl({ app: app(), state: 's', redirectUri: REDIRECT, codeChallenge: null }));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'p-jcoLKBynTLew',
      response_type: 'code',
      state: 's',
      redirect_uri: REDIRECT,
      duration: 'permanent',
      scope: 'identity submit flair read vote modposts history',
    });
  });

  it('exchanges the code with Basic auth and a User-Agent, and reads the user', async () => {
    platform.on('POST', '/api/v1/access_token', { json: f('token-granted') });
    platform.on('GET', '/api/v1/me', { json: f('me') });
    const [account] = await redditOAuth.connect(platform.fetch, { app: app(), code: 'c0de', redirectUri: REDIRECT, codeVerifier: null });
    expect(account).toEqual({
      externalId: 't2_1w72',
      accountName: 'u/heraldcoffee',
      displayName: 'heraldcoffee',
      avatarUrl: 'https://styles.redditmedia.com/t5_2v9m/styles/profileIcon_snoo.png?width=256&height=256&s=abc',
      accessToken: 'eyJhbGciOiJSUzI1NiIs-granted',
      refreshToken: '12345-refresh-granted',
      expiresAt: expect.any(Date),
      scopes: 'identity submit flair',
      platformData: { username: 'heraldcoffee' },
    });
    const [exchange] = platform.calls('POST', '/api/v1/access_token');
    expect(exchange!.headers.authorization).toBe(`Basic ${Buffer.from('p-jcoLKBynTLew:reddit-secret').toString('base64')}`);
    expect(exchange!.headers['user-agent']).toBe(REDDIT_DEFAULT_USER_AGENT);
    expect(Object.fromEntries(exchange!.form())).toEqual({ grant_type: 'authorization_code', code: 'c0de', redirect_uri: REDIRECT });
    expect(platform.calls('GET', '/api/v1/me')[0]!.headers['user-agent']).toBe(REDDIT_DEFAULT_USER_AGENT);
  });

  it('turns a refused code (HTTP 200 with an error) into a readable message', async () => {
    platform.on('POST', '/api/v1/access_token', { json: { error: 'invalid_grant' } });
    const error = await redditOAuth.connect(platform.fetch, { app: app(), code: 'used', redirectUri: REDIRECT, codeVerifier: null }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe('Reddit did not accept the sign-in (invalid_grant). Please try again.');
  });
});
