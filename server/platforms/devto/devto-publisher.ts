// Dev.to live adapter: one article per post, created with the account's API key.
//
// Source: https://developers.forem.com/api/v1#tag/articles/operation/createArticle
//   POST /api/articles { article: { title, body_markdown, published, series, main_image,
//   canonical_url, description, tags } } → 201 with the article: id, url, path, published_at.
//   `tags` is one comma-separated string (the v1 schema types it as a string); DEV refuses a
//   fifth tag. Unpublished (published false) is a draft only the author sees.
//
// The title is the `title` setting, or the text's first line (long-form.ts); the body is the
// Markdown text. The first image is the cover (main_image); further images follow the body as
// Markdown images. DEV fetches both by URL. An article is published unless `published` is
// false: a scheduled post in Herald is meant to go out (docs/decisions.md, "Long-form networks").
// DEV takes no idempotency key; an interrupted publish is settled by devto-reconcile.ts.
import { PlatformError, TokenExpiredError, type Publisher, type PublishRequest } from '../publisher';
import { jsonString, type AdapterOptions } from '../http';
import { mediaItems } from '../media';
import { articleOf, cleanTags } from '../long-form';
import { DEVTO_MAX_TITLE } from '../catalogue/devto';
import { devtoClient } from './devto-api';

/** The article DEV is sent for a request (devto-reconcile.ts compares against the same). */
export function devtoArticle(request: Pick<PublishRequest<'devto'>, 'content' | 'mediaUrls' | 'mediaKinds' | 'settings'>) {
  const { settings } = request;
  const { title, body } = articleOf(request.content, settings.title, DEVTO_MAX_TITLE);
  const images = mediaItems({ ...request, settings: {} } as PublishRequest).filter((item) => item.kind === 'image');
  if (images.length < request.mediaUrls.length) throw new PlatformError('DEV articles take images only; upload a video elsewhere and link it');
  const [cover, ...inline] = images;
  const tags = cleanTags(settings.tags);
  return {
    title,
    body_markdown: [body, ...inline.map((image) => `![](${image.url})`)].join('\n\n'),
    published: settings.published ?? true,
    ...(tags.length ? { tags: tags.join(', ') } : {}),
    ...(cover ? { main_image: cover.url } : {}),
    ...(settings.canonicalUrl ? { canonical_url: settings.canonicalUrl } : {}),
    ...(settings.series ? { series: settings.series } : {}),
    ...(settings.description ? { description: settings.description } : {}),
  };
}

export function createDevtoPublisher(options: AdapterOptions = {}): Publisher<'devto'> {
  return {
    async publish(connection, request) {
      const article = devtoArticle(request);
      if (!connection.accessToken) throw new TokenExpiredError('No DEV API key is stored for this account; reconnect it to publish.');
      const created = await devtoClient(options, connection.accessToken).call('POST', '/api/articles', { json: { article } });
      const id = jsonString(created.json, 'id');
      if (!id) throw new PlatformError('DEV accepted the article but returned no id');
      return { postedId: id, permalink: jsonString(created.json, 'url') ?? null };
    },
  };
}
