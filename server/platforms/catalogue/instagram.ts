// Instagram: https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media
// (caption, carousel of up to 10, reel and story specifications) and the content publishing
// guide (media required). Every single feed video is published as a reel, so the feed's
// video limits are the reel's.
import { z } from 'zod';
import { storableText, ZText } from '@/server/shared/schemas';
import { MB, type PlatformCatalogueEntry } from './entry';
import { withOptionWords } from './option-words';
import { codePointLength } from './text-length';
import { noReviews, META_WINDOW_HOURS } from './conversations';

export const instagram = {
  label: 'Instagram',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 2200, count: codePointLength },
  media: {
    maxImages: 10,
    maxVideos: 10,
    maxItems: 10,
    mixed: true,
    required: true,
    maxVideoSeconds: 15 * 60,
    maxVideoBytes: 300 * MB,
    // videoType "story": one image or video; a story video is 3 s to 60 s, at most 100 MB.
    story: { maxItems: 1, maxVideoSeconds: 60, maxVideoBytes: 100 * MB },
  },
  settings: z.strictObject({
    videoType: withOptionWords(z.enum(['feed', 'reel', 'story']), { feed: 'Feed post', reel: 'Reel', story: 'Story' })
      .optional()
      .describe('How the post is published: in the feed, as a reel (a video’s default) or as a story'),
    shareToFeed: z.boolean().optional().describe('Whether a reel also appears in the account’s main feed').meta({ default: true }),
    coverUrl: z
      .url({ protocol: /^https$/ })
      .max(2048)
      .check(storableText)
      .optional()
      .describe('A reel’s cover image, an https image URL'),
    firstComment: ZText.min(1)
      .max(2200)
      .optional()
      .describe('Posted as the account’s first comment under the post (hashtags kept out of the caption)')
      .meta({ example: '#coffee #autumn' }),
  }),
  // What Herald reads of a published post (its reader: server/platforms/instagram/), and why not the rest.
  postMetrics: {
    impressions: { none: 'Instagram retired impressions in Graph API v22.0; views replaces it' },
    reach: { reads: 'reach' },
    views: { reads: 'views' },
    reactions: { reads: 'likes' },
    comments: { reads: 'comments' },
    shares: { reads: 'shares' },
    saves: { reads: 'saved' },
    linkClicks: { none: 'Instagram posts have no link clicks' },
    videoWatchSeconds: { none: 'Instagram reports watch time only for reels (ig_reels_video_view_total_time), not read by Herald yet' },
  },
  // What an app may do with the comments under its posts (the inbox), and the pages each call follows.
  comments: {
    read: {
      call: 'GET /{ig-media-id}/comments',
      docs: 'https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-media/comments',
    },
    reply: {
      call: 'POST /{ig-comment-id}/replies (on the media itself: POST /{ig-media-id}/comments)',
      docs: 'https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment/replies',
      note: 'Replies go under top-level comments: a reply to a reply is added to its top-level comment',
    },
    hide: { call: 'POST /{ig-comment-id}?hide=true', docs: 'https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment' },
    delete: { call: 'DELETE /{ig-comment-id}', docs: 'https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-comment' },
    like: { none: 'Instagram’s API does not let an app like a comment' },
  },
  // Instagram direct messages, through the Page the account is linked to (Messenger Platform for Instagram).
  messages: {
    read: {
      call: 'GET /{page-id}/conversations?platform=instagram&fields=participants,messages{id,from,to,message,created_time,attachments}',
      docs: 'https://developers.facebook.com/docs/messenger-platform/instagram/features/conversations',
    },
    reply: {
      call: 'POST /{page-id}/messages with recipient.id (the person’s Instagram-scoped id)',
      docs: 'https://developers.facebook.com/docs/messenger-platform/instagram/features/send-message',
      note: 'Text up to 1,000 bytes; an image goes as attachment.payload.url. Outside 24 hours after the person’s last message the account may not answer',
      maxChars: 1_000,
      images: true,
      windowHours: META_WINDOW_HOURS,
    },
    push: {
      call: 'Meta webhooks, object instagram, field messages (POST /hooks/meta, signed X-Hub-Signature-256)',
      docs: 'https://developers.facebook.com/docs/messenger-platform/instagram/features/webhook',
    },
  },
  reviews: noReviews('Instagram accounts have no reviews'),
  // How an interrupted publish is settled (server/platforms/instagram/instagram-reconcile.ts).
  reconcile: {
    ask: 'GET /{ig-container-id}?fields=status_code,status for the container Herald recorded before media_publish (PUBLISHED: found; ERROR, EXPIRED or never published: absent); without it, GET /{ig-user-id}/media?fields=id,caption,timestamp,permalink matched on the caption and time (a story, which has no caption, only through its container)',
    docs: 'https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-container',
  },
} satisfies PlatformCatalogueEntry;
