// Kick live adapter: the post's text as a chat message in the connected user's own channel,
// sent as the user.
//
// Sources:
//   https://docs.kick.com/apis/chat (OpenAPI: https://api.kick.com/swagger/v1/doc.json, POST /chat)
//     POST /public/v1/chat { type: "user", broadcaster_user_id, content } (scope chat:write;
//     content at most 500 characters) → 200 { data: { is_sent, message_id }, message }
//   https://docs.kick.com/getting-started/generating-tokens-oauth2-flow (refresh: grant_type=
//     refresh_token with client_id and client_secret at id.kick.com/oauth/token; both tokens are
//     replaced)
//
// postedId is Kick's message_id; a chat message has no address of its own, so the permalink is
// the channel's page (kick.com/{slug}), where its chat is. Kick takes no idempotency key and
// its chat cannot be read back: an interrupted send is for a person (the catalogue's reconcile).
import { PlatformError, type PublishableConnection, type Publisher } from '../publisher';
import { apiEndpoint, baseUrlFromEnv, jsonAt, jsonString, type AdapterOptions, type Fetcher } from '../http';
import { oauthApps } from '../oauth-apps';
import { refreshTokenGrant, withAccessToken, type TokenRefresher } from '../token-refresh';
import { KICK_DEFAULT_BASE_URL, KICK_DEFAULT_OAUTH_BASE_URL, kickClient, kickErrorMessage } from './kick-api';

export interface KickOptions extends AdapterOptions {
  clientId?: string;
  clientSecret?: string;
  /** Where tokens are refreshed (otherwise KICK_OAUTH_BASE_URL/token). */
  tokenUrl?: string;
}

/** The channel's page on Kick: where its chat, and so the message, is seen. */
export function kickChannelUrl(slug: string): string {
  return `https://kick.com/${encodeURIComponent(slug)}`;
}

function channelSlug(connection: PublishableConnection): string {
  const slug = connection.platformData?.slug;
  return typeof slug === 'string' && slug ? slug : connection.accountName;
}

export function createKickPublisher(options: KickOptions = {}): Publisher<'kick'> {
  return {
    async publish(connection, request, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'KICK_API_BASE_URL', KICK_DEFAULT_BASE_URL);
      const content = request.content.trim();
      if (!content) throw new PlatformError('A Kick chat message needs text');
      if (request.mediaUrls.length > 0) throw new PlatformError('Kick chat takes text only');
      // The API takes the broadcaster's id as an integer.
      const broadcasterId = Number(connection.externalId);
      if (!Number.isSafeInteger(broadcasterId))
        throw new PlatformError(`The stored Kick user id "${connection.externalId}" is not a number; reconnect the account`);

      return withAccessToken(connection, kickRefresher(fetch, options), tokens, async (token) => {
        const api = kickClient(fetch, baseUrl, token, options.timeoutMs);
        const sent = await api.call('POST', '/chat', { json: { type: 'user', broadcaster_user_id: broadcasterId, content } });
        if (jsonAt(sent.json, 'data', 'is_sent') !== true) throw new PlatformError(kickErrorMessage(sent), { status: sent.status });
        const id = jsonString(sent.json, 'data', 'message_id');
        if (!id) throw new PlatformError('Kick sent the message but returned no id');
        return { postedId: id, permalink: kickChannelUrl(channelSlug(connection)) };
      });
    },
  };
}

export function kickRefresher(fetch: Fetcher, options: KickOptions): TokenRefresher | null {
  const app = oauthApps.kick();
  const clientId = options.clientId ?? app?.clientId;
  const clientSecret = options.clientSecret ?? app?.clientSecret;
  if (!clientId || !clientSecret) return null;
  return refreshTokenGrant(fetch, {
    platform: 'Kick',
    url: options.tokenUrl ?? app?.tokenUrl ?? `${baseUrlFromEnv('KICK_OAUTH_BASE_URL', KICK_DEFAULT_OAUTH_BASE_URL)}/token`,
    client: { client_id: clientId, client_secret: clientSecret },
    errorKeys: ['error', 'message'],
    requireOkStatus: true,
    timeoutMs: options.timeoutMs,
  });
}
