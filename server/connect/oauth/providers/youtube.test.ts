// YouTube's connect: Google's consent URL, the code exchange and the channels the grant
// reaches, against a local HTTPS fake with the documented shapes:
//   https://developers.google.com/identity/protocols/oauth2/web-server (authorize, exchange)
//   https://developers.google.com/youtube/v3/docs/channels/list (mine=true)
import { describe, expect, it } from 'vitest';
import type { OAuthApp } from '@/server/platforms/oauth-apps';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { youtubeOAuth } from './youtube';

const platform = useFakePlatformApi();
const REDIRECT = 'https://herald.example/connect/callback/youtube';
const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/youtube`, name);

const app = (): OAuthApp => ({
  clientId: 'google-client.apps.googleusercontent.com',
  clientSecret: 'google-secret',
  authorizeUrl: 'https://accounts.google.test/o/oauth2/v2/auth',
  tokenUrl: `${platform.baseUrl}/token`,
  apiBaseUrl: platform.baseUrl,
});

describe('YouTube connect', () => {
  it('asks Google for offline access with a forced consent, PKCE and the upload and read scopes', () => {
    const url = new URL(youtubeOAuth.authorizeUrl({ app: app(), state: 'st4te', redirectUri: REDIRECT, codeChallenge: 'challenge' }));
    expect(url.origin + url.pathname).toBe('https://accounts.google.test/o/oauth2/v2/auth');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'google-client.apps.googleusercontent.com',
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope:
        'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.force-ssl',
      state: 'st4te',
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      code_challenge: 'challenge',
      code_challenge_method: 'S256',
    });
    expect(youtubeOAuth.pkce).toBe(true);
    expect(youtubeOAuth.choose).toBe(true);
  });

  it('exchanges the code with the verifier and offers each channel the grant reaches', async () => {
    platform.on('POST', '/token', { json: f('token-granted') });
    platform.on('GET', '/youtube/v3/channels', { json: f('channels-mine') });

    const accounts = await youtubeOAuth.connect(platform.fetch, { app: app(), code: '4/0AX4XfWh', redirectUri: REDIRECT, codeVerifier: 'verifier' });

    expect(accounts).toHaveLength(2);
    expect(accounts[0]).toMatchObject({
      externalId: 'UC_x5XG1OV2P6uZZ5FSM9Ttw',
      accountName: '@heraldcoffee',
      displayName: 'Herald Coffee',
      avatarUrl: 'https://yt3.ggpht.com/herald-coffee=s88',
      accessToken: 'ya29.a0AfH6SMB-granted',
      refreshToken: '1//0gLrefresh-granted',
      kind: 'YouTube channel',
    });
    expect(accounts[1]).toMatchObject({ externalId: 'UCbW18JZRgko_mOGm5er8Yzg', accountName: 'Herald Coffee Roastery' });
    expect(Math.abs(accounts[0]!.expiresAt!.getTime() - (Date.now() + 3_599_000))).toBeLessThan(60_000);

    expect(Object.fromEntries(platform.calls('POST', '/token')[0]!.form())).toEqual({
      code: '4/0AX4XfWh',
      client_id: 'google-client.apps.googleusercontent.com',
      client_secret: 'google-secret',
      redirect_uri: REDIRECT,
      grant_type: 'authorization_code',
      code_verifier: 'verifier',
    });
    const [channels] = platform.calls('GET', '/youtube/v3/channels');
    expect(channels!.headers.authorization).toBe('Bearer ya29.a0AfH6SMB-granted');
    expect(channels!.query.get('mine')).toBe('true');
    expect(channels!.query.get('part')).toBe('snippet');
  });

  it('turns a refused code into a readable message', async () => {
    platform.on('POST', '/token', { status: 400, json: { error: 'invalid_grant', error_description: 'Bad Request' } });
    const error = await youtubeOAuth.connect(platform.fetch, { app: app(), code: 'used', redirectUri: REDIRECT, codeVerifier: 'v' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe('Google did not accept the sign-in to YouTube (Bad Request). Please try again.');
  });

  it('says so when the Google account has no channel', async () => {
    platform.on('POST', '/token', { json: f('token-granted') });
    platform.on('GET', '/youtube/v3/channels', { json: { kind: 'youtube#channelListResponse', pageInfo: { totalResults: 0, resultsPerPage: 5 }, items: [] } });
    await expect(youtubeOAuth.connect(platform.fetch, { app: app(), code: 'c', redirectUri: REDIRECT, codeVerifier: 'v' })).rejects.toThrow(
      'This Google account has no YouTube channel. Create one on YouTube (or pick the account that has it), then try again.',
    );
  });
});
