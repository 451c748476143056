// Ghost live adapter: one post per Herald post, on the site the account connected.
//
// Sources:
//   https://docs.ghost.org/admin-api/#uploading-an-image POST /images/upload/ (multipart:
//     file, purpose=image, ref) → 201 { images: [{ url, ref }] }
//   https://docs.ghost.org/admin-api/#creating-a-post POST /posts/?source=html { posts: [{
//     title, html, status, feature_image, tags: [{ name }], custom_excerpt, canonical_url,
//     visibility }] } → 201 { posts: [Post] } with id and url
//   https://docs.ghost.org/admin-api/#sending-a-post-via-email ?newsletter={slug} on a post
//     published (not a draft) emails it to that newsletter's subscribers
//
// The title is the `title` setting, or the text's first line (long-form.ts); the rest goes as
// HTML paragraphs. Images go to the site's own storage first: the first is the feature image,
// the others follow the text. Ghost takes no idempotency key; an interrupted publish is
// settled by ghost-reconcile.ts.
import path from 'node:path';
import { PlatformError, TokenExpiredError, type Publisher, type PublishRequest } from '../publisher';
import { defaultFetch, jsonString, jsonAt, multipartBody, UPLOAD_TIMEOUT_MS, type AdapterOptions, type Fetcher } from '../http';
import { downloadMedia, mediaItems, type MediaItem } from '../media';
import { articleOf, cleanTags, escapeHtml, textToHtml } from '../long-form';
import { GHOST_MAX_TITLE } from '../catalogue/ghost';
import { ghostClient, ghostSite, type GhostClient } from './ghost-api';

/** Ghost(Pro)'s upload cap for an image; a self-hosted site may set its own. */
const IMAGE_MAX_BYTES = 20 * 1024 * 1024;

export function createGhostPublisher(options: AdapterOptions = {}): Publisher<'ghost'> {
  return {
    async publish(connection, request) {
      const fetch = options.fetch ?? defaultFetch();
      const site = ghostSite(connection.platformData, options.baseUrl);
      const { settings } = request;
      const published = settings.published ?? true;
      if (settings.sendAsNewsletter && !published)
        throw new PlatformError('A Ghost draft cannot be sent as a newsletter; publish it, or leave the newsletter off');
      const items = mediaItems(request as PublishRequest);
      if (items.some((item) => item.kind === 'video')) throw new PlatformError('Herald sends Ghost posts with images only; link a video in the text');
      if (!connection.accessToken) throw new TokenExpiredError('No Ghost Admin API key is stored for this account; reconnect it to publish.');

      const api = ghostClient(fetch, site, connection.accessToken, options.timeoutMs);
      const images: string[] = [];
      for (const item of items) images.push(await uploadImage(api, fetch, item));
      const { title, body } = articleOf(request.content, settings.title, GHOST_MAX_TITLE);
      const [feature, ...inline] = images;
      const html = [textToHtml(body), ...inline.map((url) => `<figure class="kg-card kg-image-card"><img src="${escapeHtml(url)}" alt=""></figure>`)].join(
        '\n',
      );
      const tags = cleanTags(settings.tags);
      const query = new URLSearchParams({ source: 'html' });
      if (settings.sendAsNewsletter) query.set('newsletter', settings.newsletter ?? 'default-newsletter');

      const created = await api.call('POST', `/posts/?${query}`, {
        json: {
          posts: [
            {
              title,
              html,
              status: published ? 'published' : 'draft',
              ...(feature ? { feature_image: feature } : {}),
              ...(tags.length ? { tags: tags.map((name) => ({ name })) } : {}),
              ...(settings.excerpt ? { custom_excerpt: settings.excerpt } : {}),
              ...(settings.canonicalUrl ? { canonical_url: settings.canonicalUrl } : {}),
              ...(settings.visibility ? { visibility: settings.visibility } : {}),
            },
          ],
        },
      });
      const post = jsonAt(created.json, 'posts', 0);
      const id = jsonString(post, 'id');
      if (!id) throw new PlatformError('Ghost accepted the post but returned no id');
      return { postedId: id, permalink: jsonString(post, 'url') ?? null };
    },
  };
}

async function uploadImage(api: GhostClient, fetch: Fetcher, item: MediaItem): Promise<string> {
  const file = await downloadMedia(fetch, item, IMAGE_MAX_BYTES);
  const filename = path.posix.basename(new URL(item.url).pathname) || 'image.jpg';
  const { body, contentType } = multipartBody([
    { name: 'file', value: file.bytes, filename, contentType: file.contentType },
    { name: 'purpose', value: 'image' },
    { name: 'ref', value: item.url },
  ]);
  const uploaded = await api.call('POST', '/images/upload/', { headers: { 'content-type': contentType }, body, timeoutMs: UPLOAD_TIMEOUT_MS });
  const url = jsonString(uploaded.json, 'images', 0, 'url');
  if (!url) throw new PlatformError('Ghost accepted the image but returned no address for it');
  return url;
}
