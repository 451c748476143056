// Lemmy (any instance): https://join-lemmy.org/api/classes/LemmyHttp.html#createPost
// (CreatePost: name, community_id, url, body, nsfw, alt_text, custom_thumbnail, language_id),
// post titles up to 200 characters and bodies up to 10,000 (Lemmy's utils/validation.rs);
// images through the instance's pict-rs (POST /pictrs/image). A post carries one link or one
// image as its url; Herald posts no video (pict-rs video uploads are off on most instances).
// The community is chosen when the account is connected (platformData.communityId).
import { z } from 'zod';
import { storableText, ZText } from '@/server/shared/schemas';
import { MB, type PlatformCatalogueEntry } from './entry';
import { noComments } from './comments';
import { noPostMetrics } from './post-metrics';
import { codePointLength } from './text-length';
import { noMessages } from './conversations';

export const lemmy = {
  label: 'Lemmy',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 10_000, count: codePointLength },
  media: {
    maxImages: 1,
    maxVideos: 0,
    maxItems: 1,
    mixed: false,
    required: false,
    maxVideoSeconds: 0,
    maxVideoBytes: 0,
    // pict-rs' default max_file_size.
    maxImageBytes: 25 * MB,
  },
  settings: z.strictObject({
    title: ZText.trim().min(1).max(200).optional().describe('The post title (required), up to 200 characters'),
    url: z
      .url({ protocol: /^https?$/ })
      .max(512)
      .check(storableText)
      .optional()
      .describe('A link the post points to (with an image, the image becomes its thumbnail)'),
    nsfw: z.boolean().optional().describe('Marks the post as not safe for work'),
    altText: ZText.max(1500).optional().describe('A description of the image, for people who cannot see it'),
  }),
  requiredSettings: ['title'],
  // A Lemmy login token has no expiry: it lasts until the account logs out or changes its password.
  tokensExpire: false,
  postMetrics: noPostMetrics('Lemmy reports a post’s score and comment count (GET /api/v3/post), which Herald does not read yet'),
  comments: noComments('Lemmy lists a post’s comments (GET /api/v3/comment/list?post_id=), which Herald does not read yet'),
  messages: noMessages('Lemmy’s private messages (GET /api/v3/private_message/list) are not read by Herald yet'),
  // How an interrupted publish is settled (server/platforms/lemmy/lemmy-reconcile.ts).
  reconcile: {
    ask: 'GET /api/v3/user?username={account}&sort=New: the account’s newest posts, matched on the community, the title and the time (Lemmy takes no idempotency key)',
    docs: 'https://join-lemmy.org/api/classes/LemmyHttp.html#getPersonDetails',
  },
} satisfies PlatformCatalogueEntry;
