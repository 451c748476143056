// WordPress reconcile: settles a publish that was cut off by asking the site for its newest posts,
// drafts included (reconcile.ts). Read only.
//
// Source: https://developer.wordpress.org/rest-api/reference/posts/#list-posts
//   GET /wp/v2/posts?per_page=&orderby=date&order=desc&status=publish,draft&context=edit →
//   [Post] with id, date_gmt (no zone: GMT), title.raw (the title as sent; `context=edit` needs a
//   user who may edit, which the application password's user is), link and status; the
//   X-WP-TotalPages header says whether more pages follow.
// WordPress takes no idempotency key and has no id before the call that creates the post, so
// posts are matched on the title and the date (the content it returns is its own filtering of
// the HTML sent).
import { matchesIntent, RECENT_POSTS_TO_READ, settleFromRecentPosts, type Reconciler } from '../reconcile';
import { defaultFetch, jsonString, type AdapterOptions } from '../http';
import { parseStoredSettings } from '../catalogue';
import { WORDPRESS_MAX_TITLE } from '../catalogue/wordpress';
import { articleOf } from '../long-form';
import { SELF_HOSTED_WORDPRESS, wordpressClient, type WordpressApi } from './wordpress-api';

interface SitePost {
  id: string;
  text: string;
  url: string | null;
  createdAt: Date | null;
}

export function createWordpressReconciler(options: AdapterOptions = {}, flavour: WordpressApi = SELF_HOSTED_WORDPRESS): Reconciler {
  return {
    async reconcile(connection, intent) {
      try {
        const { apiRoot, authorization } = flavour.endpoint(connection, options.baseUrl);
        const { title } = articleOf(intent.content, parseStoredSettings(flavour.platform, intent.settings).title, WORDPRESS_MAX_TITLE);
        const query = new URLSearchParams({
          per_page: String(RECENT_POSTS_TO_READ),
          orderby: 'date',
          order: 'desc',
          status: 'publish,draft',
          context: 'edit',
        });
        const response = await wordpressClient(options.fetch ?? defaultFetch(), apiRoot, authorization, options.timeoutMs).call('GET', `/posts?${query}`);
        const list = Array.isArray(response.json) ? response.json : [];
        const posts: SitePost[] = list.flatMap((item) => {
          const id = jsonString(item, 'id');
          if (!id) return [];
          const gmt = jsonString(item, 'date_gmt');
          const at = gmt ? Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(gmt) ? gmt : `${gmt}Z`) : Number.NaN;
          const text = jsonString(item, 'title', 'raw') ?? jsonString(item, 'title', 'rendered') ?? '';
          return [{ id, text, url: jsonString(item, 'link') ?? null, createdAt: Number.isNaN(at) ? null : new Date(at) }];
        });
        const totalPages = Number(response.headers.get('x-wp-totalpages') ?? Number.NaN);
        return settleFromRecentPosts({
          intent,
          posts,
          matching: posts.filter((post) => matchesIntent({ content: title, startedAt: intent.startedAt }, post)),
          listEnded: list.length < RECENT_POSTS_TO_READ || totalPages <= 1,
          idOf: (post) => post.id,
          found: (post, since) => ({
            result: { postedId: post.id, permalink: post.url },
            evidence: `WordPress post ${post.id} (dated ${post.createdAt?.toISOString() ?? 'at no stated time'}) carries the title sent by the attempt begun ${since}`,
          }),
          wording: { kind: 'WordPress posts', items: (n) => `the site’s ${n} WordPress posts`, sent: 'title' },
        });
      } catch (error) {
        return { outcome: 'unknown', evidence: `WordPress could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}
