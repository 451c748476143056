// Ghost (any Ghost site, through its Admin API): https://docs.ghost.org/admin-api/#creating-a-post
// (POST /ghost/api/admin/posts/?source=html { posts: [{ title, html, status, feature_image,
// tags, custom_excerpt, canonical_url, visibility }] }; publishing with ?newsletter={slug}
// also emails the post: https://docs.ghost.org/admin-api/#sending-a-post-via-email),
// https://docs.ghost.org/admin-api/#uploading-an-image (POST /images/upload/, multipart),
// https://docs.ghost.org/admin-api/#token-authentication (the integration's Admin API key).
// Ghost's post schema caps the title at 255 characters and custom_excerpt at 300. Herald's text
// is sent as HTML paragraphs (Ghost converts HTML into its editor's format); images are uploaded
// to the site: the first is the feature image, the others follow the text.
import { z } from 'zod';
import { ZText } from '@/server/shared/schemas';
import { type PlatformCatalogueEntry } from './entry';
import { withOptionWords } from './option-words';
import { codePointLength } from './text-length';
import { noPostMetrics } from './post-metrics';
import { noComments } from './comments';
import { canonicalUrlSetting, LONG_FORM_MAX_CHARS, LONG_FORM_MEDIA, tagsSetting, titleSetting } from './long-form';

export const GHOST_MAX_TITLE = 255;

export const GHOST_NO_STATISTICS =
  'Ghost’s Admin API reports no views, reactions or shares of a post (only email opens of a post sent as a newsletter, which Herald does not read)';

export const ghost = {
  label: 'Ghost',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: LONG_FORM_MAX_CHARS, count: codePointLength },
  media: LONG_FORM_MEDIA,
  article: { maxTitle: GHOST_MAX_TITLE },
  settings: z.strictObject({
    title: titleSetting(GHOST_MAX_TITLE),
    published: z.boolean().optional().describe('Publishes the post on the site; false leaves it a draft in Ghost’s editor').meta({ default: true }),
    tags: tagsSetting(10, ZText.trim().min(1).max(191)),
    excerpt: ZText.trim().max(300).optional().describe('The summary shown on the site’s index pages and in link previews'),
    canonicalUrl: canonicalUrlSetting,
    visibility: withOptionWords(z.enum(['public', 'members', 'paid']), {
      public: 'Everyone',
      members: 'Members only',
      paid: 'Paid members only',
    })
      .optional()
      .describe('Who can read the post on the site; the site’s own default when left out'),
    sendAsNewsletter: z.boolean().optional().describe('Also emails the published post to the site’s subscribers').meta({ default: false }),
    newsletter: ZText.trim()
      .regex(/^[a-z0-9-]{1,191}$/, 'a newsletter’s slug, e.g. default-newsletter')
      .optional()
      .describe('Which of the site’s newsletters sends it, by its slug; the default newsletter when left out'),
  }),
  // An Admin API key does not lapse; deleting the integration revokes it.
  tokensExpire: false,
  postMetrics: noPostMetrics(GHOST_NO_STATISTICS),
  comments: noComments('Ghost’s Admin API has no calls for the comments members leave under a post'),
  reconcile: {
    ask: 'GET /ghost/api/admin/posts/?order=created_at desc (the site’s newest posts, drafts included): matched on the title and the creation time; Ghost takes no key that would make a second POST /posts/ harmless',
    docs: 'https://docs.ghost.org/admin-api/#posts',
  },
} satisfies PlatformCatalogueEntry;
