// Instagram live adapter: Instagram Graph API content publishing, in either flavour
// (instagram-api.ts: Facebook Login on graph.facebook.com, Instagram Login on
// graph.instagram.com); the connection's externalId is the IG professional account id.
//
// Sources:
//   https://developers.facebook.com/docs/instagram-platform/instagram-api-with-facebook-login/content-publishing
//   https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media
//   https://developers.facebook.com/documentation/instagram-platform/instagram-graph-api/reference/ig-user/media_publish
//   https://developers.facebook.com/docs/graph-api/guides/error-handling
//
// Flow: create container(s) → record the container to publish (context.checkpoint, so an
// interrupted publish can be settled by its status: instagram-reconcile.ts) → wait until each
// video container's status_code is FINISHED (bounded) → POST /{ig-user-id}/media_publish
// creation_id → GET /{media-id}?fields=permalink → optional first comment POST /{media-id}/comments.
//
// Tokens: the flavour's refresher (none for Facebook Login Page tokens, whose expiry (code 190)
// means reconnecting; ig_refresh_token for Instagram Login).
import type { Publisher } from '../publisher';
import { bestEffort, pollSettings, type AdapterOptions } from '../http';
import { graphClient, requireId, waitForContainer, type ContainerStatusFields } from '../graph-api';
import { mediaItems } from '../media';
import { withAccessToken } from '../token-refresh';
import { INSTAGRAM_FACEBOOK_LOGIN, instagramEndpoint, type InstagramApi, type InstagramPlatform } from './instagram-api';
import { planContainers, type InstagramSettings } from './instagram-containers';

export { INSTAGRAM_DEFAULT_BASE_URL } from './instagram-api';
/** A container's state is in status_code; `status` carries the reason of an ERROR. */
export const INSTAGRAM_CONTAINER_STATUS: ContainerStatusFields = { status: 'status_code', reason: 'status' };

export function createInstagramPublisher<P extends InstagramPlatform = 'instagram'>(
  options: AdapterOptions = {},
  flavour: InstagramApi = INSTAGRAM_FACEBOOK_LOGIN,
): Publisher<P> {
  const NAME = flavour.name;
  return {
    async publish(connection, request, context) {
      const { fetch, baseUrl, refresher } = instagramEndpoint(options, flavour);
      // Both flavours take the same settings (the catalogue shares the schema).
      const settings = request.settings as InstagramSettings;
      const plan = planContainers(mediaItems(request), request.content, settings);
      const polling = pollSettings(options);

      return withAccessToken(connection, refresher, context.tokens, async (token) => {
        const graph = graphClient(fetch, baseUrl, token, NAME, options.timeoutMs);
        const igUser = connection.externalId;

        let creationId: string;
        if (plan.kind === 'single') {
          creationId = requireId(await graph.post(`${igUser}/media`, plan.params), 'id', NAME);
        } else {
          const children: string[] = [];
          for (const child of plan.children) {
            const id = requireId(await graph.post(`${igUser}/media`, child), 'id', NAME);
            // Video children must finish processing before the carousel may reference them.
            if (child.media_type === 'VIDEO') await waitForContainer(graph, id, INSTAGRAM_CONTAINER_STATUS, polling, NAME);
            children.push(id);
          }
          creationId = requireId(await graph.post(`${igUser}/media`, { ...plan.params, children: children.join(',') }), 'id', NAME);
        }
        // Recorded before anything can publish it: its status tells what became of this publish.
        await context.checkpoint?.({ containerId: creationId });
        await waitForContainer(graph, creationId, INSTAGRAM_CONTAINER_STATUS, polling, NAME);

        const mediaId = requireId(await graph.post(`${igUser}/media_publish`, { creation_id: creationId }), 'id', NAME);
        // Published: nothing after this point may fail the delivery, or a retry would post twice.
        const permalink = await bestEffort(flavour.platform, 'permalink', () => graph.get(mediaId, { fields: 'permalink' }));
        // The firstComment setting is posted by delivery afterwards, with its own outcome
        // (server/posts/delivery/first-comments.ts).
        return { postedId: mediaId, permalink: typeof permalink?.permalink === 'string' ? permalink.permalink : null };
      });
    },
  };
}
