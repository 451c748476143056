// TikTok reconcile: settles a publish that was cut off by asking TikTok the status of its
// publish_id (reconcile.ts). Read only: nothing here posts or uploads.
//
// Sources:
//   https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status
//     POST /v2/post/publish/status/fetch/ { publish_id } → data.status PROCESSING_UPLOAD |
//     PROCESSING_DOWNLOAD | SEND_TO_USER_INBOX | PUBLISH_COMPLETE | FAILED, fail_reason,
//     publicaly_available_post_id (int64s; given only once moderation of a public post is
//     done); each token may ask 30 times a minute. Scope video.upload or video.publish.
//   https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info
//     (creator_username, for the post's address as the publisher builds it)
//
// TikTok can be asked only about a publish_id, which the publisher records (checkpoint
// `publishId`, with `mediaType`) the moment the init call answers it. Without one the attempt
// stopped before TikTok answered, or before Herald recorded its answer: TikTok lists no posts to
// the Content Posting API, so that is unknown. With one: PUBLISH_COMPLETE is found (the public
// post id when TikTok gives it, else the publish_id, as the publisher answers), FAILED is absent,
// and a publish still processing is found with its publish_id, as the publisher settles a
// publish that outlasts its polling (TikTok has the post).
import type { Reconciler } from '../reconcile';
import { apiEndpoint, jsonString } from '../http';
import { withAccessToken } from '../token-refresh';
import { TIKTOK_DEFAULT_BASE_URL, tiktokClient } from './tiktok-api';
import { creatorInfo, publicPostId, tiktokPermalink, tiktokRefresher, type TikTokOptions } from './tiktok-publisher';

const PROCESSING = new Set(['PROCESSING_UPLOAD', 'PROCESSING_DOWNLOAD']);

export function createTikTokReconciler(options: TikTokOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent, ctx) {
      const publishId = intent.checkpoint?.publishId;
      if (!publishId) {
        return {
          outcome: 'unknown',
          evidence:
            'TikTok can be asked only about a publish_id, and none was recorded: the attempt stopped before TikTok answered the init call, or before Herald recorded its answer',
        };
      }
      const { fetch, baseUrl } = apiEndpoint(options, 'TIKTOK_API_BASE_URL', TIKTOK_DEFAULT_BASE_URL);
      try {
        return await withAccessToken(connection, tiktokRefresher(fetch, baseUrl, options), ctx.tokens, async (token) => {
          const api = tiktokClient(fetch, baseUrl, token, options.timeoutMs);
          const answer = await api.post('/v2/post/publish/status/fetch/', { publish_id: publishId });
          const status = jsonString(answer.json, 'data', 'status');
          const about = `TikTok publish ${publishId} is ${status ?? 'without a status'}`;

          if (status === 'FAILED')
            return { outcome: 'absent', evidence: `${about} (${jsonString(answer.json, 'data', 'fail_reason') || 'no reason given'}): nothing was posted` };
          if (status && PROCESSING.has(status)) {
            return {
              outcome: 'found',
              result: { postedId: publishId, permalink: null },
              evidence: `${about}: TikTok has the post and is still processing it; settled with the publish_id, as a publish that outlasts Herald's polling is`,
            };
          }
          if (status !== 'PUBLISH_COMPLETE')
            return { outcome: 'unknown', evidence: `${about}, which a direct post should not be; check the account in the TikTok app` };

          const postId = publicPostId(answer);
          if (!postId) {
            return {
              outcome: 'found',
              result: { postedId: publishId, permalink: null },
              evidence: `${about} without a public post id (a private post, or moderation not done yet); settled with the publish_id`,
            };
          }
          const mediaType = intent.checkpoint?.mediaType;
          const kind = mediaType === 'photo' || mediaType === 'video' ? mediaType : null;
          let permalink: string | null = null;
          if (kind) {
            // The username as the publisher takes it: the creator's own, else the connection's.
            const creator = await creatorInfo(api).catch(() => null);
            permalink = tiktokPermalink(creator?.username ?? connection.accountName.replace(/^@/, ''), kind, postId);
          }
          return { outcome: 'found', result: { postedId: postId, permalink }, evidence: `${about} as post ${postId}` };
        });
      } catch (error) {
        return { outcome: 'unknown', evidence: `TikTok could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}
