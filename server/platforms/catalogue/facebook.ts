// Facebook Pages: https://developers.facebook.com/docs/pages-api/posts,
// https://developers.facebook.com/docs/pages/publishing (several unpublished photos attached to
// one feed post), https://developers.facebook.com/docs/video-api/guides/publishing (one video).
// Meta states no text length, photo count or video length: 63,206 characters, 10 photos and
// 20 minutes are the contract's and third parties' numbers (docs/platform-limits.md).
import { z } from 'zod';
import { ZText } from '@/server/shared/schemas';
import { GB, type PlatformCatalogueEntry } from './entry';
import { codePointLength } from './text-length';
import { META_WINDOW_HOURS } from './conversations';

export const facebook = {
  label: 'Facebook',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 63_206, count: codePointLength },
  media: { maxImages: 10, maxVideos: 1, maxItems: 10, mixed: false, required: false, maxVideoSeconds: 20 * 60, maxVideoBytes: 10 * GB },
  settings: z.strictObject({
    firstComment: ZText.min(1)
      .max(8000)
      .optional()
      .describe('Posted as the Page’s first comment under the post, e.g. a link kept out of the post text')
      .meta({ example: 'Full menu: https://acme-coffee.example/menu' }),
  }),
  // What Herald reads of a published post (its reader: server/platforms/facebook/), and why not the rest.
  postMetrics: {
    impressions: { reads: 'post_media_view' },
    reach: { reads: 'post_total_media_view_unique' },
    views: { none: 'Facebook counts a post’s views as its impressions (post_media_view)' },
    reactions: { reads: 'reactions.summary.total_count' },
    comments: { reads: 'comments.summary.total_count' },
    shares: { reads: 'shares.count' },
    saves: { none: 'Facebook does not report saves of Page posts' },
    linkClicks: { reads: 'post_clicks_by_type' },
    videoWatchSeconds: { none: 'Facebook reports video watch time through the Video API, not read by Herald yet' },
  },
  // What an app may do with the comments under its posts (the inbox), and the pages each call follows.
  comments: {
    read: {
      call: 'GET /{page-post-id}/comments?filter=stream',
      docs: 'https://developers.facebook.com/docs/graph-api/reference/object/comments',
      note: 'filter=stream returns the replies too; the default returns top-level comments only',
    },
    reply: {
      call: 'POST /{comment-id}/comments (on the post itself: POST /{page-post-id}/comments)',
      docs: 'https://developers.facebook.com/docs/graph-api/reference/object/comments',
      note: 'Facebook’s comment box takes 8,000 characters (the Graph API states no limit of its own)',
      maxChars: 8_000,
    },
    hide: { call: 'POST /{comment-id}?is_hidden=true', docs: 'https://developers.facebook.com/docs/graph-api/reference/comment' },
    delete: { call: 'DELETE /{comment-id}', docs: 'https://developers.facebook.com/docs/graph-api/reference/comment' },
    like: { call: 'POST /{comment-id}/likes', docs: 'https://developers.facebook.com/docs/graph-api/reference/object/likes' },
  },
  // Messenger conversations of the Page, and its recommendations (the inbox's messages and reviews).
  messages: {
    read: {
      call: 'GET /{page-id}/conversations?fields=participants,updated_time,messages.limit(25){id,from,to,message,created_time,attachments}',
      docs: 'https://developers.facebook.com/docs/graph-api/reference/page/conversations/',
    },
    reply: {
      call: 'POST /{page-id}/messages with recipient.id (the person’s page-scoped id) and messaging_type RESPONSE',
      docs: 'https://developers.facebook.com/docs/messenger-platform/reference/send-api/',
      note: 'Text up to 2,000 characters; an image goes as attachment.payload.url. Outside 24 hours after the person’s last message a Page may not answer (Messenger Platform policy)',
      maxChars: 2_000,
      images: true,
      windowHours: META_WINDOW_HOURS,
    },
    push: {
      call: 'Meta webhooks, object page, field messages (POST /hooks/meta, signed X-Hub-Signature-256)',
      docs: 'https://developers.facebook.com/docs/messenger-platform/webhooks',
    },
  },
  reviews: {
    scale: 'recommendation',
    read: {
      call: 'GET /{page-id}/ratings?fields=reviewer,recommendation_type,review_text,created_time,open_graph_story{id}',
      docs: 'https://developers.facebook.com/docs/graph-api/reference/page/ratings/',
      note: 'Facebook replaced star ratings with recommendations (positive or negative). Meta marks the Recommendation node deprecated from v22.0 (error code 12): where Graph refuses the read, recommendations arrive by the ratings webhook only',
    },
    reply: {
      call: 'POST /{open-graph-story-id}/comments',
      docs: 'https://developers.facebook.com/docs/graph-api/reference/object/comments',
      note: 'The answer is a comment under the recommendation’s story',
      maxChars: 8_000,
    },
    editReply: { call: 'POST /{comment-id} with message', docs: 'https://developers.facebook.com/docs/graph-api/reference/comment' },
    deleteReply: { call: 'DELETE /{comment-id}', docs: 'https://developers.facebook.com/docs/graph-api/reference/comment' },
    push: {
      call: 'Meta webhooks, object page, field ratings (POST /hooks/meta)',
      docs: 'https://developers.facebook.com/docs/graph-api/webhooks/reference/page/#ratings',
    },
  },
  // How an interrupted publish is settled (server/platforms/facebook/facebook-reconcile.ts).
  reconcile: {
    ask: 'GET /{page-id}/published_posts?fields=id,message,created_time,permalink_url matched on the message and time (a post with one photo or video: GET /{page-id}/videos matched on the description first); Facebook has no id before the call that creates the post',
    docs: 'https://developers.facebook.com/docs/graph-api/reference/page/published_posts/',
  },
} satisfies PlatformCatalogueEntry;
