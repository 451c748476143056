// Discord live adapter: posts through the channel's incoming webhook, which the client created
// at consent (OAuth2 scope webhook.incoming, server/connect/oauth/providers/discord.ts).
//
// Sources:
//   https://discord.com/developers/docs/resources/webhook#execute-webhook
//     POST /webhooks/{id}/{token}?wait=true { content, username, thread_name, flags,
//     attachments } → the message; with files, multipart/form-data: payload_json + files[n]
//   https://discord.com/developers/docs/reference#uploading-files (attachments[].id = n)
//   https://discord.com/developers/docs/topics/rate-limits (429 with retry_after in the body)
//
// The webhook token is the secret (the connection's sealed access token); its id, channel and
// server are platformData. Media ride as attachments, which Discord shows inline; a post may
// add one card (the `embed` setting: title, text, link, colour) as the message's embed. A deleted webhook
// (Unknown Webhook) or a revoked token → TokenExpiredError: the client reconnects. Webhooks
// never expire and take no idempotency key.
import { PlatformError, TokenExpiredError, type Publisher } from '../publisher';
import { apiEndpoint, callApi, isSuccess, jsonString, multipartBody, UPLOAD_TIMEOUT_MS, type AdapterOptions, type MultipartPart } from '../http';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { downloadMedia, mediaItems } from '../media';
import { DISCORD_DEFAULT_BASE_URL, discordError, discordRetryAfter } from './discord-api';

const { media } = PLATFORM_CATALOGUE.discord;
/** Discord's message flag SUPPRESS_EMBEDS (1 << 2). */
const SUPPRESS_EMBEDS = 1 << 2;

/** The post's card as Discord's embed object (colour as an integer, as the API takes it). */
function discordEmbed(embed: { title?: string; description?: string; url?: string; color?: string }): Record<string, unknown> {
  return {
    ...(embed.title ? { title: embed.title } : {}),
    ...(embed.description ? { description: embed.description } : {}),
    ...(embed.url ? { url: embed.url } : {}),
    ...(embed.color ? { color: Number.parseInt(embed.color.slice(1), 16) } : {}),
  };
}

export function createDiscordPublisher(options: AdapterOptions = {}): Publisher<'discord'> {
  return {
    async publish(connection, request) {
      const { fetch, baseUrl } = apiEndpoint(options, 'DISCORD_API_BASE_URL', DISCORD_DEFAULT_BASE_URL);
      const data = connection.platformData ?? {};
      const webhookId = typeof data.webhookId === 'string' ? data.webhookId : null;
      if (!webhookId || !connection.accessToken) throw new TokenExpiredError('No Discord webhook is stored for this channel; reconnect it to publish.');
      const items = mediaItems(request);
      if (items.length > media.maxItems) throw new PlatformError(`A Discord message takes at most ${media.maxItems} files`);

      const { settings } = request;
      const payload: Record<string, unknown> = {
        content: request.content,
        ...(settings.username ? { username: settings.username } : {}),
        ...(settings.threadName ? { thread_name: settings.threadName } : {}),
        ...(settings.suppressEmbeds ? { flags: SUPPRESS_EMBEDS } : {}),
        ...(settings.embed ? { embeds: [discordEmbed(settings.embed)] } : {}),
      };
      const url = `${baseUrl}/webhooks/${webhookId}/${connection.accessToken}?wait=true`;

      let response;
      if (items.length === 0) {
        response = await callApi(fetch, url, { method: 'POST', json: payload, timeoutMs: options.timeoutMs, retryAfter: discordRetryAfter });
      } else {
        const files = await Promise.all(
          items.map(async (item, index) => {
            const file = await downloadMedia(fetch, item, item.kind === 'video' ? media.maxVideoBytes : media.maxImageBytes);
            const filename = new URL(item.url).pathname.split('/').pop() || `file${index}`;
            return { index, filename, ...file };
          }),
        );
        payload.attachments = files.map((f) => ({ id: f.index, filename: f.filename }));
        const parts: MultipartPart[] = [
          { name: 'payload_json', value: JSON.stringify(payload), contentType: 'application/json' },
          ...files.map((f) => ({ name: `files[${f.index}]`, value: f.bytes, filename: f.filename, contentType: f.contentType })),
        ];
        const { body, contentType } = multipartBody(parts);
        response = await callApi(fetch, url, {
          method: 'POST',
          headers: { 'content-type': contentType },
          body,
          timeoutMs: UPLOAD_TIMEOUT_MS,
          retryAfter: discordRetryAfter,
        });
      }
      if (!isSuccess(response)) throw discordError(response);

      const messageId = jsonString(response.json, 'id');
      if (!messageId) throw new PlatformError('Discord accepted the message but returned no id');
      // In a forum the message opens a new thread: its channel_id is the thread's.
      const channelId = jsonString(response.json, 'channel_id') ?? (typeof data.channelId === 'string' ? data.channelId : null);
      const guildId = typeof data.guildId === 'string' ? data.guildId : null;
      return {
        postedId: messageId,
        permalink: guildId && channelId ? `https://discord.com/channels/${guildId}/${channelId}/${messageId}` : null,
      };
    },
  };
}
