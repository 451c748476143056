// Discord: OAuth2 authorization code with the scope webhook.incoming
// (https://discord.com/developers/docs/topics/oauth2#webhooks). On the consent page the client
// picks the server and the channel; the token response carries the new incoming webhook
// { id, token, channel_id, guild_id, name, url, … }. That webhook is what Herald keeps: its
// token as the (sealed) access token, its ids in platformData. The OAuth access token itself
// is not needed to post and is not kept. Discord does not document PKCE, so none is sent.
//   token: POST <api>/oauth2/token (form, client_id + client_secret)
import { callApi, firstJsonString, isSuccess, jsonString, withQuery } from '@/server/platforms/http';
import { OAuthFlowError, type OAuthProvider } from '../oauth-provider';

export const discordOAuth: OAuthProvider = {
  label: 'Discord',
  pkce: false,
  // Discord's own page asks for the server and channel; one webhook comes back.
  choose: false,
  authorizeUrl: ({ app, state, redirectUri }) =>
    withQuery(app.authorizeUrl, { response_type: 'code', client_id: app.clientId, scope: 'webhook.incoming', redirect_uri: redirectUri, state }),

  async connect(fetch, { app, code, redirectUri }) {
    const token = await callApi(fetch, app.tokenUrl, {
      form: { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: app.clientId, client_secret: app.clientSecret ?? undefined },
    });
    if (!isSuccess(token)) {
      const why = firstJsonString(token.json, ['error_description', 'error', 'message']) ?? `HTTP ${token.status}`;
      throw new OAuthFlowError(`Discord did not accept the sign-in (${why}). Please try again.`);
    }
    const id = jsonString(token.json, 'webhook', 'id');
    const webhookToken = jsonString(token.json, 'webhook', 'token');
    const channelId = jsonString(token.json, 'webhook', 'channel_id');
    if (!id || !webhookToken || !channelId) throw new OAuthFlowError('Discord signed you in but created no webhook for a channel. Please try again.');
    const name = jsonString(token.json, 'webhook', 'name') ?? 'Discord webhook';
    return [
      {
        externalId: id,
        accountName: name,
        displayName: name,
        avatarUrl: null,
        accessToken: webhookToken,
        refreshToken: null,
        expiresAt: null,
        scopes: jsonString(token.json, 'scope') ?? 'webhook.incoming',
        platformData: { webhookId: id, channelId, guildId: jsonString(token.json, 'webhook', 'guild_id') ?? null, name },
      },
    ];
  },
};
