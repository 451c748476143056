// Tumblr (API v2, Neue Post Format): https://www.tumblr.com/docs/en/api/v2#posts---createreblog-a-post-neue-post-format
// (POST /v2/blog/{blog-identifier}/posts { content: [NPF blocks], state, tags (comma-separated) },
// media uploaded as multipart parts named by each block's `identifier`) and the NPF limits
// (https://github.com/tumblr/docs/blob/master/npf-spec.md#post-content-limits: a text block up to
// 4,096 code points, at most 30 image blocks and one uploaded video). Image and video sizes are
// the API's upload limits (10 MB an image; 500 MB and 10 minutes a video). The blog is chosen
// when the account is connected (platformData.blogName).
import { z } from 'zod';
import { ZText } from '@/server/shared/schemas';
import { MB, type PlatformCatalogueEntry } from './entry';
import { noComments } from './comments';
import { LONG_FORM_MAX_CHARS } from './long-form';
import { noPostMetrics } from './post-metrics';
import { withOptionWords } from './option-words';
import { codePointLength } from './text-length';

/** NPF's cap on one text block, in code points: longer paragraphs are split across blocks. */
export const TUMBLR_TEXT_BLOCK_MAX = 4096;

export const tumblr = {
  label: 'Tumblr',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  // A post is stored up to 1 MB (about 900,000 characters); Herald's own cap on a text is lower.
  text: { maxChars: LONG_FORM_MAX_CHARS, count: codePointLength },
  media: {
    maxImages: 10,
    maxVideos: 1,
    maxItems: 10,
    mixed: true,
    required: false,
    maxVideoSeconds: 600,
    maxVideoBytes: 500 * MB,
    maxImageBytes: 10 * MB,
  },
  settings: z.strictObject({
    tags: z
      .array(
        ZText.trim()
          .min(1)
          .max(140)
          .regex(/^[^,]+$/, 'a tag without commas (Tumblr takes the tags comma-separated)'),
      )
      .max(30)
      .optional()
      .describe('Up to 30 tags, without the #'),
    state: withOptionWords(z.enum(['published', 'draft']), {
      published: 'Published on the blog at once',
      draft: 'Saved as a draft on the blog',
    })
      .optional()
      .describe('Whether the post goes live on the blog or waits there as a draft')
      .meta({ default: 'published' }),
    altText: ZText.max(1000).optional().describe('A description of the images, for people who cannot see them'),
  }),
  // Tumblr's OAuth 2.0 access tokens last about 40 minutes (expires_in 2520); the refresh token renews them.
  tokensExpire: true,
  postMetrics: noPostMetrics('Tumblr reports a post’s notes (GET /v2/blog/{blog}/notes), which Herald does not read yet'),
  comments: noComments('Tumblr replies are notes on the post (GET /v2/blog/{blog}/notes?mode=conversation), which Herald does not read yet'),
  // How an interrupted publish is settled (server/platforms/tumblr/tumblr-reconcile.ts).
  reconcile: {
    ask: 'GET /v2/blog/{blog}/posts?npf=true (or /posts/draft for a draft): the blog’s newest posts, matched on the text blocks and the time (Tumblr takes no idempotency key)',
    docs: 'https://www.tumblr.com/docs/en/api/v2#posts--retrieve-published-posts',
  },
} satisfies PlatformCatalogueEntry;
