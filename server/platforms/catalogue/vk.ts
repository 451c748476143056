// VK (VKontakte) through the VK API (https://dev.vk.com/ru/method/wall.post, v5.199): a wall
// post on the user's own wall or on the wall of a community they administer, chosen when the
// account is connected (owner_id; a community's is negative). `attachments` takes at most 10
// objects: photos uploaded for the wall (photos.getWallUploadServer → upload →
// photos.saveWallPhoto) and videos uploaded with video.save. A photo is at most 50 MB
// (https://dev.vk.com/ru/api/upload/wall-photo). VK does not state a text limit for wall.post;
// its editor stops at 16,384 characters, counted as UTF-16 units.
import { z } from 'zod';
import { storableText } from '@/server/shared/schemas';
import { GB, MB, type PlatformCatalogueEntry } from './entry';
import { noComments } from './comments';
import { utf16Length } from './text-length';
import { noMessages } from './conversations';

export const vk = {
  label: 'VK',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 16_384, count: utf16Length },
  media: {
    maxImages: 10,
    maxVideos: 10,
    maxItems: 10,
    mixed: true,
    required: false,
    // VK states no duration limit for uploads; Herald's cap.
    maxVideoSeconds: 12 * 60 * 60,
    // Herald’s cap (VK accepts far larger files): one upload request carries the whole file.
    maxVideoBytes: 1 * GB,
    maxImageBytes: 50 * MB,
  },
  settings: z.strictObject({
    signed: z
      .boolean()
      .optional()
      .describe('On a community wall: signs the post with the name of the person who connected the account')
      .meta({ default: false }),
    source: z
      .url({ protocol: /^https?$/ })
      .max(512)
      .check(storableText)
      .optional()
      .describe('A link shown under the post as its source (VK’s copyright field)'),
  }),
  // VK ID access tokens last an hour; the refresh token renews them.
  tokensExpire: true,
  // What Herald reads of a published post (server/platforms/vk/vk-insights.ts).
  postMetrics: {
    impressions: { none: 'VK reports views of a post, not impressions' },
    reach: { none: 'VK reports a post’s reach through stats.getPostReach for communities only; Herald does not read it' },
    views: { reads: 'views.count' },
    reactions: { reads: 'likes.count' },
    comments: { reads: 'comments.count' },
    shares: { reads: 'reposts.count' },
    saves: { none: 'VK does not report saves of a post' },
    linkClicks: { none: 'VK reports link clicks for communities only (stats.getPostReach); Herald does not read them' },
    videoWatchSeconds: { none: 'VK does not report watch time through wall.getById' },
  },
  comments: noComments('VK lists a post’s comments (wall.getComments), which Herald does not read yet'),
  messages: noMessages('VK community messages (messages.getConversations) are not read by Herald yet'),
  // How an interrupted publish is settled (server/platforms/vk/vk-reconcile.ts).
  reconcile: {
    ask: 'wall.get?owner_id={wall}&count=20: the wall’s newest posts, matched on the text and the time (wall.post’s guid, the target’s key, only keeps a repeat out for an hour)',
    docs: 'https://dev.vk.com/ru/method/wall.get',
  },
} satisfies PlatformCatalogueEntry;
