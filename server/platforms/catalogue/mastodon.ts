// Mastodon (any server): https://docs.joinmastodon.org/methods/statuses/#create (status,
// media_ids, visibility, spoiler_text, sensitive, language; Idempotency-Key),
// https://docs.joinmastodon.org/methods/instance/#v2 (configuration.statuses.max_characters,
// default 500; characters_reserved_per_url 23; max_media_attachments 4;
// media_attachments.image_size_limit 16 MB and video_size_limit 99 MB by default),
// https://docs.joinmastodon.org/user/posting/#attachments (up to 4 images, or 1 video).
// Each server may set its own limits: the connect flow stores max_characters as
// platformData.maxChars, which the adapter checks before posting; the numbers here are the
// defaults of a stock server.
import { z } from 'zod';
import { ZText } from '@/server/shared/schemas';
import { MB, type PlatformCatalogueEntry } from './entry';
import { withOptionWords } from './option-words';
import { mastodonLength } from './text-length';
import { noMessages, noReviews } from './conversations';

export const mastodon = {
  label: 'Mastodon',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 500, count: mastodonLength },
  media: {
    maxImages: 4,
    maxVideos: 1,
    maxItems: 4,
    mixed: false,
    required: false,
    // Mastodon states no duration limit; the size is the cap.
    maxVideoSeconds: Number.POSITIVE_INFINITY,
    maxVideoBytes: 99 * MB,
    maxImageBytes: 16 * MB,
  },
  settings: z.strictObject({
    // Mastodon's own names: "private" is followers only, "direct" only the people mentioned.
    visibility: withOptionWords(z.enum(['public', 'unlisted', 'private', 'direct']), {
      public: 'Public',
      unlisted: 'Quiet public (kept out of public timelines)',
      private: 'Followers only',
      direct: 'Mentioned people only',
    })
      .optional()
      .describe('Who sees the post; the account’s own default when left out'),
    // Per post: a content warning belongs to what is said, not to the account.
    spoilerText: ZText.max(500).optional().describe('A content warning shown in place of the text until a reader opens the post'),
    sensitive: z.boolean().optional().describe('Hides the images and videos behind a warning until a reader opens them'),
    language: ZText.regex(/^[a-z]{2,3}$/, 'a language code of two or three letters, e.g. en or de')
      .optional()
      .describe('The language of the text, as a two- or three-letter language code such as en or de'),
    altTexts: z.array(ZText.max(1500)).max(4).optional().describe('A description of each image or video, in the order of the media'),
  }),
  tokensExpire: false,
  // What Herald reads of a published post (its reader: server/platforms/mastodon/), and why not the rest.
  postMetrics: {
    impressions: { none: 'Mastodon does not report impressions' },
    reach: { none: 'Mastodon does not report reach' },
    views: { none: 'Mastodon does not report views' },
    reactions: { reads: 'favourites_count' },
    comments: { reads: 'replies_count' },
    shares: { reads: 'reblogs_count' },
    saves: { none: 'Mastodon does not report bookmarks of a status (they are private to each user)' },
    linkClicks: { none: 'Mastodon does not report link clicks' },
    videoWatchSeconds: { none: 'Mastodon does not report watch time' },
  },
  // What an app may do with the comments under its posts (the inbox), and the pages each call follows.
  comments: {
    read: { call: 'GET /api/v1/statuses/:id/context', docs: 'https://docs.joinmastodon.org/methods/statuses/#context' },
    reply: {
      call: 'POST /api/v1/statuses (in_reply_to_id)',
      docs: 'https://docs.joinmastodon.org/methods/statuses/#create',
      note: 'A reply is a status: the server’s own limit applies (500 characters by default)',
      maxChars: 500,
    },
    hide: { none: 'Mastodon has no hiding of replies; an account can only mute or block their author' },
    delete: { none: 'Only a reply’s author (or their server’s moderators) can delete it' },
    like: { call: 'POST /api/v1/statuses/:id/favourite', docs: 'https://docs.joinmastodon.org/methods/statuses/#favourite' },
  },
  messages: noMessages('Mastodon has no direct messages apart from posts with direct visibility, which Herald does not read as messages yet'),
  reviews: noReviews('Mastodon accounts have no reviews'),
  // How an interrupted publish is settled (reconcile.ts).
  reconcile: {
    idempotent:
      'POST /api/v1/statuses with Idempotency-Key = the target: the server keeps the key an hour and answers a repeat with the status it made; an older attempt is settled by asking GET /api/v1/accounts/:id/statuses, matched on the text and the time',
    docs: 'https://docs.joinmastodon.org/methods/statuses/#create',
  },
} satisfies PlatformCatalogueEntry;
