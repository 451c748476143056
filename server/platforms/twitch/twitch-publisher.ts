// Twitch live adapter: the post's text in the chat room of the broadcaster who connected, sent
// as the broadcaster, as a chat message or (the messageType setting) an announcement.
//
// Sources:
//   https://dev.twitch.tv/docs/api/reference/chat#send-chat-message
//     POST /helix/chat/messages { broadcaster_id, sender_id, message } (scope user:write:chat;
//     sender_id must be the token's user) → 200 { data: [{ message_id, is_sent, drop_reason:
//     { code, message } }] }: a message Twitch's checks dropped (AutoMod, a blocked term, a chat
//     mode) answers 200 with is_sent false and the reason.
//   https://dev.twitch.tv/docs/api/reference/chat#send-chat-announcement
//     POST /helix/chat/announcements?broadcaster_id&moderator_id { message, color } (scope
//     moderator:manage:announcements; the broadcaster moderates their own chat) → 204 No Content.
//   https://dev.twitch.tv/docs/authentication/refresh-tokens/ (grant_type=refresh_token with
//     client_id and client_secret; a refused refresh token is 400 "Invalid refresh token")
//
// A chat message's postedId is Twitch's message_id. An announcement answers 204 with no id:
// its postedId is the target's idempotency key (a fresh id without one), as Slack's is. Neither
// has an address of its own on Twitch; the permalink is the channel's page, where its chat is.
// Neither takes an idempotency key, and chat cannot be read back: an interrupted send is for a
// person to settle (the catalogue's reconcile entry).
import { randomUUID } from 'node:crypto';
import { PlatformError, type PublishableConnection, type Publisher } from '../publisher';
import { apiEndpoint, baseUrlFromEnv, jsonAt, jsonString, type AdapterOptions, type Fetcher } from '../http';
import { oauthApps } from '../oauth-apps';
import { refreshTokenGrant, withAccessToken, type TokenRefresher } from '../token-refresh';
import { TWITCH_DEFAULT_BASE_URL, TWITCH_DEFAULT_OAUTH_BASE_URL, twitchClient } from './twitch-api';

export interface TwitchOptions extends AdapterOptions {
  clientId?: string;
  clientSecret?: string;
  /** Where tokens are refreshed (otherwise TWITCH_OAUTH_BASE_URL/token). */
  tokenUrl?: string;
}

/** The channel's page on Twitch: where its chat, and so the message, is seen. */
export function twitchChannelUrl(login: string): string {
  return `https://www.twitch.tv/${encodeURIComponent(login)}`;
}

function channelLogin(connection: PublishableConnection): string {
  const login = connection.platformData?.login;
  return typeof login === 'string' && login ? login : connection.accountName;
}

export function createTwitchPublisher(options: TwitchOptions = {}): Publisher<'twitch'> {
  return {
    async publish(connection, request, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'TWITCH_API_BASE_URL', TWITCH_DEFAULT_BASE_URL);
      const clientId = options.clientId ?? oauthApps.twitch()?.clientId;
      // Helix refuses every call without the app's Client-Id.
      if (!clientId) throw new PlatformError('No Twitch app is configured on this Herald (TWITCH_CLIENT_ID), so Twitch cannot be called');
      const broadcasterId = connection.externalId;
      const message = request.content.trim();
      if (!message) throw new PlatformError('A Twitch chat message needs text');
      if (request.mediaUrls.length > 0) throw new PlatformError('Twitch chat takes text only');
      const permalink = twitchChannelUrl(channelLogin(connection));

      return withAccessToken(connection, twitchRefresher(fetch, options), tokens, async (token) => {
        const api = twitchClient(fetch, baseUrl, clientId, token, options.timeoutMs);
        if (request.settings.messageType === 'announcement') {
          const query = new URLSearchParams({ broadcaster_id: broadcasterId, moderator_id: broadcasterId });
          await api.call('POST', `/chat/announcements?${query}`, { json: { message, color: request.settings.color ?? 'primary' } });
          return { postedId: request.idempotencyKey ?? randomUUID(), permalink };
        }
        const sent = await api.call('POST', '/chat/messages', { json: { broadcaster_id: broadcasterId, sender_id: broadcasterId, message } });
        const answer = jsonAt(sent.json, 'data', 0);
        if (jsonAt(answer, 'is_sent') !== true) {
          // Twitch's own reason, verbatim; its code when it gave no words.
          const reason = jsonString(answer, 'drop_reason', 'message') || jsonString(answer, 'drop_reason', 'code') || 'Twitch did not send the message';
          throw new PlatformError(reason);
        }
        const id = jsonString(answer, 'message_id');
        if (!id) throw new PlatformError('Twitch sent the message but returned no id');
        return { postedId: id, permalink };
      });
    },
  };
}

export function twitchRefresher(fetch: Fetcher, options: TwitchOptions): TokenRefresher | null {
  const app = oauthApps.twitch();
  const clientId = options.clientId ?? app?.clientId;
  const clientSecret = options.clientSecret ?? app?.clientSecret;
  if (!clientId || !clientSecret) return null;
  return refreshTokenGrant(fetch, {
    platform: 'Twitch',
    url: options.tokenUrl ?? app?.tokenUrl ?? `${baseUrlFromEnv('TWITCH_OAUTH_BASE_URL', TWITCH_DEFAULT_OAUTH_BASE_URL)}/token`,
    client: { client_id: clientId, client_secret: clientSecret },
    errorKeys: ['message', 'error'],
    requireOkStatus: true,
    timeoutMs: options.timeoutMs,
  });
}
