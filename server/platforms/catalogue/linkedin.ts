// LinkedIn: https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api,
// …/multiimage-post-api (2 to 20 images), …/videos-api (one video, 3 s to 30 min, up to 500 MB).
// The 3,000-character commentary limit is from third parties only (docs/platform-limits.md).
import { z } from 'zod';
import { MB, type PlatformCatalogueEntry } from './entry';
import { withOptionWords } from './option-words';
import { codePointLength } from './text-length';
import { noMessages, noReviews } from './conversations';

export const linkedin = {
  label: 'LinkedIn',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 3000, count: codePointLength },
  media: { maxImages: 20, maxVideos: 1, maxItems: 20, mixed: false, required: false, maxVideoSeconds: 30 * 60, maxVideoBytes: 500 * MB },
  settings: z.strictObject({
    visibility: withOptionWords(z.enum(['PUBLIC', 'CONNECTIONS']), { PUBLIC: 'Anyone', CONNECTIONS: 'Connections only' })
      .optional()
      .describe('Who sees the post: anyone, or the member’s connections only')
      .meta({ default: 'PUBLIC' }),
  }),
  // What Herald reads of a published post (its reader: server/platforms/linkedin/), and why not the rest.
  postMetrics: {
    impressions: { reads: 'impressionCount' },
    reach: { reads: 'uniqueImpressionsCount' },
    views: { none: 'LinkedIn reports video views only in its own analytics' },
    reactions: { reads: 'likeCount' },
    comments: { reads: 'commentCount' },
    shares: { reads: 'shareCount' },
    saves: { none: 'LinkedIn does not report saves' },
    linkClicks: { reads: 'clickCount' },
    videoWatchSeconds: { none: 'LinkedIn reports watch time only in its own analytics' },
  },
  // What an app may do with the comments under its posts (the inbox), and the pages each call follows.
  comments: {
    read: {
      call: 'GET /rest/socialActions/{shareUrn}/comments',
      docs: 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api',
      note: 'Organization pages, with the Community Management API; a member’s own posts need r_member_social, which LinkedIn grants to few apps',
    },
    reply: {
      call: 'POST /rest/socialActions/{shareUrn|commentUrn}/comments (parentComment)',
      docs: 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api',
      note: 'LinkedIn’s comment box takes 1,250 characters (the Comments API states no limit of its own)',
      maxChars: 1_250,
    },
    hide: { none: 'LinkedIn’s Comments API has no hiding; a page can delete a comment on its own post' },
    delete: {
      call: 'DELETE /rest/socialActions/{shareUrn}/comments/{commentId}',
      docs: 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api',
    },
    like: { call: 'POST /rest/reactions', docs: 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/reactions-api' },
  },
  messages: noMessages('LinkedIn opens its messaging API only to approved partners, not to apps like Herald'),
  reviews: noReviews('LinkedIn pages have no reviews'),
  // How an interrupted publish is settled (server/platforms/linkedin/linkedin-reconcile.ts).
  reconcile: {
    ask: 'GET /rest/posts?author={urn}&q=author&sortBy=CREATED matched on the commentary and createdAt; a member’s own posts need r_member_social, which LinkedIn grants to few apps: without it LinkedIn refuses and a person decides',
    docs: 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api',
  },
} satisfies PlatformCatalogueEntry;
