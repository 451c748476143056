// YouTube: https://developers.google.com/youtube/v3/docs/videos (snippet.title "a maximum length
// of 100 characters", snippet.description "a maximum length of 5000 bytes", both without < or >;
// snippet.tags "a maximum length of 500 characters", a tag with a space counted with its quotes
// and the commas between tags counted; status.privacyStatus; status.selfDeclaredMadeForKids),
// https://developers.google.com/youtube/v3/docs/videos/insert (one video, up to 256 GB),
// https://support.google.com/youtube/answer/71673 (15 minutes unless the account is verified,
// then up to 12 hours), https://support.google.com/youtube/answer/15424877 (Shorts: square or
// vertical, up to 3 minutes).
import { z } from 'zod';
import { ZText } from '@/server/shared/schemas';
import { GB, type PlatformCatalogueEntry } from './entry';
import { withOptionWords } from './option-words';
import { utf8ByteLength } from './text-length';

const noAngleBrackets = /^[^<>]*$/;

/** How YouTube counts the tags' 500: each tag, quotes around one with a space, a comma between two. */
export function youtubeTagsLength(tags: readonly string[]): number {
  return tags.reduce((n, tag, i) => n + [...tag].length + (tag.includes(' ') ? 2 : 0) + (i > 0 ? 1 : 0), 0);
}

export const youtube = {
  label: 'YouTube',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 5000, count: utf8ByteLength, unit: 'UTF-8 bytes' },
  // One video per upload, nothing else. 12 hours is a verified account's limit; YouTube refuses
  // a longer video from an unverified one (15 minutes) with its own message, verbatim.
  media: { maxImages: 0, maxVideos: 1, maxItems: 1, mixed: false, required: true, maxVideoSeconds: 12 * 60 * 60, maxVideoBytes: 256 * GB },
  settings: z.strictObject({
    title: ZText.trim()
      .min(1)
      .max(100)
      .regex(noAngleBrackets, 'must not contain < or >')
      .optional()
      .describe('The video title (required by YouTube): up to 100 characters, no < or >'),
    privacy: withOptionWords(z.enum(['public', 'unlisted', 'private']), {
      public: 'Public',
      unlisted: 'Unlisted (only people with the link)',
      private: 'Private (only the channel and people it invites)',
    })
      .optional()
      .describe('Who can watch the video: anyone, people with its link, or the channel and those it invites')
      .meta({ default: 'public' }),
    tags: z
      .array(ZText.trim().min(1).max(500).regex(noAngleBrackets, 'must not contain < or >'))
      .max(500)
      .refine((tags) => youtubeTagsLength(tags) <= 500, 'together may count at most 500 characters as YouTube counts them')
      .optional()
      .describe('Keywords; together at most 500 characters, counting commas between tags and quotes around a tag with a space'),
    madeForKids: z.boolean().optional().describe('Tells YouTube the video is made for children (COPPA)').meta({ default: false }),
    categoryId: ZText.regex(/^\d{1,4}$/, 'a YouTube category number, e.g. 22')
      .optional()
      .describe('YouTube’s number for the video’s category (its category id), e.g. 22 for People & Blogs; YouTube picks one when left out'),
    short: z
      .boolean()
      .optional()
      .describe('The video is a Short (square or vertical, up to 3 minutes), so its link opens it as one; YouTube decides from the video itself')
      .meta({ default: false }),
  }),
  requiredSettings: ['title'],
  // What Herald reads of a published post (its reader: server/platforms/youtube/), and why not the rest.
  postMetrics: {
    impressions: {
      none: 'YouTube reports impressions only in the YouTube Analytics API (scope yt-analytics.readonly), which Herald does not ask for; the Data API’s statistics do not include it',
    },
    reach: { none: 'YouTube does not report reach' },
    views: { reads: 'statistics.viewCount' },
    reactions: { reads: 'statistics.likeCount' },
    comments: { reads: 'statistics.commentCount' },
    shares: {
      none: 'YouTube reports shares only in the YouTube Analytics API (scope yt-analytics.readonly), which Herald does not ask for; the Data API’s statistics do not include it',
    },
    saves: { none: 'YouTube’s favoriteCount is deprecated (always 0); it reports no saves' },
    linkClicks: { none: 'YouTube does not report link clicks for a video' },
    videoWatchSeconds: {
      none: 'YouTube reports watch time (estimatedMinutesWatched) only in the YouTube Analytics API (scope yt-analytics.readonly), which Herald does not ask for; the Data API’s statistics do not include it',
    },
  },
  // What an app may do with the comments under its posts (the inbox), and the pages each call follows.
  comments: {
    read: {
      call: 'GET /youtube/v3/commentThreads?videoId=',
      docs: 'https://developers.google.com/youtube/v3/docs/commentThreads/list',
      note: '1 quota unit per page of up to 100 threads',
    },
    reply: {
      call: 'POST /youtube/v3/comments (snippet.parentId); POST /youtube/v3/commentThreads for a comment on the video itself',
      docs: 'https://developers.google.com/youtube/v3/docs/comments/insert',
      note: '50 quota units per reply; replies go under a top-level comment (one level deep)',
      maxChars: 10_000,
    },
    hide: {
      call: 'POST /youtube/v3/comments/setModerationStatus (heldForReview)',
      docs: 'https://developers.google.com/youtube/v3/docs/comments/setModerationStatus',
      note: '50 quota units; published shows it again',
    },
    delete: { none: 'YouTube lets an app delete only the channel’s own comments; someone else’s is held for review or rejected instead' },
    like: { none: 'YouTube’s API rates videos, not comments' },
  },
  // How an interrupted publish is settled (reconcile.ts): YouTube takes no idempotency key, so it is asked.
  reconcile: {
    ask: 'PUT <the upload session> with Content-Range bytes */<size> (308: incomplete, no video; 201: the video); without a live session, GET /youtube/v3/playlistItems of the channel’s uploads playlist, matched on the title and the time',
    docs: 'https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol',
  },
} satisfies PlatformCatalogueEntry;
