// Instagram reconcile: settles a publish that was cut off by asking Instagram what became of it
// (reconcile.ts). Read only: nothing here creates, publishes or deletes.
//
// Sources:
//   https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-container
//     GET /{ig-container-id}?fields=status_code,status → status_code EXPIRED ("not published
//     within 24 hours"), ERROR ("failed to complete the publishing process"), FINISHED ("ready
//     to be published"), IN_PROGRESS ("still in the publishing process"), PUBLISHED ("the
//     container's media object has been published"); status carries the reason of an ERROR.
//   https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media
//     GET /{ig-user-id}/media?fields=id,caption,timestamp,permalink → { data: [IG Media], paging },
//     newest first; stories are not listed there.
//   https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/stories
//     GET /{ig-user-id}/stories → the story IG Media of the last 24 hours.
//
// With the container the publisher recorded before media_publish (`containerId`), its status
// decides: PUBLISHED is found (its media is the one recent media with the caption; the container
// does not name it), ERROR and EXPIRED are absent, FINISHED and IN_PROGRESS are absent too (a
// container is published only by media_publish, which turns it PUBLISHED). Without one, the
// account's recent media are matched on the caption and time. A story has no caption: it is
// found only through a PUBLISHED container and the one story created since the attempt began.
import type { Reconciled, Reconciler } from '../reconcile';
import { CLOCK_SLACK_MS, RECENT_POSTS_TO_READ } from '../reconcile';
import { type AdapterOptions } from '../http';
import { graphClient, type GraphClient } from '../graph-api';
import { readContainerStatus, readRecentGraphPosts, settleFromGraphPosts, type RecentGraphPost } from '../graph-reconcile';
import { isMissingObject } from '../graph-comments';
import { withAccessToken } from '../token-refresh';
import { INSTAGRAM_FACEBOOK_LOGIN, instagramEndpoint, type InstagramApi } from './instagram-api';
import { INSTAGRAM_CONTAINER_STATUS } from './instagram-publisher';

const toResult = (post: RecentGraphPost) => ({ postedId: post.id, permalink: post.permalink });

/** Either flavour (instagram-api.ts): the calls are the same on graph.facebook.com and graph.instagram.com. */
export function createInstagramReconciler(options: AdapterOptions = {}, flavour: InstagramApi = INSTAGRAM_FACEBOOK_LOGIN): Reconciler {
  const NAME = flavour.name;
  const WORDING = { network: NAME, one: 'media', many: 'media', text: 'caption' };
  return {
    async reconcile(connection, intent, ctx) {
      const { fetch, baseUrl, refresher } = instagramEndpoint(options, flavour);
      const story = intent.settings.videoType === 'story';
      try {
        return await withAccessToken(connection, refresher, ctx.tokens, async (token) => {
          const graph = graphClient(fetch, baseUrl, token, NAME, options.timeoutMs);
          const igUser = connection.externalId;
          const recentMedia = async () =>
            readRecentGraphPosts(graph, `${igUser}/media`, { text: 'caption', time: 'timestamp', permalink: 'permalink' }, intent.startedAt, {
              max: RECENT_POSTS_TO_READ,
              nextLink: 'required',
            });

          const containerId = intent.checkpoint?.containerId;
          if (containerId) {
            let container: { status: string | null; reason: string | null } | null;
            try {
              container = await readContainerStatus(graph, containerId, INSTAGRAM_CONTAINER_STATUS);
            } catch (error) {
              // Graph no longer has the container: the account's media still tell.
              if (!isMissingObject(error)) throw error;
              container = null;
            }
            if (container) {
              const { status, reason } = container;
              const about = `${NAME} container ${containerId} is ${status ?? 'without a status'}`;
              if (status === 'ERROR' || status === 'EXPIRED')
                return { outcome: 'absent', evidence: `${about}${reason ? ` (${reason})` : ''}: it was not published` };
              if (status === 'FINISHED' || status === 'IN_PROGRESS') {
                return { outcome: 'absent', evidence: `${about}: it was never published (media_publish turns a container PUBLISHED)` };
              }
              if (status !== 'PUBLISHED') return { outcome: 'unknown', evidence: `${about}, which Herald does not know how to read` };
              const settled = story
                ? storySince(await recentStories(graph, igUser), intent.startedAt)
                : settleFromGraphPosts(intent, await recentMedia(), WORDING, toResult);
              if (settled.outcome === 'found') return { ...settled, evidence: `${about} as media ${settled.result.postedId}: ${settled.evidence}` };
              return { outcome: 'unknown', evidence: `${about}, but Herald could not tell which media it became: ${settled.evidence}` };
            }
          }
          if (story) {
            return {
              outcome: 'unknown',
              evidence: `An Instagram story carries no caption to match, and no container was recorded for this attempt (or ${NAME} no longer has it)`,
            };
          }
          return settleFromGraphPosts(intent, await recentMedia(), WORDING, toResult);
        });
      } catch (error) {
        return { outcome: 'unknown', evidence: `${NAME} could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}

async function recentStories(graph: GraphClient, igUser: string): Promise<RecentGraphPost[]> {
  // Stories last 24 hours, so the edge is short: read whole (up to RECENT_POSTS_TO_READ), from
  // no particular start, since a story is told by its time alone.
  const { posts } = await readRecentGraphPosts(graph, `${igUser}/stories`, { text: 'caption', time: 'timestamp', permalink: 'permalink' }, new Date(0), {
    max: RECENT_POSTS_TO_READ,
    nextLink: 'required',
  });
  return posts;
}

/** The one story created since the attempt began (a published container proves one was). */
function storySince(stories: RecentGraphPost[], startedAt: Date): Reconciled {
  const since = stories.filter((s) => s.createdAt !== null && s.createdAt.getTime() >= startedAt.getTime() - CLOCK_SLACK_MS);
  if (since.length === 1) {
    const [story] = since as [RecentGraphPost];
    return {
      outcome: 'found',
      result: toResult(story),
      evidence: `story ${story.id} is the only one created since the attempt began (${story.createdAt!.toISOString()})`,
    };
  }
  return { outcome: 'unknown', evidence: `${since.length} stories were created since the attempt began (${startedAt.toISOString()})` };
}
