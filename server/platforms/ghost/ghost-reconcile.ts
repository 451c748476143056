// Ghost reconcile: settles a publish that was cut off by asking the site for its newest posts
// (reconcile.ts). Read only.
//
// Source: https://docs.ghost.org/admin-api/#posts (browse: GET /posts/?order=&limit=&fields=,
// drafts included for an integration; { posts: [...], meta: { pagination: { next } } }).
// Ghost has no id before the call that creates the post, and the HTML it returns is its own
// rendering of what was sent, so posts are matched on the title and the creation time.
import { matchesIntent, RECENT_POSTS_TO_READ, settleFromRecentPosts, type Reconciler } from '../reconcile';
import { defaultFetch, jsonAt, jsonString, type AdapterOptions } from '../http';
import { parseStoredSettings } from '../catalogue';
import { GHOST_MAX_TITLE } from '../catalogue/ghost';
import { articleOf } from '../long-form';
import { ghostClient, ghostSite } from './ghost-api';

interface SitePost {
  id: string;
  text: string;
  url: string | null;
  createdAt: Date | null;
}

export function createGhostReconciler(options: AdapterOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent) {
      try {
        if (!connection.accessToken) return { outcome: 'unknown', evidence: 'Ghost could not be asked: no Admin API key is stored for this account' };
        const site = ghostSite(connection.platformData, options.baseUrl);
        const { title } = articleOf(intent.content, parseStoredSettings('ghost', intent.settings).title, GHOST_MAX_TITLE);
        const query = new URLSearchParams({ order: 'created_at desc', limit: String(RECENT_POSTS_TO_READ), fields: 'id,title,url,created_at,status' });
        const response = await ghostClient(options.fetch ?? defaultFetch(), site, connection.accessToken, options.timeoutMs).call('GET', `/posts/?${query}`);
        const list = jsonAt(response.json, 'posts');
        const posts: SitePost[] = (Array.isArray(list) ? list : []).flatMap((item) => {
          const id = jsonString(item, 'id');
          if (!id) return [];
          const created = Date.parse(jsonString(item, 'created_at') ?? '');
          return [
            { id, text: jsonString(item, 'title') ?? '', url: jsonString(item, 'url') ?? null, createdAt: Number.isNaN(created) ? null : new Date(created) },
          ];
        });
        return settleFromRecentPosts({
          intent,
          posts,
          matching: posts.filter((post) => matchesIntent({ content: title, startedAt: intent.startedAt }, post)),
          listEnded: jsonAt(response.json, 'meta', 'pagination', 'next') === null,
          idOf: (post) => post.id,
          found: (post, since) => ({
            result: { postedId: post.id, permalink: post.url },
            evidence: `Ghost post ${post.id} (created ${post.createdAt?.toISOString() ?? 'at no stated time'}) carries the title sent by the attempt begun ${since}`,
          }),
          wording: { kind: 'Ghost posts', items: (n) => `the site’s ${n} Ghost posts`, sent: 'title' },
        });
      } catch (error) {
        return { outcome: 'unknown', evidence: `Ghost could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}
