// Threads live adapter (externalId = the Threads user id).
//
// Sources:
//   https://developers.facebook.com/docs/threads/posts            (containers, carousels, limits, media specs)
//   https://developers.facebook.com/documentation/threads/reference/publishing
//   https://developers.facebook.com/documentation/threads/troubleshooting (container status: FINISHED, IN_PROGRESS, ERROR, EXPIRED, PUBLISHED)
//   https://developers.facebook.com/docs/threads/get-started/long-lived-tokens (th_refresh_token: tokens
//     at least 24 h old and not expired; refreshed tokens last 60 days)
//   https://developers.facebook.com/docs/threads/overview          (250 API posts per 24 h)
//   https://developers.facebook.com/docs/threads/reply-management  (reply_to_id: a container that answers a post; a thread's later part)
//
// Flow: POST /{user}/threads (TEXT | IMAGE | VIDEO; or items with is_carousel_item=true then a
// CAROUSEL container with children) → record the container to publish (context.checkpoint, so an
// interrupted publish can be settled by its status: threads-reconcile.ts) → wait for status
// FINISHED (bounded; Threads recommends waiting before publishing) → POST /{user}/threads_publish
// creation_id → GET /{id}?fields=permalink.
//
// Tokens: long-lived (60 days) and extended with themselves via
// GET /refresh_access_token?grant_type=th_refresh_token while still valid, so the refresh runs
// a week ahead of the stored expiry. An expired one cannot be refreshed: reconnect.
import { PlatformError, type Publisher } from '../publisher';
import { apiEndpoint, bestEffort, callApi, isSuccess, jsonString, pollSettings, withQuery, type AdapterOptions, type Fetcher } from '../http';
import { graphClient, graphError, requireId, waitForContainer, type ContainerStatusFields, type GraphParams } from '../graph-api';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { mediaItems, type MediaItem } from '../media';
import { withAccessToken, type TokenRefresher } from '../token-refresh';

export const THREADS_DEFAULT_BASE_URL = 'https://graph.threads.net/v1.0';
const NAME = 'Threads';
const { media } = PLATFORM_CATALOGUE.threads;
export const THREADS_CONTAINER_STATUS: ContainerStatusFields = { status: 'status', reason: 'error_message' };
const REFRESH_AHEAD_MS = 7 * 24 * 3_600_000;

export function createThreadsPublisher(options: AdapterOptions = {}): Publisher<'threads'> {
  return {
    async publish(connection, request, context) {
      const { fetch, baseUrl } = apiEndpoint(options, 'THREADS_API_BASE_URL', THREADS_DEFAULT_BASE_URL);
      const items = mediaItems(request);
      if (items.length > media.maxItems) {
        throw new PlatformError(`A Threads carousel takes at most ${media.maxItems} images and videos`);
      }
      const polling = pollSettings(options);

      return withAccessToken(connection, threadsRefresher(fetch, baseUrl), context.tokens, async (token) => {
        const graph = graphClient(fetch, baseUrl, token, NAME, options.timeoutMs);
        const user = connection.externalId;
        // A thread's later part answers the part before (reply_to_id on the container).
        const replyParams: GraphParams = request.replyTo ? { reply_to_id: request.replyTo } : {};

        let creationId: string;
        if (items.length <= 1) {
          creationId = requireId(await graph.post(`${user}/threads`, { ...singleContainer(items[0], request.content), ...replyParams }), 'id', NAME);
        } else {
          const children: string[] = [];
          for (const item of items) {
            const id = requireId(await graph.post(`${user}/threads`, { ...mediaParams(item), is_carousel_item: true }), 'id', NAME);
            await waitForContainer(graph, id, THREADS_CONTAINER_STATUS, polling, NAME);
            children.push(id);
          }
          creationId = requireId(
            await graph.post(`${user}/threads`, { media_type: 'CAROUSEL', children: children.join(','), text: request.content, ...replyParams }),
            'id',
            NAME,
          );
        }
        // Recorded before anything can publish it: its status tells what became of this publish.
        await context.checkpoint?.({ containerId: creationId });
        await waitForContainer(graph, creationId, THREADS_CONTAINER_STATUS, polling, NAME);

        const mediaId = requireId(await graph.post(`${user}/threads_publish`, { creation_id: creationId }), 'id', NAME);
        const read = await bestEffort('threads', 'permalink', () => graph.get(mediaId, { fields: 'permalink' }));
        return { postedId: mediaId, permalink: typeof read?.permalink === 'string' ? read.permalink : null };
      });
    },
  };
}

function mediaParams(item: MediaItem): GraphParams {
  return item.kind === 'video' ? { media_type: 'VIDEO', video_url: item.url } : { media_type: 'IMAGE', image_url: item.url };
}

function singleContainer(item: MediaItem | undefined, text: string): GraphParams {
  return item ? { ...mediaParams(item), text } : { media_type: 'TEXT', text };
}

/** The refresh endpoint sits at the API host's root, outside the versioned path. */
export function threadsRefresher(fetch: Fetcher, baseUrl: string): TokenRefresher {
  return {
    uses: 'access_token',
    aheadMs: REFRESH_AHEAD_MS,
    async refresh(accessToken) {
      const url = withQuery(`${new URL(baseUrl).origin}/refresh_access_token`, { grant_type: 'th_refresh_token', access_token: accessToken });
      const response = await callApi(fetch, url);
      const fresh = jsonString(response.json, 'access_token');
      if (!isSuccess(response) || !fresh) throw graphError(response, NAME);
      const expiresIn = Number(jsonString(response.json, 'expires_in'));
      return { accessToken: fresh, expiresInSeconds: Number.isFinite(expiresIn) ? expiresIn : null };
    },
  };
}
