// Pinterest: https://developers.pinterest.com/docs/api/v5/pins-create (title up to 100
// characters, description up to 500, link up to 2,048, alt_text up to 500; media_source
// image_url or video_id), https://developers.pinterest.com/docs/api/v5/media-create (video
// uploads), https://help.pinterest.com/en/business/article/pinterest-product-specs (images up
// to 20 MB; videos 4 s to 15 min, up to 2 GB). The post text is the pin's description.
import { z } from 'zod';
import { storableText, ZText } from '@/server/shared/schemas';
import { GB, MB, type PlatformCatalogueEntry } from './entry';
import { codePointLength } from './text-length';
import { noComments } from './comments';

const url = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .check(storableText);

export const pinterest = {
  label: 'Pinterest',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 500, count: codePointLength },
  // One image or one video per pin (carousels are not offered by Herald).
  media: { maxImages: 1, maxVideos: 1, maxItems: 1, mixed: false, required: true, maxVideoSeconds: 15 * 60, maxVideoBytes: 2 * GB, maxImageBytes: 20 * MB },
  settings: z.strictObject({
    title: ZText.trim().min(1).max(100).optional().describe('The pin’s title, up to 100 characters'),
    link: url.optional().describe('Where the pin leads when clicked'),
    altText: ZText.trim().min(1).max(500).optional().describe('The image’s description for screen readers, up to 500 characters'),
    boardId: ZText.regex(/^\d{1,30}$/, 'a Pinterest board id (digits)')
      .optional()
      .describe('Pins to this board of the account (its id, digits) instead of the board chosen when connecting'),
    coverImageUrl: z
      .url({ protocol: /^https$/ })
      .max(2048)
      .check(storableText)
      .optional()
      .describe('A video pin’s cover image; the video’s first frame when left out'),
  }),
  // What Herald reads of a published post (its reader: server/platforms/pinterest/), and why not the rest.
  postMetrics: {
    impressions: { reads: 'IMPRESSION' },
    reach: { none: 'Pinterest reports audiences per account, not reach per Pin' },
    views: { reads: 'VIDEO_MRC_VIEW' },
    reactions: { none: 'Pinterest’s Pin analytics do not report reactions over a date range' },
    comments: { none: 'Pinterest’s Pin analytics do not report comments over a date range' },
    shares: { none: 'Pinterest does not report shares of a Pin' },
    saves: { reads: 'SAVE' },
    linkClicks: { reads: 'OUTBOUND_CLICK' },
    videoWatchSeconds: { none: 'Pinterest reports watch time only as averages and 50%-visible play time; Herald does not read them' },
  },
  // Comments under its posts (the inbox): none for an app.
  comments: noComments('Pinterest’s API (v5) has no comments endpoints'),
  // How an interrupted publish is settled (server/platforms/pinterest/pinterest-reconcile.ts).
  reconcile: {
    ask: 'GET /v5/boards/{board_id}/pins on the board pinned to, matched on the description, title, link and created_at',
    docs: 'https://developers.pinterest.com/docs/api/v5/boards-list_pins',
  },
} satisfies PlatformCatalogueEntry;
