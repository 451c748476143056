// WordPress.com (a site hosted by WordPress.com, or a Jetpack-connected one): the same wp/v2
// routes as a self-hosted site (wordpress.ts), site-scoped on WordPress.com's API host
// (https://developer.wordpress.com/docs/api/getting-started/: "https://public-api.wordpress.com/wp/v2/sites/{site_id}/…"),
// with an OAuth token instead of an application password; so the same limits and settings.
// What differs: WordPress.com reports a post's views, likes and comments and the site's
// subscribers (its own /rest/v1.1 routes), and the pages cited.
import type { PlatformCatalogueEntry } from './entry';
import { wordpress, WORDPRESS_MAX_TITLE } from './wordpress';

export const wordpress_com = {
  label: 'WordPress.com',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: wordpress.text,
  media: wordpress.media,
  article: { maxTitle: WORDPRESS_MAX_TITLE },
  // One schema for both: a post written for either publishes the same way.
  settings: wordpress.settings,
  // A token of WordPress.com's OAuth (the /oauth2/ endpoints) does not lapse; it is revoked in
  // the user's WordPress.com security settings (Connected applications).
  tokensExpire: false,
  postMetrics: {
    impressions: { none: 'WordPress.com does not report impressions' },
    reach: { none: 'WordPress.com does not report reach' },
    // GET /rest/v1.1/sites/{site}/stats/post/{post_id} and GET /rest/v1.1/sites/{site}/posts/{post_id}
    views: { reads: 'views' },
    reactions: { reads: 'like_count' },
    comments: { reads: 'discussion.comment_count' },
    shares: { none: 'WordPress.com reports no shares of a post through its API' },
    saves: { none: 'WordPress.com does not report saves' },
    linkClicks: { none: 'WordPress.com reports clicks per site, not per post' },
    videoWatchSeconds: { none: 'Herald sends WordPress.com posts with images only' },
  },
  comments: wordpress.comments,
  reconcile: {
    ask: 'GET /wp/v2/sites/{site}/posts?orderby=date&status=publish,draft&context=edit (the site’s newest posts, drafts included): matched on the title and the date; WordPress.com takes no key that would make a second POST harmless',
    docs: 'https://developer.wordpress.org/rest-api/reference/posts/#list-posts',
  },
} satisfies PlatformCatalogueEntry;
