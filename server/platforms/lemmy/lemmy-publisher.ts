// Lemmy live adapter: a post to the community chosen at connect, on the account's own instance
// (platformData.instanceUrl, communityId).
//
// Sources:
//   https://join-lemmy.org/api/classes/LemmyHttp.html#createPost POST /api/v3/post
//     { name, community_id, url?, body?, nsfw?, alt_text?, custom_thumbnail? } → { post_view:
//     { post: { id, name, url, body, ap_id, published }, community, creator, counts } }
//   https://join-lemmy.org/api/classes/LemmyHttp.html#uploadImage POST /pictrs/image
//     (multipart, field images[]) → { msg: "ok", files: [{ file, delete_token }] }; the image is
//     then at <instance>/pictrs/image/<file>
//
// The post's text is its body (Markdown), its title the `title` setting, its link the `url`
// setting; an image is uploaded to the instance and becomes the post's url (with a link, its
// custom_thumbnail). Lemmy takes no idempotency key: an interrupted publish is settled by
// asking (lemmy-reconcile.ts). The token has no expiry; a refused one (not_logged_in) is a
// TokenExpiredError, and the client reconnects (the password is never stored).
import { PlatformError, TokenExpiredError, type Publisher, type PublishableConnection } from '../publisher';
import { defaultFetch, jsonAt, jsonString, multipartBody, UPLOAD_TIMEOUT_MS, type AdapterOptions, type Fetcher } from '../http';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { downloadMedia, mediaItems, type MediaItem } from '../media';
import { lemmyClient, type LemmyClient } from './lemmy-api';

const { media } = PLATFORM_CATALOGUE.lemmy;

export interface LemmyAccount {
  origin: string;
  communityId: number;
  username: string;
}

/** Where the account lives and posts, as the connect flow stored it; options.baseUrl (tests) stands in for the instance. */
export function lemmyAccount(connection: PublishableConnection, baseUrl: string | undefined): LemmyAccount {
  const data = connection.platformData ?? {};
  const origin = baseUrl ?? (typeof data.instanceUrl === 'string' ? data.instanceUrl : null);
  const communityId = Number(data.communityId);
  if (!origin || !Number.isInteger(communityId) || communityId <= 0) {
    throw new TokenExpiredError('No Lemmy instance or community is stored for this account; reconnect it to publish.');
  }
  return { origin: origin.replace(/\/+$/, ''), communityId, username: typeof data.username === 'string' ? data.username : connection.accountName };
}

export function createLemmyPublisher(options: AdapterOptions = {}): Publisher<'lemmy'> {
  return {
    async publish(connection, request) {
      const fetch = options.fetch ?? defaultFetch();
      const account = lemmyAccount(connection, options.baseUrl);
      const { title, url, nsfw, altText } = request.settings;
      if (!title) throw new PlatformError('A Lemmy post needs a title');
      const items = mediaItems(request);
      if (items.some((i) => i.kind === 'video')) throw new PlatformError('Herald posts images to Lemmy, not videos');
      if (items.length > media.maxImages) throw new PlatformError(`A Lemmy post takes at most ${media.maxImages} image`);
      if (!connection.accessToken) throw new TokenExpiredError('No Lemmy login is stored for this account; reconnect it to publish.');

      const api = lemmyClient(fetch, account.origin, connection.accessToken, options.timeoutMs);
      const image = items[0] ? await uploadImage(api, fetch, items[0], connection.accessToken) : null;
      const body = {
        name: title,
        community_id: account.communityId,
        ...(request.content.trim() ? { body: request.content } : {}),
        ...(url ? { url, ...(image ? { custom_thumbnail: image } : {}) } : image ? { url: image } : {}),
        ...(image && altText ? { alt_text: altText } : {}),
        ...(nsfw !== undefined ? { nsfw } : {}),
      };
      const created = await api.call('POST', '/api/v3/post', { json: body });
      const id = jsonString(created.json, 'post_view', 'post', 'id');
      if (!id) throw new PlatformError('Lemmy accepted the post but returned no id');
      return { postedId: id, permalink: jsonString(created.json, 'post_view', 'post', 'ap_id') ?? `${account.origin}/post/${id}` };
    },
  };
}

/** Uploads one image to the instance's pict-rs; its address on the instance. */
async function uploadImage(api: LemmyClient, fetch: Fetcher, item: MediaItem, jwt: string): Promise<string> {
  const file = await downloadMedia(fetch, item, media.maxImageBytes);
  const filename = new URL(item.url).pathname.split('/').pop() || 'image.jpg';
  const { body, contentType } = multipartBody([{ name: 'images[]', value: file.bytes, filename, contentType: file.contentType }]);
  // pict-rs behind Lemmy 0.19 reads the login from the jwt cookie (older) or the bearer header.
  const uploaded = await api.call('POST', '/pictrs/image', {
    headers: { 'content-type': contentType, cookie: `jwt=${jwt}` },
    body,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
  const name = jsonString(uploaded.json, 'files', 0, 'file');
  if (jsonString(uploaded.json, 'msg') !== 'ok' || !name) {
    throw new PlatformError(jsonString(uploaded.json, 'msg') ?? 'Lemmy accepted the image but returned no file name');
  }
  return `${api.origin}/pictrs/image/${encodeURIComponent(name)}`;
}

/** The post id and address in a post_view. */
export function postResult(view: unknown, origin: string): { postedId: string; permalink: string } | null {
  const id = jsonString(view, 'post', 'id');
  if (!id) return null;
  const apId = jsonAt(view, 'post', 'ap_id');
  return { postedId: id, permalink: typeof apId === 'string' ? apId : `${origin}/post/${id}` };
}
