// Connecting a Discord channel: OAuth2 with scope webhook.incoming, whose token response carries
// the webhook (https://discord.com/developers/docs/topics/oauth2#webhooks), against a local fake.
import { describe, expect, it } from 'vitest';
import type { OAuthApp } from '@/server/platforms/oauth-apps';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { discordOAuth } from './discord';

const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/discord`, name);
const platform = useFakePlatformApi();
const REDIRECT = 'https://herald.example/connect/callback/discord';
const app = (): OAuthApp => ({
  clientId: '310954232226357250',
  clientSecret: 'discord-secret',
  authorizeUrl: 'https://discord.com/oauth2/authorize',
  tokenUrl: `${platform.baseUrl}/oauth2/token`,
  apiBaseUrl: platform.baseUrl,
});

describe('Discord', () => {
  it('asks for webhook.incoming', () => {
    const url = new URL(discordOAuth.authorizeUrl({ app: app(), state: 's', redirectUri: REDIRECT, codeChallenge: null }));
    expect(`${url.origin}${url.pathname}`).toBe('https://discord.com/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: '310954232226357250',
      scope: 'webhook.incoming',
      redirect_uri: REDIRECT,
      state: 's',
    });
  });

  it('exchanges the code and keeps the webhook: its token as the secret, its ids as platformData', async () => {
    platform.on('POST', '/oauth2/token', { json: f('token-webhook') });
    const accounts = await discordOAuth.connect(platform.fetch, { app: app(), code: 'c0de', redirectUri: REDIRECT, codeVerifier: null });
    expect(accounts).toEqual([
      {
        externalId: '347114750880120863',
        accountName: 'testwebhook',
        displayName: 'testwebhook',
        avatarUrl: null,
        accessToken: 'kKDdjXa1g9tKNs0-_yOwLyALC9gydEWP6gr9sHabuK1vuofjhQDDnlOclJeRIvYK-pj_',
        refreshToken: null,
        expiresAt: null,
        scopes: 'webhook.incoming',
        platformData: { webhookId: '347114750880120863', channelId: '345626669224982402', guildId: '290926792226357250', name: 'testwebhook' },
      },
    ]);
    expect(Object.fromEntries(platform.calls('POST', '/oauth2/token')[0]!.form())).toEqual({
      grant_type: 'authorization_code',
      code: 'c0de',
      redirect_uri: REDIRECT,
      client_id: '310954232226357250',
      client_secret: 'discord-secret',
    });
  });

  it('turns a refused code into a readable message', async () => {
    platform.on('POST', '/oauth2/token', { status: 400, json: f('token-refused') });
    const error = await discordOAuth.connect(platform.fetch, { app: app(), code: 'used', redirectUri: REDIRECT, codeVerifier: null }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe('Discord did not accept the sign-in (Invalid "code" in request.). Please try again.');
  });
});
