// Medium live adapter: one story per Herald post, on the profile or the publication connected.
//
// Source: https://github.com/Medium/medium-api-docs ("3.3. Posts")
//   POST /v1/users/{authorId}/posts, or /v1/publications/{publicationId}/posts, { title,
//   contentFormat: "markdown", content, tags, canonicalUrl, publishStatus: public|draft|unlisted,
//   notifyFollowers } → 201 { data: { id, url, publishStatus, publishedAt, … } }
//   Under a publication, a "writer" can only create a draft (an editor publishes it); an
//   "editor" any status.
//
// The title is the `title` setting, or the text's first line (long-form.ts). Medium renders no
// title it is not given in the content, so the content starts with the title as a heading; the
// first image follows it (the picture Medium's listings show), the body is the Markdown text, and
// further images close it. Medium side-loads images by URL ("3.4. Images"). Medium takes no
// idempotency key and cannot be asked afterwards (no call lists a user's stories): an
// interrupted publish is left to a person (catalogue/medium.ts, `reconcile`).
import { PlatformError, TokenExpiredError, type Publisher } from '../publisher';
import { jsonString, type AdapterOptions } from '../http';
import { mediaItems } from '../media';
import { articleOf, cleanTags } from '../long-form';
import { MEDIUM_MAX_TITLE } from '../catalogue/medium';
import { mediumClient } from './medium-api';

export function createMediumPublisher(options: AdapterOptions = {}): Publisher<'medium'> {
  return {
    async publish(connection, request) {
      const { settings } = request;
      const data = connection.platformData ?? {};
      const userId = typeof data.userId === 'string' ? data.userId : null;
      const publicationId = typeof data.publicationId === 'string' ? data.publicationId : null;
      if (!userId) throw new TokenExpiredError('No Medium account is stored for this connection; reconnect it to publish.');
      const images = mediaItems(request).filter((item) => item.kind === 'image');
      if (images.length < request.mediaUrls.length) throw new PlatformError('Medium stories take images only; upload a video elsewhere and link it');
      const published = settings.published ?? true;
      if (published && publicationId && data.role === 'writer') {
        throw new PlatformError(
          `The account writes for ${String(data.publicationName ?? 'this publication')} as a writer: Medium takes a writer’s stories as drafts for an editor to publish. Set published to false.`,
        );
      }
      if (!connection.accessToken) throw new TokenExpiredError('No Medium integration token is stored for this account; reconnect it to publish.');

      const { title, body } = articleOf(request.content, settings.title, MEDIUM_MAX_TITLE);
      const [lead, ...rest] = images;
      const tags = cleanTags(settings.tags).slice(0, 3);
      const story = {
        title,
        contentFormat: 'markdown',
        content: [`# ${title}`, ...(lead ? [`![](${lead.url})`] : []), body, ...rest.map((image) => `![](${image.url})`)].join('\n\n'),
        publishStatus: !published ? 'draft' : settings.unlisted ? 'unlisted' : 'public',
        ...(tags.length ? { tags } : {}),
        ...(settings.canonicalUrl ? { canonicalUrl: settings.canonicalUrl } : {}),
        ...(settings.notifyFollowers !== undefined ? { notifyFollowers: settings.notifyFollowers } : {}),
      };
      const path = publicationId ? `/publications/${encodeURIComponent(publicationId)}/posts` : `/users/${encodeURIComponent(userId)}/posts`;
      const created = await mediumClient(options, connection.accessToken).call('POST', path, { json: story });
      const id = jsonString(created, 'id');
      if (!id) throw new PlatformError('Medium accepted the story but returned no id');
      return { postedId: id, permalink: jsonString(created, 'url') ?? null };
    },
  };
}
