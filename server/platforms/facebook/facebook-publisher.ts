// Facebook live adapter: Pages API publishing as the Page (externalId = Page id, token = Page
// access token).
//
// Sources:
//   https://developers.facebook.com/docs/pages-api/posts           (POST /{page-id}/feed: message, link)
//   https://developers.facebook.com/docs/graph-api/reference/page/photos  (url, published=false for later attachment)
//   https://developers.facebook.com/docs/pages/publishing          (multi-photo: attached_media[n]={"media_fbid":…})
//   https://developers.facebook.com/docs/video-api/guides/publishing (POST /{page-id}/videos on graph-video: file_url, description)
//   https://developers.facebook.com/docs/graph-api/reference/video (permalink_url, relative to facebook.com)
//   https://developers.facebook.com/docs/graph-api/guides/error-handling
//
// Shapes: text (with the first URL as `link`), one photo, several photos (uploaded unpublished,
// then one feed post attaching them), or one video. Page tokens have no refresh grant.
import { PlatformError, type Publisher } from '../publisher';
import { apiEndpoint, baseUrlFromEnv, bestEffort, UPLOAD_TIMEOUT_MS, type AdapterOptions } from '../http';
import { graphClient, requireId, type GraphClient, type GraphParams } from '../graph-api';
import { mediaItems, type MediaItem } from '../media';
import { withAccessToken } from '../token-refresh';

export const FACEBOOK_DEFAULT_BASE_URL = 'https://graph.facebook.com/v25.0';
/** Video uploads go to the video host (same API version). */
export const FACEBOOK_DEFAULT_VIDEO_BASE_URL = 'https://graph-video.facebook.com/v25.0';
const NAME = 'Facebook';

export interface FacebookOptions extends AdapterOptions {
  videoBaseUrl?: string;
}

const FIRST_URL = /https?:\/\/[^\s]+/i;

export function createFacebookPublisher(options: FacebookOptions = {}): Publisher<'facebook'> {
  return {
    async publish(connection, request, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'FACEBOOK_GRAPH_BASE_URL', FACEBOOK_DEFAULT_BASE_URL);
      const videoBaseUrl = options.videoBaseUrl ?? baseUrlFromEnv('FACEBOOK_GRAPH_VIDEO_BASE_URL', FACEBOOK_DEFAULT_VIDEO_BASE_URL);
      const items = mediaItems(request);

      return withAccessToken(connection, null, tokens, async (token) => {
        const graph = graphClient(fetch, baseUrl, token, NAME, options.timeoutMs);
        const page = connection.externalId;
        let postId: string;
        if (items.some((i) => i.kind === 'video')) {
          const videoGraph = graphClient(fetch, videoBaseUrl, token, NAME, options.timeoutMs ?? UPLOAD_TIMEOUT_MS);
          postId = await publishVideo(videoGraph, page, items, request.content);
        } else if (items.length === 1) {
          const answer = await graph.post(`${page}/photos`, { url: items[0]!.url, message: request.content, published: true });
          // The photo's feed story is the post; its id is `post_id` (the photo's own is `id`).
          postId = typeof answer.post_id === 'string' ? answer.post_id : requireId(answer, 'id', NAME);
        } else if (items.length > 1) {
          postId = await publishPhotos(graph, page, items, request.content);
        } else {
          // Sentence punctuation right after a URL is not part of it.
          const link = request.content.match(FIRST_URL)?.[0].replace(/[.,;:!?)\]]+$/, '');
          postId = requireId(await graph.post(`${page}/feed`, { message: request.content, link }), 'id', NAME);
        }

        // Published: what follows is best effort (a failure here must not invite a second post).
        // The firstComment setting is posted by delivery afterwards, with its own outcome
        // (server/posts/delivery/first-comments.ts).
        const read = await bestEffort('facebook', 'permalink', () => graph.get(postId, { fields: 'permalink_url' }));
        return { postedId: postId, permalink: absolutePermalink(read?.permalink_url) };
      });
    },
  };
}

async function publishVideo(graph: GraphClient, page: string, items: MediaItem[], description: string): Promise<string> {
  if (items.length > 1) throw new PlatformError('A Facebook post takes either photos or one video, not both or several videos');
  return requireId(await graph.post(`${page}/videos`, { file_url: items[0]!.url, description }), 'id', NAME);
}

async function publishPhotos(graph: GraphClient, page: string, items: MediaItem[], message: string): Promise<string> {
  const attached: GraphParams = {};
  for (const [index, item] of items.entries()) {
    // Unpublished photos do not appear on the Page on their own; the feed post shows them together.
    const photoId = requireId(await graph.post(`${page}/photos`, { url: item.url, published: false }), 'id', NAME);
    attached[`attached_media[${index}]`] = JSON.stringify({ media_fbid: photoId });
  }
  return requireId(await graph.post(`${page}/feed`, { message, ...attached }), 'id', NAME);
}

/** Videos answer a path ("/page/videos/123/"); posts a full URL. */
export function absolutePermalink(value: unknown): string | null {
  if (typeof value !== 'string' || !value) return null;
  return value.startsWith('/') ? `https://www.facebook.com${value}` : value;
}
