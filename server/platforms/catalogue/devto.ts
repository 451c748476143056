// Dev.to (DEV, the Forem API v1): https://developers.forem.com/api/v1#tag/articles/operation/createArticle
// (POST /api/articles { article: { title, body_markdown, published (default false), series,
// main_image, canonical_url, description, tags, organization_id } }, api-key header).
// Forem refuses more than four tags and a tag that is not alphanumeric
// (https://dev.to/p/editor_guide: "up to 4 tags"). The body is Markdown: Herald's text goes as
// written. No video upload exists in the API; images are the cover (main_image, the first
// image) and, after it, Markdown images at the end of the body, both by URL (DEV fetches them).
import { z } from 'zod';
import { ZText } from '@/server/shared/schemas';
import { type PlatformCatalogueEntry } from './entry';
import { codePointLength } from './text-length';
import { noComments } from './comments';
import { canonicalUrlSetting, LONG_FORM_MAX_CHARS, LONG_FORM_MEDIA, tagsSetting, titleSetting } from './long-form';

/** Forem's cap on an article title (Article validates title length ≤ 128). */
export const DEVTO_MAX_TITLE = 128;

export const devto = {
  label: 'Dev.to',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  // DEV states no body limit near Herald's own cap; characters as code points.
  text: { maxChars: LONG_FORM_MAX_CHARS, count: codePointLength },
  media: LONG_FORM_MEDIA,
  article: { maxTitle: DEVTO_MAX_TITLE },
  settings: z.strictObject({
    title: titleSetting(DEVTO_MAX_TITLE),
    published: z.boolean().optional().describe('Publishes the article; false leaves it a draft on DEV for a last look').meta({ default: true }),
    tags: tagsSetting(4, ZText.regex(/^[A-Za-z0-9]{1,30}$/, 'a tag of letters and digits only, e.g. javascript')),
    canonicalUrl: canonicalUrlSetting,
    series: ZText.trim().min(1).max(100).optional().describe('The series the article belongs to, by name; DEV links the articles of a series'),
    description: ZText.trim().max(300).optional().describe('The summary shown in feeds and link previews; DEV takes the start of the body without one'),
  }),
  // An API key does not lapse; it is revoked in DEV's settings.
  tokensExpire: false,
  postMetrics: {
    impressions: { none: 'DEV does not report impressions' },
    reach: { none: 'DEV does not report reach' },
    views: { reads: 'page_views_count' },
    reactions: { reads: 'public_reactions_count' },
    comments: { reads: 'comments_count' },
    shares: { none: 'DEV does not report shares' },
    saves: { none: 'DEV does not report reading-list saves through its API' },
    linkClicks: { none: 'DEV does not report link clicks' },
    videoWatchSeconds: { none: 'DEV articles carry no video Herald uploads' },
  },
  comments: noComments(
    'DEV’s API lists an article’s comments (GET /api/comments?a_id=) but has no call to reply, hide, delete or like; Herald does not read them yet',
  ),
  reconcile: {
    ask: 'GET /api/articles/me/all (the account’s articles, drafts first, then published newest first): matched on the title and the Markdown body sent; DEV takes no key that would make a second POST /api/articles harmless',
    docs: 'https://developers.forem.com/api/v1#tag/articles/operation/getUserAllArticles',
  },
} satisfies PlatformCatalogueEntry;
