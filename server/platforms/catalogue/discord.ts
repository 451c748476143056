// Discord (a channel's incoming webhook): https://discord.com/developers/docs/resources/webhook#execute-webhook
// (content up to 2000 characters, up to 10 embeds, files as multipart/form-data with
// payload_json, thread_name for forum channels, flags SUPPRESS_EMBEDS),
// https://discord.com/developers/docs/reference#uploading-files (up to 10 files per message),
// https://support.discord.com/hc/en-us/articles/25444343291031 (uploads up to 10 MB without a
// server boost). Discord counts the content's characters as Unicode code points.
import { z } from 'zod';
import { storableText, ZText } from '@/server/shared/schemas';
import { MB, type PlatformCatalogueEntry } from './entry';
import { codePointLength } from './text-length';
import { noPostMetrics } from './post-metrics';
import { noComments } from './comments';
import { noMessages, noReviews } from './conversations';

/** Why Herald reads no metrics of a Discord post (its reader: server/platforms/discord/; https://discord.com/developers/docs/resources/webhook). */
export const DISCORD_NO_STATISTICS = 'Discord webhooks give no statistics of the messages they post (Discord reports no views or reach of a message)';

export const discord = {
  label: 'Discord',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 2000, count: codePointLength },
  media: {
    maxImages: 10,
    maxVideos: 10,
    maxItems: 10,
    mixed: true,
    required: false,
    // Discord states no duration limit; the file size is the cap.
    maxVideoSeconds: Number.POSITIVE_INFINITY,
    maxVideoBytes: 10 * MB,
    maxImageBytes: 10 * MB,
  },
  settings: z.strictObject({
    username: ZText.min(1).max(80).optional().describe('Posts under this name instead of the webhook’s own'),
    threadName: ZText.min(1).max(100).optional().describe('In a forum or media channel: the title of the new post'),
    suppressEmbeds: z.boolean().optional().describe('Shows no link previews under the message'),
    embed: z
      .strictObject({
        title: ZText.min(1).max(256).optional().describe('The card’s title, up to 256 characters'),
        description: ZText.min(1).max(4096).optional().describe('The card’s text, up to 4,096 characters'),
        url: z
          .url({ protocol: /^https$/ })
          .max(2048)
          .check(storableText)
          .optional()
          .describe('Where the title links to'),
        color: ZText.regex(/^#[0-9a-fA-F]{6}$/, 'a colour written #RRGGBB, e.g. #3B5BDB')
          .optional()
          .describe('The colour of the card’s edge, written #RRGGBB, e.g. #3B5BDB'),
      })
      .optional()
      .describe('A card under the message: title, text, link and colour'),
  }),
  tokensExpire: false,
  postMetrics: noPostMetrics(DISCORD_NO_STATISTICS),
  // Comments under its posts (the inbox): none for an app.
  comments: noComments('Herald posts through a channel webhook, which cannot read the channel'),
  messages: noMessages('Herald posts to Discord through a channel webhook, which receives nothing'),
  reviews: noReviews('Discord has no reviews'),
  // How an interrupted publish is settled (reconcile.ts).
  reconcile: {
    none: 'Discord cannot be asked: Herald posts through a channel webhook, which takes no nonce that would make a second send harmless (only a bot’s messages take one) and can fetch a message only by the id the interrupted send never returned; reading the channel would need a bot. Look at the channel to see whether the post is there',
  },
} satisfies PlatformCatalogueEntry;
