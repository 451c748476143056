// Hashnode live adapter: one post per Herald post, on the publication the account connected.
//
// Source: https://apidocs.hashnode.com/ (mutations publishPost and createDraft)
//   publishPost(input: { publicationId, title, subtitle, contentMarkdown, tags: [{ slug, name }],
//   originalArticleURL, coverImageOptions: { coverImageURL } }) → { post { id url } }
//   createDraft(input: CreateDraftInput, the same fields) → { draft { id } }: what `published:
//   false` makes, a draft only the publication's writers see (it has no public address yet).
//
// The title is the `title` setting, or the text's first line (long-form.ts); the body is the
// Markdown text. The first image is the cover, taken by URL; further images follow the body as
// Markdown images. Tags go by slug (Hashnode finds or creates the tag), the name as written.
// Hashnode takes no idempotency key; an interrupted publish is settled by hashnode-reconcile.ts.
import { PlatformError, TokenExpiredError, type Publisher, type PublishRequest } from '../publisher';
import { jsonAt, jsonString, type AdapterOptions } from '../http';
import { mediaItems } from '../media';
import { articleOf, cleanTags } from '../long-form';
import { HASHNODE_MAX_TITLE } from '../catalogue/hashnode';
import { hashnodeClient } from './hashnode-api';

const PUBLISH_POST = 'mutation PublishPost($input: PublishPostInput!) { publishPost(input: $input) { post { id url } } }';
const CREATE_DRAFT = 'mutation CreateDraft($input: CreateDraftInput!) { createDraft(input: $input) { draft { id } } }';

/** A tag's slug as Hashnode writes them: lower case, letters and digits joined by hyphens. */
export function tagSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The publication a connection publishes to (platformData.publicationId, stored at connect). */
export function hashnodePublication(platformData: Readonly<Record<string, unknown>> | undefined): string {
  const id = platformData?.publicationId;
  if (typeof id !== 'string' || !id) throw new TokenExpiredError('No Hashnode publication is stored for this account; reconnect it to publish.');
  return id;
}

/** The input Hashnode is sent for a request (hashnode-reconcile.ts derives the same title). */
export function hashnodeInput(request: Pick<PublishRequest<'hashnode'>, 'content' | 'mediaUrls' | 'mediaKinds' | 'settings'>, publicationId: string) {
  const { settings } = request;
  const { title, body } = articleOf(request.content, settings.title, HASHNODE_MAX_TITLE);
  const images = mediaItems({ ...request, settings: {} } as PublishRequest).filter((item) => item.kind === 'image');
  if (images.length < request.mediaUrls.length) throw new PlatformError('Hashnode posts take images only; upload a video elsewhere and link it');
  const [cover, ...inline] = images;
  const tags = cleanTags(settings.tags).map((name) => {
    const slug = tagSlug(name);
    if (!slug) throw new PlatformError(`Hashnode tags need letters or digits for their address; “${name}” has none`);
    return { slug, name };
  });
  return {
    publicationId,
    title,
    contentMarkdown: [body, ...inline.map((image) => `![](${image.url})`)].join('\n\n'),
    ...(settings.subtitle ? { subtitle: settings.subtitle } : {}),
    ...(tags.length ? { tags } : {}),
    ...(settings.canonicalUrl ? { originalArticleURL: settings.canonicalUrl } : {}),
    ...(cover ? { coverImageOptions: { coverImageURL: cover.url } } : {}),
  };
}

export function createHashnodePublisher(options: AdapterOptions = {}): Publisher<'hashnode'> {
  return {
    async publish(connection, request) {
      const input = hashnodeInput(request, hashnodePublication(connection.platformData));
      if (!connection.accessToken) throw new TokenExpiredError('No Hashnode token is stored for this account; reconnect it to publish.');
      const api = hashnodeClient(options, connection.accessToken);
      if (request.settings.published === false) {
        const data = await api.graphql(CREATE_DRAFT, { input });
        const id = jsonString(data, 'createDraft', 'draft', 'id');
        if (!id) throw new PlatformError('Hashnode accepted the draft but returned no id');
        return { postedId: id, permalink: null };
      }
      const data = await api.graphql(PUBLISH_POST, { input });
      const post = jsonAt(data, 'publishPost', 'post');
      const id = jsonString(post, 'id');
      if (!id) throw new PlatformError('Hashnode accepted the post but returned no id');
      return { postedId: id, permalink: jsonString(post, 'url') ?? null };
    },
  };
}
