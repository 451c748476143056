// TikTok: https://developers.tiktok.com/doc/content-posting-api-reference-direct-post (caption in
// UTF-16 units), …/content-posting-api-media-transfer-guide (up to 35 photos, or one video of up
// to 4 GB and 10 min), …/content-posting-api-get-started (media required). Photo posts could
// carry 4,000 units in their description; Herald keeps one text rule per platform.
import { z } from 'zod';
import { GB, type PlatformCatalogueEntry } from './entry';
import { utf16Length } from './text-length';
import { noComments } from './comments';
import { noMessages, noReviews } from './conversations';

export const tiktok = {
  label: 'TikTok',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 2200, count: utf16Length },
  media: { maxImages: 35, maxVideos: 1, maxItems: 35, mixed: false, required: true, maxVideoSeconds: 10 * 60, maxVideoBytes: 4 * GB },
  settings: z.strictObject({}),
  // What Herald reads of a published post (its reader: server/platforms/tiktok/), and why not the rest.
  postMetrics: {
    impressions: { none: 'TikTok’s Display API does not report impressions' },
    reach: { none: 'TikTok’s Display API does not report reach' },
    views: { reads: 'view_count' },
    reactions: { reads: 'like_count' },
    comments: { reads: 'comment_count' },
    shares: { reads: 'share_count' },
    saves: { none: 'TikTok’s Display API does not report saves' },
    linkClicks: { none: 'TikTok videos have no link clicks' },
    videoWatchSeconds: { none: 'TikTok’s Display API does not report watch time' },
  },
  // Comments under its posts (the inbox): none for an app.
  comments: noComments(
    'TikTok offers comments only through its Business API (TikTok for Business accounts and a separate app review), not the Content Posting and Display APIs Herald uses',
  ),
  messages: noMessages('TikTok’s Business Messaging API is open only to approved partners, not to apps like Herald'),
  reviews: noReviews('TikTok accounts have no reviews'),
  // How an interrupted publish is settled (server/platforms/tiktok/tiktok-reconcile.ts).
  reconcile: {
    ask: 'POST /v2/post/publish/status/fetch/ with the publish_id Herald recorded when the init call answered (PUBLISH_COMPLETE or still processing: found; FAILED: absent); without one TikTok cannot be asked, and a person decides',
    docs: 'https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status',
  },
} satisfies PlatformCatalogueEntry;
