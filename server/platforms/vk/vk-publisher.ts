// VK live adapter: one wall post on the wall chosen at connect (platformData.ownerId: the
// user's id, or minus a community's id).
//
// Sources (VK API v5.199):
//   https://dev.vk.com/ru/method/wall.post
//     owner_id, from_group (1: as the community), message, attachments (comma-separated
//     <type><owner_id>_<media_id>, at most 10), signed, copyright, guid ("a unique identifier
//     that keeps the same post from being sent twice", for an hour) → { response: { post_id } }
//   https://dev.vk.com/ru/api/upload/wall-photo
//     photos.getWallUploadServer(group_id) → { upload_url }; POST the file as the multipart
//     field `photo` → { server, photo, hash }; photos.saveWallPhoto(group_id | user_id, photo,
//     server, hash) → [{ id, owner_id }] → attachment photo<owner_id>_<id>
//   https://dev.vk.com/ru/api/upload/video (video.save(name, wallpost=0, group_id) →
//     { upload_url, video_id, owner_id }; POST the file as the multipart field `video_file`)
//   https://id.vk.com/about/business/go/docs/ru/vkid/latest/vk-id/connection/api-integration/api-description
//     (POST id.vk.com/oauth2/auth grant_type=refresh_token, refresh_token, client_id, device_id,
//     state → a new access token for an hour and a new refresh token)
// The post's permalink is https://vk.com/wall<owner_id>_<post_id>, and its postedId the same
// <owner_id>_<post_id>, which wall.getById takes as is.
import { randomBytes } from 'node:crypto';
import { PlatformError, TokenExpiredError, type Publisher, type PublishableConnection } from '../publisher';
import { apiEndpoint, callApi, isSuccess, jsonAt, jsonString, multipartBody, UPLOAD_TIMEOUT_MS, type AdapterOptions, type Fetcher } from '../http';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { downloadMedia, mediaItems, type MediaItem } from '../media';
import { oauthApps } from '../oauth-apps';
import { refreshTokenGrant, withAccessToken, type TokenRefresher } from '../token-refresh';
import { VK_DEFAULT_BASE_URL, VK_ID_DEFAULT_BASE_URL, vkClient, vkErrorOf, type VkClient } from './vk-api';

const { media } = PLATFORM_CATALOGUE.vk;

export interface VkOptions extends AdapterOptions {
  clientId?: string;
  /** VK ID's base (its token endpoint is /oauth2/auth). */
  idBaseUrl?: string;
}

export interface VkWall {
  /** The wall's owner_id: the user's id, or minus the community's id. */
  ownerId: number;
  /** The community's id (positive) when the wall is a community's. */
  groupId: number | null;
}

/** The wall the connection posts to, as the connect flow stored it. */
export function vkWall(connection: PublishableConnection): VkWall {
  const ownerId = Number(connection.platformData?.ownerId);
  if (!Number.isInteger(ownerId) || ownerId === 0) throw new TokenExpiredError('No VK wall is stored for this account; reconnect it to publish.');
  return { ownerId, groupId: ownerId < 0 ? -ownerId : null };
}

export function vkPermalink(postedId: string): string {
  return `https://vk.com/wall${postedId}`;
}

interface ReadFile {
  item: MediaItem;
  filename: string;
  bytes: Buffer;
  contentType: string;
}

export function createVkPublisher(options: VkOptions = {}): Publisher<'vk'> {
  return {
    async publish(connection, request, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'VK_API_BASE_URL', VK_DEFAULT_BASE_URL);
      const wall = vkWall(connection);
      const items = mediaItems(request);
      if (items.length > media.maxItems) throw new PlatformError(`A VK post takes at most ${media.maxItems} attachments`);
      if (!request.content.trim() && items.length === 0) throw new PlatformError('A VK post needs text or media');

      // Read once, before the token is used: a refresh and a second try upload the same bytes.
      const files: ReadFile[] = await Promise.all(
        items.map(async (item, index) => {
          const file = await downloadMedia(fetch, item, item.kind === 'video' ? media.maxVideoBytes : media.maxImageBytes!);
          const filename = new URL(item.url).pathname.split('/').pop() || `${item.kind}-${index + 1}`;
          return { item, filename, ...file };
        }),
      );
      const { signed, source } = request.settings;

      return withAccessToken(connection, vkRefresher(fetch, connection, options), tokens, async (token) => {
        const api = vkClient(fetch, baseUrl, token, options.timeoutMs);
        const attachments: string[] = [];
        for (const file of files) {
          attachments.push(file.item.kind === 'video' ? await uploadVideo(api, fetch, wall, file) : await uploadPhoto(api, fetch, wall, file));
        }
        const created = await api.call('wall.post', {
          owner_id: wall.ownerId,
          from_group: wall.groupId ? 1 : undefined,
          signed: wall.groupId && signed ? 1 : undefined,
          message: request.content || undefined,
          attachments: attachments.length ? attachments.join(',') : undefined,
          copyright: source,
          // VK keeps a second wall.post with the same guid out for an hour.
          guid: request.idempotencyKey,
        });
        const postId = jsonString(created, 'post_id');
        if (!postId) throw new PlatformError('VK created the post but returned no post_id');
        const postedId = `${wall.ownerId}_${postId}`;
        return { postedId, permalink: vkPermalink(postedId) };
      });
    },
  };
}

