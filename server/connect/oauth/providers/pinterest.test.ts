// Pinterest's connect against a local HTTPS fake with the documented shapes:
//   https://developers.pinterest.com/docs/getting-started/authentication-and-scopes/ (consent, token)
//   https://developers.pinterest.com/docs/api/v5/user_account-get, …/boards-list
import { describe, expect, it } from 'vitest';
import type { OAuthApp } from '@/server/platforms/oauth-apps';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { pinterestOAuth } from './pinterest';

const platform = useFakePlatformApi();
const REDIRECT = 'https://herald.example/connect/callback/pinterest';
const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/pinterest`, name);

const app = (): OAuthApp => ({
  clientId: '1484362',
  clientSecret: 'pinterest-secret',
  authorizeUrl: 'https://www.pinterest.test/oauth/',
  tokenUrl: `${platform.baseUrl}/v5/oauth/token`,
  apiBaseUrl: platform.baseUrl,
});

describe('Pinterest connect', () => {
  it('asks for the board, pin and account scopes, comma-separated', () => {
    const url = new URL(pinterestOAuth.authorizeUrl({ app: app(), state: 's', redirectUri: REDIRECT, codeChallenge: null }));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: '1484362',
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'boards:read,pins:read,pins:write,user_accounts:read',
      state: 's',
    });
  });

  it('exchanges the code with Basic auth, reads the account and offers each board', async () => {
    platform.on('POST', '/v5/oauth/token', { json: f('token-granted') });
    platform.on('GET', '/v5/user_account', { json: f('user-account') });
    platform.on('GET', '/v5/boards', { json: f('boards') });

    const choices = await pinterestOAuth.connect(platform.fetch, { app: app(), code: 'c0de', redirectUri: REDIRECT, codeVerifier: null });

    expect(choices.map((c) => c.externalId)).toEqual(['549755885175', '549755885176']);
    expect(choices[0]).toMatchObject({
      accountName: 'heraldcoffee / Winter drinks',
      displayName: 'Herald Coffee: Winter drinks',
      accessToken: 'pina_AMAZ3WWWABCDEFGH',
      refreshToken: 'pinr_AMAZ3WWWREFRESH',
      kind: 'Pinterest board',
      platformData: { boardId: '549755885175', boardName: 'Winter drinks', userId: '549755885175', username: 'heraldcoffee' },
    });
    expect(choices[1]!.kind).toBe('Pinterest board (secret)');
    const [exchange] = platform.calls('POST', '/v5/oauth/token');
    expect(exchange!.headers.authorization).toBe(`Basic ${Buffer.from('1484362:pinterest-secret').toString('base64')}`);
    expect(Object.fromEntries(exchange!.form())).toEqual({ grant_type: 'authorization_code', code: 'c0de', redirect_uri: REDIRECT });
    expect(platform.calls('GET', '/v5/boards')[0]!.headers.authorization).toBe('Bearer pina_AMAZ3WWWABCDEFGH');
  });

  it('turns a refused code into a readable message', async () => {
    platform.on('POST', '/v5/oauth/token', { status: 400, json: { code: 1, message: 'Invalid authorization code.' } });
    const error = await pinterestOAuth
      .connect(platform.fetch, { app: app(), code: 'used', redirectUri: REDIRECT, codeVerifier: null })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe('Pinterest did not accept the sign-in (Invalid authorization code.). Please try again.');
  });
});
