// Slack (a channel's incoming webhook): https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks
// (a message of blocks; errors), https://docs.slack.dev/reference/block-kit/blocks/section-block
// (text up to 3000 characters), https://docs.slack.dev/reference/block-kit/blocks/image-block
// (image_url up to 3000 characters, alt_text up to 2000), https://docs.slack.dev/reference/block-kit/blocks
// (up to 50 blocks in a message). Images only, by URL (Slack fetches them); an incoming webhook
// cannot upload files or post a video. Slack does not say how it counts characters: Herald
// counts UTF-16 code units, never fewer than a count by code points.
import { z } from 'zod';
import { ZText } from '@/server/shared/schemas';
import type { PlatformCatalogueEntry } from './entry';
import { utf16Length } from './text-length';
import { noPostMetrics } from './post-metrics';
import { noComments } from './comments';
import { noMessages, noReviews } from './conversations';

/** Why Herald reads no metrics of a Slack post (its reader: server/platforms/slack/; https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks). */
export const SLACK_NO_STATISTICS = 'Slack incoming webhooks give no statistics (the webhook answers "ok" without the message’s id, and Slack reports no views)';

export const slack = {
  label: 'Slack',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 3000, count: utf16Length },
  // 50 blocks: the text's section and up to 49 image blocks.
  media: { maxImages: 49, maxVideos: 0, maxItems: 49, mixed: false, required: false, maxVideoSeconds: 0, maxVideoBytes: 0 },
  settings: z.strictObject({
    // Per post: Herald's media carry no description of their own.
    altTexts: z
      .array(ZText.max(2000))
      .max(49)
      .optional()
      .describe('A description of each image, in the order of the media; "Image 1", "Image 2"… when left out'),
  }),
  tokensExpire: false,
  postMetrics: noPostMetrics(SLACK_NO_STATISTICS),
  // Comments under its posts (the inbox): none for an app.
  comments: noComments('Herald posts through an incoming webhook, which cannot read the channel'),
  messages: noMessages('Herald posts to Slack through an incoming webhook, which receives nothing'),
  reviews: noReviews('Slack has no reviews'),
  // How an interrupted publish is settled (reconcile.ts).
  reconcile: {
    none: 'Slack cannot be asked: Herald posts through an incoming webhook, which answers only "ok" (no message id), takes no key that would make a second send harmless and cannot read the channel. Look at the channel to see whether the post is there',
  },
} satisfies PlatformCatalogueEntry;
