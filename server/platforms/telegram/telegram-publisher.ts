// Telegram live adapter: the deployment's bot (TELEGRAM_BOT_TOKEN) posts to a channel that made
// it an administrator who can post messages (the connect flow checked that).
//
// Sources (https://core.telegram.org/bots/api):
//   #sendmessage      text 1-4096, link_preview_options, disable_notification, protect_content
//   #sendphoto, #sendvideo  one file with a caption of 0-1024
//   #sendmediagroup   2-10 photos and videos as an album; answers an array of Messages; the
//                     caption of the first item is the album's
//   #sending-files    by URL Telegram downloads up to 5 MB for photos and 20 MB for other
//                     files; uploaded as multipart/form-data up to 10 MB for photos and 50 MB
//   #making-requests  { ok: false, error_code, description, parameters.retry_after }
//
// Files go by URL (Telegram fetches them from our storage) while they fit the URL limits; a
// larger one (found by a HEAD request to our storage) is read and uploaded as bytes instead.
// The bot's grant never lapses by itself: it ends when the channel removes the bot or its
// rights (403, or a 400 about the chat or rights) → TokenExpiredError, reconnect. A refused
// bot token (401) is the deployment's fault, not the account's: a PlatformError.
// Telegram has no idempotency key for sending.
import { env } from '@/server/config/env';
import { PlatformError, TokenExpiredError, type Publisher, type PublishRequest } from '../publisher';
import { apiEndpoint, jsonAt, jsonString, UPLOAD_TIMEOUT_MS, type AdapterOptions, type Fetcher, type MultipartPart } from '../http';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { downloadMedia, mediaItems, type MediaItem } from '../media';
import { MB } from '../catalogue/entry';
import { botIdOf, TELEGRAM_DEFAULT_BASE_URL, TelegramApiError, telegramClient, type TelegramClient } from './telegram-api';

const { media } = PLATFORM_CATALOGUE.telegram;
/** What Telegram downloads by URL itself (https://core.telegram.org/bots/api#sending-files). */
const URL_LIMIT = { image: 5 * MB, video: 20 * MB } as const;
/** What a bot may upload. */
const UPLOAD_LIMIT = { image: media.maxImageBytes, video: media.maxVideoBytes } as const;

export interface TelegramOptions extends AdapterOptions {
  /** The deployment's bot token; TELEGRAM_BOT_TOKEN by default. */
  botToken?: string;
}

/** What the connect flow stored (server/connect/oauth/providers/telegram.ts). */
interface TelegramChannel {
  chatId: string;
  username: string | null;
  botId: string | null;
}

function channelOf(connection: { externalId: string; platformData?: Readonly<Record<string, unknown>> }): TelegramChannel {
  const data = connection.platformData ?? {};
  const text = (key: string) => (typeof data[key] === 'string' || typeof data[key] === 'number' ? String(data[key]) : null);
  return { chatId: text('chatId') ?? connection.externalId, username: text('username'), botId: text('botId') };
}

export function createTelegramPublisher(options: TelegramOptions = {}): Publisher<'telegram'> {
  return {
    async publish(connection, request) {
      const { fetch, baseUrl } = apiEndpoint(options, 'TELEGRAM_API_BASE_URL', TELEGRAM_DEFAULT_BASE_URL);
      const botToken = options.botToken ?? env.telegramBotToken();
      if (!botToken) throw new PlatformError('No Telegram bot is configured on this Herald (TELEGRAM_BOT_TOKEN)');
      const channel = channelOf(connection);
      if (channel.botId && channel.botId !== botIdOf(botToken)) {
        throw new TokenExpiredError('This channel was connected to another Telegram bot; reconnect it to add the current bot.');
      }
      const items = mediaItems(request);
      if (items.length > media.maxItems) throw new PlatformError(`A Telegram album takes at most ${media.maxItems} photos and videos`);

      const api = telegramClient(fetch, baseUrl, botToken, options.timeoutMs);
      let messageId: string | undefined;
      try {
        messageId = await send(api, fetch, channel.chatId, request, items);
      } catch (error) {
        throw error instanceof TelegramApiError ? mapError(error) : error;
      }
      if (!messageId) throw new PlatformError('Telegram accepted the message but returned no message_id');
      // A private channel has no public address: its t.me/c/… links open only for members, so
      // Herald gives no permalink there.
      return { postedId: messageId, permalink: channel.username ? `https://t.me/${channel.username}/${messageId}` : null };
    },
  };
}

