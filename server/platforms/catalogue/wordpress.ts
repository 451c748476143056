// WordPress (a self-hosted site, through its REST API): https://developer.wordpress.org/rest-api/reference/posts/#create-a-post
// (POST /wp/v2/posts { title, content, status, excerpt, featured_media, categories, tags } → 201
// Post with id and link), https://developer.wordpress.org/rest-api/reference/media/#create-a-media-item
// (POST /wp/v2/media, the file as the body with Content-Disposition), and
// https://developer.wordpress.org/rest-api/reference/categories/ and /tags/ (terms by id, looked
// up by `search` and created when missing). Herald's text is sent as HTML paragraphs; images are
// uploaded to the site's media library first: the first is the featured image, the others follow
// the text. WordPress states no title or tag count cap; Herald's are its own.
import { z } from 'zod';
import { ZText } from '@/server/shared/schemas';
import { type PlatformCatalogueEntry } from './entry';
import { codePointLength } from './text-length';
import { noPostMetrics } from './post-metrics';
import { noComments } from './comments';
import { LONG_FORM_MAX_CHARS, tagsSetting, titleSetting, LONG_FORM_MEDIA } from './long-form';

/** Herald's own cap on a WordPress title (WordPress stores it as text; its API states none). */
export const WORDPRESS_MAX_TITLE = 255;

export const WORDPRESS_NO_STATISTICS = 'WordPress’s REST API reports no views or reactions of a post (those need a statistics plugin Herald does not read)';

export const wordpress = {
  label: 'WordPress',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: LONG_FORM_MAX_CHARS, count: codePointLength },
  media: LONG_FORM_MEDIA,
  article: { maxTitle: WORDPRESS_MAX_TITLE },
  settings: z.strictObject({
    title: titleSetting(WORDPRESS_MAX_TITLE),
    published: z.boolean().optional().describe('Publishes the post on the site; false leaves it a draft in WordPress').meta({ default: true }),
    tags: tagsSetting(20, ZText.trim().min(1).max(200)),
    categories: z.array(ZText.trim().min(1).max(200)).max(10).optional().describe('Up to 10 categories, by name; one the site does not have yet is created'),
    excerpt: ZText.trim().max(1000).optional().describe('The summary shown on archive pages and in feeds'),
  }),
  // An application password does not lapse; it is revoked on the user's profile in WordPress.
  tokensExpire: false,
  postMetrics: noPostMetrics(WORDPRESS_NO_STATISTICS),
  comments: noComments('WordPress’s REST API has comment routes (/wp/v2/comments), but Herald does not read or answer them yet'),
  reconcile: {
    ask: 'GET /wp/v2/posts?orderby=date&status=publish,draft&context=edit (the site’s newest posts, drafts included): matched on the title and the date; WordPress takes no key that would make a second POST /wp/v2/posts harmless',
    docs: 'https://developer.wordpress.org/rest-api/reference/posts/#list-posts',
  },
} satisfies PlatformCatalogueEntry;
