// WordPress live adapter: one post per Herald post, on the site the account connected.
//
// Sources (https://developer.wordpress.org/rest-api/reference/):
//   media/#create-a-media-item      POST /wp/v2/media, the image's bytes as the body with
//     Content-Type and `Content-Disposition: attachment; filename="…"` → 201 { id, source_url }
//   categories/#list-categories, tags/#list-tags   GET ?search=&per_page= → [{ id, name }]
//   categories/#create-a-category, tags/#create-a-tag   POST { name } → 201 { id }; a name the
//     site already has is refused 400 `term_exists` with data.term_id
//   posts/#create-a-post   POST /wp/v2/posts { title, content, status: publish|draft, excerpt,
//     featured_media, categories: [id], tags: [id] } → 201 { id, link }
//
// The title is the `title` setting, or the text's first line (long-form.ts); the rest goes as
// HTML paragraphs. Images go to the site's media library first: the first is the featured
// image, the others follow the text. WordPress takes no idempotency key; an interrupted publish
// is settled by wordpress-reconcile.ts.
import path from 'node:path';
import { PlatformError, type Publisher, type PublishRequest } from '../publisher';
import { defaultFetch, isSuccess, jsonAt, jsonString, UPLOAD_TIMEOUT_MS, type AdapterOptions, type Fetcher } from '../http';
import { downloadMedia, mediaItems, type MediaItem } from '../media';
import { articleOf, cleanTags, escapeHtml, textToHtml } from '../long-form';
import { WORDPRESS_MAX_TITLE } from '../catalogue/wordpress';
import { SELF_HOSTED_WORDPRESS, wordpressClient, wordpressError, type WordpressApi, type WordpressClient, type WordpressPlatform } from './wordpress-api';

/** The most one image may weigh; WordPress's own limit is the site's upload_max_filesize. */
const IMAGE_MAX_BYTES = 20 * 1024 * 1024;

export function createWordpressPublisher<P extends WordpressPlatform = 'wordpress'>(
  options: AdapterOptions = {},
  flavour: WordpressApi = SELF_HOSTED_WORDPRESS,
): Publisher<P> {
  return {
    async publish(connection, request) {
      const fetch = options.fetch ?? defaultFetch();
      const { settings } = request;
      const items = mediaItems(request as PublishRequest);
      if (items.some((item) => item.kind === 'video')) throw new PlatformError('Herald sends WordPress posts with images only; link a video in the text');
      const { apiRoot, authorization } = flavour.endpoint(connection, options.baseUrl);
      const api = wordpressClient(fetch, apiRoot, authorization, options.timeoutMs);

      const images: { id: number; url: string }[] = [];
      for (const item of items) images.push(await uploadImage(api, fetch, item));
      const categories: number[] = [];
      for (const name of cleanTags(settings.categories)) categories.push(await termId(api, 'categories', name));
      const tags: number[] = [];
      for (const name of cleanTags(settings.tags)) tags.push(await termId(api, 'tags', name));

      const { title, body } = articleOf(request.content, settings.title, WORDPRESS_MAX_TITLE);
      const [featured, ...inline] = images;
      const content = [textToHtml(body), ...inline.map((image) => `<figure class="wp-block-image"><img src="${escapeHtml(image.url)}" alt=""/></figure>`)].join(
        '\n',
      );
      const created = await api.call('POST', '/posts', {
        json: {
          title,
          content,
          status: (settings.published ?? true) ? 'publish' : 'draft',
          ...(featured ? { featured_media: featured.id } : {}),
          ...(categories.length ? { categories } : {}),
          ...(tags.length ? { tags } : {}),
          ...(settings.excerpt ? { excerpt: settings.excerpt } : {}),
        },
      });
      const id = jsonString(created.json, 'id');
      if (!id) throw new PlatformError('WordPress accepted the post but returned no id');
      return { postedId: id, permalink: jsonString(created.json, 'link') ?? null };
    },
  };
}

async function uploadImage(api: WordpressClient, fetch: Fetcher, item: MediaItem): Promise<{ id: number; url: string }> {
  const file = await downloadMedia(fetch, item, IMAGE_MAX_BYTES);
  const filename = (path.posix.basename(new URL(item.url).pathname) || 'image.jpg').replace(/["\\\r\n]/g, '_');
  const uploaded = await api.call('POST', '/media', {
    headers: { 'content-type': file.contentType, 'content-disposition': `attachment; filename="${filename}"` },
    body: file.bytes,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
  const id = jsonAt(uploaded.json, 'id');
  const url = jsonString(uploaded.json, 'source_url');
  if (typeof id !== 'number' || !url) throw new PlatformError('WordPress accepted the image but returned no id or address for it');
  return { id, url };
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#039;': "'", '&#39;': "'" };
/** A term's name as WordPress returns it (HTML-escaped) back to text. */
const unescape = (name: string) => name.replace(/&(amp|lt|gt|quot|#0?39);/g, (entity) => ENTITIES[entity] ?? entity);

/** The id of the category or tag of that name: the site's own (matched case-insensitively), created when it has none. */
async function termId(api: WordpressClient, taxonomy: 'categories' | 'tags', name: string): Promise<number> {
  const found = await api.call('GET', `/${taxonomy}?${new URLSearchParams({ search: name, per_page: '100' })}`);
  const list = Array.isArray(found.json) ? found.json : [];
  const same = list.find((term) => unescape(jsonString(term, 'name') ?? '').toLowerCase() === name.toLowerCase());
  const existing = jsonAt(same, 'id');
  if (typeof existing === 'number') return existing;
  const created = await api.raw('POST', `/${taxonomy}`, { json: { name } });
  const createdId = jsonAt(created.json, 'id');
  if (isSuccess(created) && typeof createdId === 'number') return createdId;
  // Another request created it meanwhile, or the search missed it: WordPress names the term it has.
  const termExists = jsonAt(created.json, 'data', 'term_id');
  if (jsonString(created.json, 'code') === 'term_exists' && typeof termExists === 'number') return termExists;
  throw wordpressError(created);
}
