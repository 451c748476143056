// Mastodon live adapter: posts to the account's own server (platformData.instanceUrl).
//
// Sources:
//   https://docs.joinmastodon.org/methods/media/#v2 POST /api/v2/media (multipart: file,
//     description) → 200 with url, or 202 with url null while the server still processes it
//   https://docs.joinmastodon.org/methods/media/#get GET /api/v1/media/:id → 206 while
//     processing, 200 with url when done
//   https://docs.joinmastodon.org/methods/statuses/#create POST /api/v1/statuses { status,
//     media_ids[], visibility, spoiler_text, sensitive, language } with Idempotency-Key
//     (the server keeps the key an hour and answers a repeat with the same status)
//
// The server's own text limit (platformData.maxChars, read from /api/v2/instance at connect)
// and attachment cap are checked before any upload. Tokens do not expire; a 401 means the
// client revoked the app → TokenExpiredError. Every call goes through the guarded client, so
// a server's address must pass the outbound guard like any other host.
import { PlatformError, TokenExpiredError, type Publisher, type PublishRequest } from '../publisher';
import { jsonAt, jsonString, multipartBody, pollSettings, pollUntil, UPLOAD_TIMEOUT_MS, defaultFetch, type AdapterOptions, type Fetcher } from '../http';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { downloadMedia, imagesOrOneVideo, mediaItems, type MediaItem } from '../media';
import { mastodonClient, type MastodonClient } from './mastodon-api';

const { text: textRules, media } = PLATFORM_CATALOGUE.mastodon;

interface MastodonServer {
  origin: string;
  maxChars: number;
  maxMedia: number;
  imageSizeLimit: number;
  videoSizeLimit: number;
}

export function serverOf(data: Readonly<Record<string, unknown>>, baseUrl: string | undefined): MastodonServer {
  const num = (key: string, fallback: number) => (typeof data[key] === 'number' && (data[key] as number) > 0 ? (data[key] as number) : fallback);
  const origin = baseUrl ?? (typeof data.instanceUrl === 'string' ? data.instanceUrl : null);
  if (!origin) throw new TokenExpiredError('No Mastodon server is stored for this account; reconnect it to publish.');
  return {
    origin: origin.replace(/\/+$/, ''),
    maxChars: num('maxChars', textRules.maxChars),
    maxMedia: num('maxMedia', media.maxImages),
    imageSizeLimit: num('imageSizeLimit', media.maxImageBytes),
    videoSizeLimit: num('videoSizeLimit', media.maxVideoBytes),
  };
}

export function createMastodonPublisher(options: AdapterOptions = {}): Publisher<'mastodon'> {
  return {
    async publish(connection, request) {
      const fetch = options.fetch ?? defaultFetch();
      // Each account lives on its own server: options.baseUrl (tests) stands in for it.
      const server = serverOf(connection.platformData ?? {}, options.baseUrl);
      const length = textRules.count(request.content);
      if (length > server.maxChars) throw new PlatformError(`This Mastodon server allows ${server.maxChars} characters; this text counts ${length}`);
      const items = imagesOrOneVideo(
        mediaItems(request),
        { ...media, maxImages: server.maxMedia },
        { mixed: 'A Mastodon post takes images or one video, not both', tooManyImages: `This Mastodon server takes at most ${server.maxMedia} images` },
      );
      if (!connection.accessToken) throw new TokenExpiredError('No access token is stored for this account; reconnect it to publish.');

      const api = mastodonClient(fetch, server.origin, connection.accessToken, options.timeoutMs);
      const mediaIds: string[] = [];
      for (const [index, item] of items.entries()) {
        mediaIds.push(await uploadMedia(api, fetch, item, request.settings.altTexts?.[index], server, options));
      }
      const status = await api.call('POST', '/api/v1/statuses', {
        headers: request.idempotencyKey ? { 'idempotency-key': request.idempotencyKey } : undefined,
        json: statusBody(request, mediaIds),
      });
      const id = jsonString(status.json, 'id');
      if (!id) throw new PlatformError('Mastodon accepted the post but returned no id');
      return { postedId: id, permalink: jsonString(status.json, 'url') ?? null };
    },
  };
}

function statusBody(request: PublishRequest<'mastodon'>, mediaIds: string[]) {
  const { visibility, spoilerText, sensitive, language } = request.settings;
  return {
    status: request.content,
    // A thread's later part answers the part before.
    ...(request.replyTo ? { in_reply_to_id: request.replyTo } : {}),
    ...(mediaIds.length ? { media_ids: mediaIds } : {}),
    ...(visibility ? { visibility } : {}),
    ...(spoilerText ? { spoiler_text: spoilerText } : {}),
    ...(sensitive !== undefined ? { sensitive } : {}),
    ...(language ? { language } : {}),
  };
}

async function uploadMedia(
  api: MastodonClient,
  fetch: Fetcher,
  item: MediaItem,
  description: string | undefined,
  server: MastodonServer,
  options: AdapterOptions,
): Promise<string> {
  const file = await downloadMedia(fetch, item, item.kind === 'video' ? server.videoSizeLimit : server.imageSizeLimit);
  const filename = new URL(item.url).pathname.split('/').pop() || (item.kind === 'video' ? 'video.mp4' : 'image.jpg');
  const { body, contentType } = multipartBody([
    { name: 'file', value: file.bytes, filename, contentType: file.contentType },
    ...(description?.trim() ? [{ name: 'description', value: description.trim() }] : []),
  ]);
  const uploaded = await api.call('POST', '/api/v2/media', { headers: { 'content-type': contentType }, body, timeoutMs: UPLOAD_TIMEOUT_MS });
  const id = jsonString(uploaded.json, 'id');
  if (!id) throw new PlatformError('Mastodon accepted the media but returned no id');
  if (uploaded.status === 200 && jsonAt(uploaded.json, 'url')) return id;

  // 202: the server processes the file in the background; the status can only use it once url is set.
  const ready = await pollUntil(pollSettings(options), async () => {
    const attachment = await api.call('GET', `/api/v1/media/${encodeURIComponent(id)}`);
    return attachment.status === 200 && jsonAt(attachment.json, 'url') ? true : undefined;
  });
  if (!ready) throw new PlatformError('Mastodon was still processing the media when Herald stopped waiting');
  return id;
}