/** One file to an upload address VK handed out; its answer is JSON, with `error` on a refusal. */
async function upload(fetch: Fetcher, url: string, field: string, file: ReadFile): Promise<unknown> {
  const form = multipartBody([{ name: field, value: file.bytes, filename: file.filename, contentType: file.contentType }]);
  const response = await callApi(fetch, url, {
    method: 'POST',
    headers: { 'content-type': form.contentType },
    body: form.body,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
  const refusal = vkErrorOf(response.json)?.message ?? (typeof jsonAt(response.json, 'error') === 'string' ? jsonString(response.json, 'error') : undefined);
  if (!isSuccess(response) || refusal) {
    throw new PlatformError(refusal ?? (response.text.trim() || `VK's upload server answered HTTP ${response.status}`), { status: response.status });
  }
  return response.json;
}

async function uploadPhoto(api: VkClient, fetch: Fetcher, wall: VkWall, file: ReadFile): Promise<string> {
  const server = await api.call('photos.getWallUploadServer', { group_id: wall.groupId ?? undefined });
  const url = jsonString(server, 'upload_url');
  if (!url) throw new PlatformError('VK gave no address to upload the photo to');
  const uploaded = await upload(fetch, url, 'photo', file);
  const photo = jsonString(uploaded, 'photo');
  if (!photo || photo === '[]') throw new PlatformError('VK did not accept the photo file');
  const saved = await api.call('photos.saveWallPhoto', {
    ...(wall.groupId ? { group_id: wall.groupId } : { user_id: wall.ownerId }),
    photo,
    server: jsonString(uploaded, 'server'),
    hash: jsonString(uploaded, 'hash'),
  });
  const id = jsonString(saved, 0, 'id');
  const owner = jsonString(saved, 0, 'owner_id');
  if (!id || !owner) throw new PlatformError('VK saved the photo but returned no id');
  return `photo${owner}_${id}`;
}

async function uploadVideo(api: VkClient, fetch: Fetcher, wall: VkWall, file: ReadFile): Promise<string> {
  // wallpost=0: the wall post is made by wall.post with every attachment, not by the upload.
  const slot = await api.call('video.save', { name: file.filename, wallpost: 0, group_id: wall.groupId ?? undefined });
  const url = jsonString(slot, 'upload_url');
  const id = jsonString(slot, 'video_id');
  const owner = jsonString(slot, 'owner_id');
  if (!url || !id || !owner) throw new PlatformError('VK gave no address to upload the video to');
  await upload(fetch, url, 'video_file', file);
  return `video${owner}_${id}`;
}

/**
 * VK ID's refresh grant: the app's client_id, the device_id VK ID returned with the code (kept
 * in platformData), and a state of Herald's own (VK ID requires one).
 */
export function vkRefresher(fetch: Fetcher, connection: PublishableConnection, options: VkOptions): TokenRefresher | null {
  const app = oauthApps.vk();
  const clientId = options.clientId ?? app?.clientId;
  const deviceId = connection.platformData?.deviceId;
  if (!clientId || typeof deviceId !== 'string' || !deviceId) return null;
  const tokenUrl = options.idBaseUrl ? `${options.idBaseUrl}/oauth2/auth` : (app?.tokenUrl ?? `${VK_ID_DEFAULT_BASE_URL}/oauth2/auth`);
  return refreshTokenGrant(fetch, {
    platform: 'VK',
    url: tokenUrl,
    client: { client_id: clientId, device_id: deviceId, state: randomBytes(16).toString('hex') },
    errorKeys: ['error'],
    requireOkStatus: true,
    timeoutMs: options.timeoutMs,
  });
}