/** The bot lost its place or rights in the channel: only reconnecting (re-adding the bot) helps. */
const LOST_CHANNEL = /chat not found|not enough rights|need administrator rights|bot is not a member|bot was kicked|CHAT_WRITE_FORBIDDEN|CHAT_ADMIN_REQUIRED/i;

function mapError(error: TelegramApiError): PlatformError {
  if (error.status === 403 || (error.status === 400 && LOST_CHANNEL.test(error.message))) return new TokenExpiredError(error.message);
  return new PlatformError(error.message, { status: error.status });
}

async function send(api: TelegramClient, fetch: Fetcher, chatId: string, request: PublishRequest<'telegram'>, items: MediaItem[]): Promise<string | undefined> {
  const { settings } = request;
  const common = {
    chat_id: chatId,
    ...(settings.silent ? { disable_notification: true } : {}),
    ...(settings.protectContent ? { protect_content: true } : {}),
  };
  if (items.length === 0) {
    const result = await api.call('sendMessage', {
      ...common,
      text: request.content,
      ...(settings.disableLinkPreview ? { link_preview_options: { is_disabled: true } } : {}),
    });
    return jsonString(result, 'message_id');
  }

  const files = await Promise.all(items.map((item, index) => fileFor(fetch, item, `file${index}`)));
  const caption = request.content || undefined;
  const uploads = files.flatMap((f) => (f.part ? [f.part] : []));

  if (items.length === 1) {
    const [item] = items;
    const [file] = files;
    const field = item!.kind === 'video' ? 'video' : 'photo';
    const method = item!.kind === 'video' ? 'sendVideo' : 'sendPhoto';
    const params = { ...common, caption, ...(item!.kind === 'video' ? { supports_streaming: true } : {}) };
    const result = file!.part
      ? await api.upload(method, [...formParts(params), { ...file!.part, name: field }], UPLOAD_TIMEOUT_MS)
      : await api.call(method, { ...params, [field]: file!.media });
    return jsonString(result, 'message_id');
  }

  const album = items.map((item, index) => ({
    type: item.kind === 'video' ? 'video' : 'photo',
    media: files[index]!.media,
    ...(index === 0 && caption ? { caption } : {}),
  }));
  const result = uploads.length
    ? await api.upload('sendMediaGroup', [...formParts({ ...common, media: album }), ...uploads], UPLOAD_TIMEOUT_MS)
    : await api.call('sendMediaGroup', { ...common, media: album });
  return jsonString(jsonAt(result, 0), 'message_id');
}

/** The file as Telegram takes it: its URL, or `attach://<name>` with the bytes as a part. */
async function fileFor(fetch: Fetcher, item: MediaItem, name: string): Promise<{ media: string; part?: MultipartPart }> {
  const size = await storedSize(fetch, item.url);
  if (size === null || size <= URL_LIMIT[item.kind]) return { media: item.url };
  const { bytes, contentType } = await downloadMedia(fetch, item, UPLOAD_LIMIT[item.kind]);
  const filename = new URL(item.url).pathname.split('/').pop() || name;
  return { media: `attach://${name}`, part: { name, value: bytes, filename, contentType } };
}

/** The size our storage declares for a file, or null when it does not say. */
async function storedSize(fetch: Fetcher, url: string): Promise<number | null> {
  try {
    // No body comes back; a byte cap would only be checked against the file's declared length.
    const head = await fetch(url, { method: 'HEAD', timeoutMs: 10_000, maxBytes: Number.MAX_SAFE_INTEGER });
    const length = Number(head.headers.get('content-length'));
    return head.status < 300 && Number.isFinite(length) && length > 0 ? length : null;
  } catch {
    return null;
  }
}

/** Multipart fields: strings as they are, anything else as JSON (Telegram's rule for objects). */
function formParts(params: Record<string, unknown>): MultipartPart[] {
  return Object.entries(params)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ({ name, value: typeof value === 'string' ? value : JSON.stringify(value) }));
}
