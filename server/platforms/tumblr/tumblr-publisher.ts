// Tumblr live adapter: one NPF post on the blog chosen at connect (platformData.blogName).
//
// Sources:
//   https://www.tumblr.com/docs/en/api/v2#posts---createreblog-a-post-neue-post-format
//     POST /v2/blog/{blog-identifier}/posts { content, state, tags } → 201 { meta, response:
//     { id } } (id a string); "User Uploaded Media": a multipart/form-data request whose first
//     part, `json`, is the JSON body and whose further parts carry the media, each named by the
//     `identifier` its block's media object gives.
//   https://github.com/tumblr/docs/blob/master/npf-spec.md (text blocks up to 4,096 code points;
//     image blocks { type: "image", media: [media object], alt_text }; video blocks { type:
//     "video", media: media object }, provider tumblr assumed on creation)
//   https://www.tumblr.com/docs/en/api/v2#v2oauth2token---refresh-token-grant-request
//     (grant_type=refresh_token with client_id and client_secret; a new refresh token each time)
//
// The text goes as one text block per line (a line longer than a block is split), the media
// after it, uploaded as parts (NPF documents uploads by identifier for post creation; it does
// not say Tumblr fetches a media object's url when a post is created). Tumblr takes no
// idempotency key: an interrupted publish is settled by asking (tumblr-reconcile.ts).
import { PlatformError, TokenExpiredError, type Publisher, type PublishableConnection, type PublishRequest } from '../publisher';
import { apiEndpoint, jsonString, multipartBody, UPLOAD_TIMEOUT_MS, type AdapterOptions, type Fetcher, type MultipartPart } from '../http';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { TUMBLR_TEXT_BLOCK_MAX } from '../catalogue/tumblr';
import { downloadMedia, mediaItems } from '../media';
import { oauthApps } from '../oauth-apps';
import { refreshTokenGrant, withAccessToken, type TokenRefresher } from '../token-refresh';
import { TUMBLR_DEFAULT_BASE_URL, TUMBLR_USER_AGENT, tumblrClient } from './tumblr-api';

const { media } = PLATFORM_CATALOGUE.tumblr;

export interface TumblrOptions extends AdapterOptions {
  clientId?: string;
  clientSecret?: string;
}

/** The blog the connection posts to, as the connect flow stored it. */
export function tumblrBlog(connection: PublishableConnection): string {
  const name = connection.platformData?.blogName;
  if (typeof name !== 'string' || !name) throw new TokenExpiredError('No Tumblr blog is stored for this account; reconnect it to publish.');
  return name;
}

/** A post's address on its blog. */
export function tumblrPermalink(blogName: string, id: string): string {
  return `https://${blogName}.tumblr.com/post/${id}`;
}

/** The text as NPF text blocks: one per line, blank lines dropped, a line longer than a block split. */
export function textBlocks(content: string): { type: 'text'; text: string }[] {
  return content
    .split(/\r?\n/)
    .filter((line) => line.trim())
    .flatMap((line) => {
      const points = [...line];
      const parts: string[] = [];
      for (let i = 0; i < points.length; i += TUMBLR_TEXT_BLOCK_MAX) parts.push(points.slice(i, i + TUMBLR_TEXT_BLOCK_MAX).join(''));
      return parts.map((text) => ({ type: 'text' as const, text }));
    });
}

export function createTumblrPublisher(options: TumblrOptions = {}): Publisher<'tumblr'> {
  return {
    async publish(connection, request, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'TUMBLR_API_BASE_URL', TUMBLR_DEFAULT_BASE_URL);
      const blog = tumblrBlog(connection);
      const items = mediaItems(request);
      const videos = items.filter((i) => i.kind === 'video').length;
      if (videos > media.maxVideos) throw new PlatformError(`A Tumblr post takes at most ${media.maxVideos} uploaded video`);
      if (items.length - videos > media.maxImages) throw new PlatformError(`Herald posts at most ${media.maxImages} images to Tumblr`);
      const text = textBlocks(request.content);
      if (text.length === 0 && items.length === 0) throw new PlatformError('A Tumblr post needs text or media');

      // The media are read once, before the token is used: a refresh and a second try send the same parts.
      const files = await Promise.all(
        items.map(async (item, index) => {
          const file = await downloadMedia(fetch, item, item.kind === 'video' ? media.maxVideoBytes : media.maxImageBytes!);
          const filename = new URL(item.url).pathname.split('/').pop() || `${item.kind}-${index + 1}`;
          return { item, identifier: `media-${index + 1}`, filename, ...file };
        }),
      );
      const body = postBody(request, text, files);
      const parts: MultipartPart[] = [
        { name: 'json', value: JSON.stringify(body), contentType: 'application/json' },
        ...files.map((f) => ({ name: f.identifier, value: f.bytes, filename: f.filename, contentType: f.contentType })),
      ];

      return withAccessToken(connection, tumblrRefresher(fetch, baseUrl, options), tokens, async (token) => {
        const api = tumblrClient(fetch, baseUrl, token, options.timeoutMs);
        const created = files.length
          ? await sendMultipart(api, blog, parts)
          : await api.call('POST', `/v2/blog/${encodeURIComponent(blog)}/posts`, { json: body });
        const id = jsonString(created.json, 'response', 'id_string') ?? jsonString(created.json, 'response', 'id');
        if (!id) throw new PlatformError('Tumblr created the post but returned no id');
        return { postedId: id, permalink: tumblrPermalink(blog, id) };
      });
    },
  };
}

function sendMultipart(api: ReturnType<typeof tumblrClient>, blog: string, parts: MultipartPart[]) {
  const form = multipartBody(parts);
  return api.call('POST', `/v2/blog/${encodeURIComponent(blog)}/posts`, {
    headers: { 'content-type': form.contentType },
    body: form.body,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
}

function postBody(
  request: PublishRequest<'tumblr'>,
  text: { type: 'text'; text: string }[],
  files: { item: { kind: 'image' | 'video' }; identifier: string; contentType: string }[],
) {
  const { tags, state, altText } = request.settings;
  const blocks = files.map((f) =>
    f.item.kind === 'video'
      ? { type: 'video', provider: 'tumblr', media: { type: f.contentType, identifier: f.identifier } }
      : { type: 'image', media: [{ type: f.contentType, identifier: f.identifier }], ...(altText ? { alt_text: altText } : {}) },
  );
  return {
    content: [...text, ...blocks],
    state: state ?? 'published',
    ...(tags?.length ? { tags: tags.join(',') } : {}),
  };
}

export function tumblrRefresher(fetch: Fetcher, baseUrl: string, options: TumblrOptions): TokenRefresher | null {
  const app = oauthApps.tumblr();
  const clientId = options.clientId ?? app?.clientId;
  const clientSecret = options.clientSecret ?? app?.clientSecret;
  if (!clientId || !clientSecret) return null;
  return refreshTokenGrant(fetch, {
    platform: 'Tumblr',
    url: `${baseUrl}/v2/oauth2/token`,
    client: { client_id: clientId, client_secret: clientSecret },
    headers: { 'user-agent': TUMBLR_USER_AGENT },
    errorKeys: ['error', ['errors', 0, 'detail'], ['errors', 0, 'title'], ['meta', 'msg']],
    requireOkStatus: true,
    timeoutMs: options.timeoutMs,
  });
}
