// Slack: OAuth v2 (https://docs.slack.dev/authentication/installing-with-oauth) with the single
// scope incoming-webhook, which makes Slack's consent page ask the client for a channel
// (https://docs.slack.dev/reference/scopes/incoming-webhook). oauth.v2.access answers
// incoming_webhook { channel, channel_id, configuration_url, url }: the URL is the secret Herald
// keeps (sealed, as the access token); the channel and team are platformData. The bot token of
// the same answer is not needed to post and is not kept. oauth.v2.access answers HTTP 200 with
// { ok: false, error } on refusal. Slack's v2 flow takes no PKCE from a confidential client.
//   token: POST <api>/oauth.v2.access (form)
import { callApi, jsonAt, jsonString, withQuery } from '@/server/platforms/http';
import { OAuthFlowError, type OAuthProvider } from '../oauth-provider';

export const slackOAuth: OAuthProvider = {
  label: 'Slack',
  pkce: false,
  // Slack's own page asks for the channel; one webhook comes back.
  choose: false,
  authorizeUrl: ({ app, state, redirectUri }) =>
    withQuery(app.authorizeUrl, { client_id: app.clientId, scope: 'incoming-webhook', redirect_uri: redirectUri, state }),

  async connect(fetch, { app, code, redirectUri }) {
    const token = await callApi(fetch, app.tokenUrl, {
      form: { client_id: app.clientId, client_secret: app.clientSecret ?? undefined, code, redirect_uri: redirectUri },
    });
    if (jsonAt(token.json, 'ok') !== true) {
      throw new OAuthFlowError(`Slack did not accept the sign-in (${jsonString(token.json, 'error') ?? `HTTP ${token.status}`}). Please try again.`);
    }
    const url = jsonString(token.json, 'incoming_webhook', 'url');
    const channelId = jsonString(token.json, 'incoming_webhook', 'channel_id');
    if (!url || !channelId) throw new OAuthFlowError('Slack signed you in but created no webhook for a channel. Please try again.');
    const channel = jsonString(token.json, 'incoming_webhook', 'channel') ?? channelId;
    const teamName = jsonString(token.json, 'team', 'name');
    return [
      {
        externalId: channelId,
        accountName: channel,
        displayName: teamName ? `${channel} (${teamName})` : channel,
        avatarUrl: null,
        accessToken: url,
        refreshToken: null,
        expiresAt: null,
        scopes: jsonString(token.json, 'scope') ?? 'incoming-webhook',
        platformData: {
          channel,
          channelId,
          teamId: jsonString(token.json, 'team', 'id') ?? null,
          teamName: teamName ?? null,
          configurationUrl: jsonString(token.json, 'incoming_webhook', 'configuration_url') ?? null,
        },
      },
    ];
  },
};
