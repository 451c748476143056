// Threads reconcile: settles a publish that was cut off by asking Threads what became of it
// (reconcile.ts). Read only: nothing here creates, publishes or deletes.
//
// Sources:
//   https://developers.facebook.com/documentation/threads/troubleshooting
//     GET /{threads-container-id}?fields=status,error_message → status FINISHED, IN_PROGRESS,
//     ERROR (error_message says why), EXPIRED (not published within 24 hours), PUBLISHED.
//   https://developers.facebook.com/documentation/threads/retrieve-and-discover-posts/retrieve-posts
//     GET /{threads-user-id}/threads?fields=id,text,timestamp,permalink&limit= → { data: [Threads
//     media], paging: { cursors } }: "a paginated list of all threads created by a user", newest first.
//
// With the container the publisher recorded before threads_publish (`containerId`), its status
// decides: PUBLISHED is found (its post is the one recent thread with the text; the container
// does not name it), ERROR and EXPIRED are absent, FINISHED and IN_PROGRESS are absent too (only
// threads_publish publishes a container, and turns it PUBLISHED). Without one, the account's
// recent threads are matched on the text and time.
import type { Reconciler } from '../reconcile';
import { RECENT_POSTS_TO_READ } from '../reconcile';
import { apiEndpoint, type AdapterOptions } from '../http';
import { graphClient } from '../graph-api';
import { readContainerStatus, readRecentGraphPosts, settleFromGraphPosts, type RecentGraphPost } from '../graph-reconcile';
import { isMissingObject } from '../graph-comments';
import { withAccessToken } from '../token-refresh';
import { THREADS_CONTAINER_STATUS, THREADS_DEFAULT_BASE_URL, threadsRefresher } from './threads-publisher';

const NAME = 'Threads';
const WORDING = { network: NAME, one: 'post', many: 'posts', text: 'text' };
const toResult = (post: RecentGraphPost) => ({ postedId: post.id, permalink: post.permalink });

export function createThreadsReconciler(options: AdapterOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent, ctx) {
      const { fetch, baseUrl } = apiEndpoint(options, 'THREADS_API_BASE_URL', THREADS_DEFAULT_BASE_URL);
      try {
        return await withAccessToken(connection, threadsRefresher(fetch, baseUrl), ctx.tokens, async (token) => {
          const graph = graphClient(fetch, baseUrl, token, NAME, options.timeoutMs);
          const recentThreads = async () =>
            settleFromGraphPosts(
              intent,
              await readRecentGraphPosts(
                graph,
                `${connection.externalId}/threads`,
                { text: 'text', time: 'timestamp', permalink: 'permalink' },
                intent.startedAt,
                {
                  max: RECENT_POSTS_TO_READ,
                  // Threads documents the cursors but shows pages without `next` (graph-comments.ts).
                  nextLink: 'optional',
                },
              ),
              WORDING,
              toResult,
            );

          const containerId = intent.checkpoint?.containerId;
          if (!containerId) return recentThreads();
          let container: { status: string | null; reason: string | null };
          try {
            container = await readContainerStatus(graph, containerId, THREADS_CONTAINER_STATUS);
          } catch (error) {
            // Threads no longer has the container: the account's threads still tell.
            if (isMissingObject(error)) return recentThreads();
            throw error;
          }
          const { status, reason } = container;
          const about = `Threads container ${containerId} is ${status ?? 'without a status'}`;
          if (status === 'ERROR' || status === 'EXPIRED')
            return { outcome: 'absent', evidence: `${about}${reason ? ` (${reason})` : ''}: it was not published` };
          if (status === 'FINISHED' || status === 'IN_PROGRESS') {
            return { outcome: 'absent', evidence: `${about}: it was never published (threads_publish turns a container PUBLISHED)` };
          }
          if (status !== 'PUBLISHED') return { outcome: 'unknown', evidence: `${about}, which Herald does not know how to read` };
          const settled = await recentThreads();
          if (settled.outcome === 'found') return { ...settled, evidence: `${about} as post ${settled.result.postedId}: ${settled.evidence}` };
          return { outcome: 'unknown', evidence: `${about}, but Herald could not tell which post it became: ${settled.evidence}` };
        });
      } catch (error) {
        return { outcome: 'unknown', evidence: `Threads could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}
