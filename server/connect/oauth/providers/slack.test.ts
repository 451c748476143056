// Connecting a Slack channel: OAuth v2 with scope incoming-webhook, oauth.v2.access answering
// incoming_webhook (https://docs.slack.dev/reference/methods/oauth.v2.access,
// https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks), against a local fake.
import { describe, expect, it } from 'vitest';
import type { OAuthApp } from '@/server/platforms/oauth-apps';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { slackOAuth } from './slack';

const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/slack`, name);
const platform = useFakePlatformApi();
const REDIRECT = 'https://herald.example/connect/callback/slack';
const app = (): OAuthApp => ({
  clientId: '1234.5678',
  clientSecret: 'slack-secret',
  authorizeUrl: 'https://slack.com/oauth/v2/authorize',
  tokenUrl: `${platform.baseUrl}/oauth.v2.access`,
  apiBaseUrl: platform.baseUrl,
});

describe('Slack', () => {
  it('asks for incoming-webhook only', () => {
    const url = new URL(slackOAuth.authorizeUrl({ app: app(), state: 's', redirectUri: REDIRECT, codeChallenge: null }));
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: '1234.5678', scope: 'incoming-webhook', redirect_uri: REDIRECT, state: 's' });
  });

  it('exchanges the code and keeps the webhook URL as the secret', async () => {
    platform.on('POST', '/oauth.v2.access', { json: f('oauth-v2-access') });
    const [account] = await slackOAuth.connect(platform.fetch, { app: app(), code: 'c0de', redirectUri: REDIRECT, codeVerifier: null });
    expect(account).toEqual({
      externalId: 'C05002EAE',
      accountName: '#general',
      displayName: '#general (Slack Softball Team)',
      avatarUrl: null,
      accessToken: 'https://hooks.slack.com/services/T9TK3CUKW/B0123456789/Gxq9Jq5k8EXAMPLEa1b2c3d4',
      refreshToken: null,
      expiresAt: null,
      scopes: 'incoming-webhook',
      platformData: {
        channel: '#general',
        channelId: 'C05002EAE',
        teamId: 'T9TK3CUKW',
        teamName: 'Slack Softball Team',
        configurationUrl: 'https://teamname.slack.com/services/BXXXXX',
      },
    });
    expect(Object.fromEntries(platform.calls('POST', '/oauth.v2.access')[0]!.form())).toEqual({
      client_id: '1234.5678',
      client_secret: 'slack-secret',
      code: 'c0de',
      redirect_uri: REDIRECT,
    });
  });

  it('turns { ok: false } into a readable message', async () => {
    platform.on('POST', '/oauth.v2.access', { json: f('oauth-v2-access-refused') });
    const error = await slackOAuth.connect(platform.fetch, { app: app(), code: 'used', redirectUri: REDIRECT, codeVerifier: null }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe('Slack did not accept the sign-in (invalid_code). Please try again.');
  });
});
