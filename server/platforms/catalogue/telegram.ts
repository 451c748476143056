// Telegram (a channel, posted to by the deployment's bot): https://core.telegram.org/bots/api#sendmessage
// (text 1-4096 characters after entities parsing), https://core.telegram.org/bots/api#sendphoto
// and #sendvideo (caption 0-1024), https://core.telegram.org/bots/api#sendmediagroup (an album
// of 2-10 photos and videos, mixed), https://core.telegram.org/bots/api#sending-files (by URL:
// 5 MB for photos, 20 MB for other files; uploaded: 10 MB for photos, 50 MB for other files).
// Telegram counts entity offsets in UTF-16 code units; Herald counts the text limit the same
// way (never fewer than Telegram's own count).
import { z } from 'zod';
import { MB, type PlatformCatalogueEntry } from './entry';
import { utf16Length } from './text-length';
import { noPostMetrics } from './post-metrics';
import { noComments } from './comments';
import { noMessages, noReviews } from './conversations';

/** Why Herald reads no metrics of a Telegram post (its reader: server/platforms/telegram/; https://core.telegram.org/bots/api#message and #messagereactioncountupdated). */
export const TELEGRAM_NO_STATISTICS =
  'Telegram’s Bot API offers no statistics of channel posts (views exist only in the client API; reaction counts only as updates Herald does not receive)';

export const telegram = {
  label: 'Telegram',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 4096, count: utf16Length, maxCharsWithMedia: 1024 },
  media: {
    maxImages: 10,
    maxVideos: 10,
    maxItems: 10,
    mixed: true,
    required: false,
    // Telegram states no duration limit for a bot's video; its size is the cap.
    maxVideoSeconds: Number.POSITIVE_INFINITY,
    maxVideoBytes: 50 * MB,
    maxImageBytes: 10 * MB,
  },
  settings: z.strictObject({
    silent: z.boolean().optional().describe('Sends the message silently: subscribers get a notification without sound'),
    protectContent: z.boolean().optional().describe('Keeps the message from being forwarded or saved'),
    disableLinkPreview: z.boolean().optional().describe('Shows no preview of the first link in a text message'),
  }),
  tokensExpire: false,
  postMetrics: noPostMetrics(TELEGRAM_NO_STATISTICS),
  // Comments under its posts (the inbox): none for an app.
  comments: noComments(
    'Comments on a channel post live in the channel’s linked discussion group, which Herald’s bot does not join; the bot posts to the channel only',
  ),
  // The deployment's one bot posts for every connected channel, so a private message to it
  // names no channel: Herald cannot tell whose inbox it belongs to.
  messages: noMessages(
    'Herald posts to Telegram channels through the deployment’s one bot, and a private message to that bot belongs to no one channel: Herald cannot tell whose inbox it is for',
  ),
  reviews: noReviews('Telegram has no reviews'),
  // How an interrupted publish is settled (reconcile.ts).
  reconcile: {
    none: 'Telegram cannot be asked: the Bot API has no call that reads a channel’s messages, and sending takes no key that would make a second send harmless. Look at the channel to see whether the post is there',
  },
} satisfies PlatformCatalogueEntry;
