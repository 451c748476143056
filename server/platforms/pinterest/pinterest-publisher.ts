// Pinterest live adapter: one image pin or one video pin on the connection's board.
//
// Sources:
//   https://developers.pinterest.com/docs/api/v5/pins-create
//     POST /v5/pins { board_id, title, description, link, alt_text, media_source } → Pin { id, … }
//     media_source { source_type: "image_url", url } | { source_type: "video_id", media_id,
//     cover_image_url | cover_image_key_frame_time }
//   https://developers.pinterest.com/docs/api/v5/media-create
//     POST /v5/media { media_type: "video" } → { media_id, upload_url, upload_parameters }; the
//     file is POSTed to upload_url as multipart/form-data with every upload_parameters field
//     and then the file; GET /v5/media/{media_id} → status registered | processing |
//     succeeded | failed
//   https://developers.pinterest.com/docs/getting-started/authentication-and-scopes/ (refresh:
//     grant_type=refresh_token with Basic client authentication)
//
// Board: the connection is one board of the account (chosen at connect, platformData.boardId);
// a post's `boardId` setting pins elsewhere. Pinterest has no idempotency key for pins, so
// request.idempotencyKey is not used.
import { PlatformError, type Publisher, type PublishRequest } from '../publisher';
import { apiEndpoint, callApi, jsonString, multipartBody, pollSettings, pollUntil, UPLOAD_TIMEOUT_MS, type AdapterOptions, type Fetcher } from '../http';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { downloadMedia, imagesOrOneVideo, mediaItems } from '../media';
import { refreshTokenGrant, withAccessToken, type TokenRefresher } from '../token-refresh';
import { oauthApps } from '../oauth-apps';
import { basicAuth, PINTEREST_DEFAULT_BASE_URL, pinterestClient, type PinterestClient } from './pinterest-api';

const { media } = PLATFORM_CATALOGUE.pinterest;

export interface PinterestOptions extends AdapterOptions {
  clientId?: string;
  clientSecret?: string;
}

export function createPinterestPublisher(options: PinterestOptions = {}): Publisher<'pinterest'> {
  return {
    async publish(connection, request, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'PINTEREST_API_BASE_URL', PINTEREST_DEFAULT_BASE_URL);
      const items = mediaItems(request);
      if (items.length === 0) throw new PlatformError('A Pinterest pin needs an image or a video');
      const [item] = imagesOrOneVideo(items, media, {
        mixed: 'A Pinterest pin takes one image or one video',
        tooManyImages: 'A Pinterest pin takes one image',
      });
      const boardId = request.settings.boardId ?? (typeof connection.platformData?.boardId === 'string' ? connection.platformData.boardId : undefined);
      if (!boardId)
        throw new PlatformError('No Pinterest board is set for this connection; reconnect it and choose a board, or set platformSettings.pinterest.boardId');
      const video = item!.kind === 'video' ? await downloadMedia(fetch, item!, media.maxVideoBytes) : null;

      return withAccessToken(connection, pinterestRefresher(fetch, baseUrl, options), tokens, async (token) => {
        const api = pinterestClient(fetch, baseUrl, token, options.timeoutMs);
        const source = video ? await videoSource(api, fetch, video, request, options) : { source_type: 'image_url', url: item!.url };
        const pin = await api.post('/v5/pins', pinBody(boardId, request, source));
        const id = jsonString(pin.json, 'id');
        if (!id) throw new PlatformError('Pinterest created the pin but returned no id');
        return { postedId: id, permalink: `https://www.pinterest.com/pin/${id}/` };
      });
    },
  };
}

function pinBody(boardId: string, request: PublishRequest<'pinterest'>, source: Record<string, unknown>) {
  const { title, link, altText } = request.settings;
  return {
    board_id: boardId,
    ...(title ? { title } : {}),
    ...(request.content ? { description: request.content } : {}),
    ...(link ? { link } : {}),
    ...(altText ? { alt_text: altText } : {}),
    media_source: source,
  };
}

async function videoSource(
  api: PinterestClient,
  fetch: Fetcher,
  video: { bytes: Buffer; contentType: string },
  request: PublishRequest<'pinterest'>,
  options: PinterestOptions,
): Promise<Record<string, unknown>> {
  const registered = await api.post('/v5/media', { media_type: 'video' });
  const mediaId = jsonString(registered.json, 'media_id');
  const uploadUrl = jsonString(registered.json, 'upload_url');
  const parameters = (registered.json as { upload_parameters?: Record<string, unknown> } | null)?.upload_parameters ?? {};
  if (!mediaId || !uploadUrl) throw new PlatformError('Pinterest registered the upload but returned no media_id or upload_url');

  const form = multipartBody([
    ...Object.entries(parameters).map(([name, value]) => ({ name, value: String(value) })),
    { name: 'file', value: video.bytes, filename: 'video', contentType: video.contentType },
  ]);
  const upload = await callApi(fetch, uploadUrl, {
    method: 'POST',
    headers: { 'content-type': form.contentType },
    body: form.body,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
  if (upload.status < 200 || upload.status >= 300) {
    // The upload host is Amazon S3, whose errors are XML: its Message, else the status.
    const message = /<Message>([^<]*)<\/Message>/.exec(upload.text)?.[1] ?? `Pinterest's upload host answered HTTP ${upload.status}`;
    throw new PlatformError(message, { status: upload.status });
  }

  const settled = await pollUntil(pollSettings(options), async () => {
    const status = await api.get(`/v5/media/${encodeURIComponent(mediaId)}`);
    const state = jsonString(status.json, 'status');
    if (state === 'failed') throw new PlatformError('Pinterest could not process the video (media status "failed")');
    return state === 'succeeded' ? true : undefined;
  });
  if (!settled) throw new PlatformError('Pinterest was still processing the video when Herald stopped waiting');

  const cover = request.settings.coverImageUrl;
  return { source_type: 'video_id', media_id: mediaId, ...(cover ? { cover_image_url: cover } : { cover_image_key_frame_time: 0 }) };
}

export function pinterestRefresher(fetch: Fetcher, baseUrl: string, options: PinterestOptions): TokenRefresher | null {
  const app = oauthApps.pinterest();
  const clientId = options.clientId ?? app?.clientId;
  const clientSecret = options.clientSecret ?? app?.clientSecret;
  if (!clientId || !clientSecret) return null;
  return refreshTokenGrant(fetch, {
    platform: 'Pinterest',
    url: `${baseUrl}/v5/oauth/token`,
    client: {},
    headers: { authorization: basicAuth(clientId, clientSecret) },
    errorKeys: ['message', 'error'],
    requireOkStatus: true,
    timeoutMs: options.timeoutMs,
  });
}
