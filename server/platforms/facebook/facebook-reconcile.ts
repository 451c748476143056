// Facebook reconcile: settles a publish that was cut off by asking the Page what it published
// (reconcile.ts). Read only: nothing here creates, publishes or deletes.
//
// Sources:
//   https://developers.facebook.com/docs/graph-api/reference/page/published_posts/
//     GET /{page-id}/published_posts?fields=id,message,created_time,permalink_url → { data:
//     [Page Post], paging }: the posts the Page published, newest first.
//   https://developers.facebook.com/docs/video-api/guides/get-videos
//     GET /{page-id}/videos?fields=id,description,created_time,permalink_url → { data: [Video],
//     paging }: the Page's videos (permalink_url relative to facebook.com).
//   https://developers.facebook.com/docs/graph-api/guides/error-handling
//
// Facebook has no container or upload id before the call that creates the post, so the Page's
// recent posts are matched on the message and time. The publisher answers a video with the
// video's id and a post with the post's id, so a post with one media item (a photo, or a video:
// the attempt does not say which) is looked for among the Page's videos first.
import type { Reconciled, Reconciler } from '../reconcile';
import { RECENT_POSTS_TO_READ } from '../reconcile';
import { apiEndpoint, type AdapterOptions } from '../http';
import { graphClient } from '../graph-api';
import { readRecentGraphPosts, settleFromGraphPosts, type RecentGraphPost } from '../graph-reconcile';
import { withAccessToken } from '../token-refresh';
import { absolutePermalink, FACEBOOK_DEFAULT_BASE_URL } from './facebook-publisher';

const NAME = 'Facebook';
const toResult = (post: RecentGraphPost) => ({ postedId: post.id, permalink: absolutePermalink(post.permalink) });

export function createFacebookReconciler(options: AdapterOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent, ctx) {
      const { fetch, baseUrl } = apiEndpoint(options, 'FACEBOOK_GRAPH_BASE_URL', FACEBOOK_DEFAULT_BASE_URL);
      try {
        return await withAccessToken(connection, null, ctx.tokens, async (token) => {
          const graph = graphClient(fetch, baseUrl, token, NAME, options.timeoutMs);
          const page = connection.externalId;
          const recent = (edge: string, text: string) =>
            readRecentGraphPosts(graph, `${page}/${edge}`, { text, time: 'created_time', permalink: 'permalink_url' }, intent.startedAt, {
              max: RECENT_POSTS_TO_READ,
              nextLink: 'required',
            });

          let asVideo: Reconciled | null = null;
          if (intent.mediaUrls.length === 1) {
            asVideo = settleFromGraphPosts(
              intent,
              await recent('videos', 'description'),
              { network: NAME, one: 'video', many: 'videos', text: 'description' },
              toResult,
            );
            if (asVideo.outcome === 'found') return asVideo;
          }
          const asPost = settleFromGraphPosts(
            intent,
            await recent('published_posts', 'message'),
            { network: NAME, one: 'post', many: 'posts', text: 'message' },
            toResult,
          );
          if (asPost.outcome === 'found' || !asVideo || asVideo.outcome === 'absent') {
            return asVideo && asPost.outcome === 'absent' ? { outcome: 'absent', evidence: `${asVideo.evidence}; ${asPost.evidence}` } : asPost;
          }
          // The Page's videos could not rule a video out.
          return asVideo;
        });
      } catch (error) {
        return { outcome: 'unknown', evidence: `Facebook could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}
