// Lemmy reconcile: settles a publish that was cut off by asking the instance for the account's
// newest posts (reconcile.ts). Read only.
//
// Source: https://join-lemmy.org/api/classes/LemmyHttp.html#getPersonDetails
//   GET /api/v3/user?username=<name>&sort=New&limit=<n> → { person_view, posts: [PostView],
//   comments, moderates }, newest first; a PostView carries post { id, name, body, community_id,
//   published, ap_id }.
// Lemmy takes no idempotency key, so the post is told by what the attempt sent: the community,
// the title and the body, created since the attempt began.
import { jsonAt, jsonString, defaultFetch, type AdapterOptions } from '../http';
import { matchesIntent, settleFromRecentPosts, type Reconciler } from '../reconcile';
import { lemmyClient } from './lemmy-api';
import { lemmyAccount, postResult } from './lemmy-publisher';

/** Lemmy pages hold at most 50 posts. */
const LIMIT = 50;

interface RecentPost {
  view: unknown;
  id: string;
  title: string | null;
  body: string | null;
  communityId: number;
  createdAt: Date | null;
}

export function createLemmyReconciler(options: AdapterOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent) {
      try {
        const account = lemmyAccount(connection, options.baseUrl);
        const api = lemmyClient(options.fetch ?? defaultFetch(), account.origin, connection.accessToken, options.timeoutMs);
        const answer = await api.call('GET', `/api/v3/user?username=${encodeURIComponent(account.username)}&sort=New&limit=${LIMIT}&saved_only=false`);
        const views = jsonAt(answer.json, 'posts');
        const posts: RecentPost[] = (Array.isArray(views) ? views : []).flatMap((view) => {
          const id = jsonString(view, 'post', 'id');
          if (!id) return [];
          const published = jsonString(view, 'post', 'published');
          const at = published ? Date.parse(published) : Number.NaN;
          return [
            {
              view,
              id,
              title: jsonString(view, 'post', 'name') ?? null,
              body: jsonString(view, 'post', 'body') ?? null,
              communityId: Number(jsonString(view, 'post', 'community_id')),
              createdAt: Number.isNaN(at) ? null : new Date(at),
            },
          ];
        });
        const title = typeof intent.settings.title === 'string' ? intent.settings.title.trim() : '';
        const matching = posts.filter(
          (p) => p.communityId === account.communityId && (p.title ?? '').trim() === title && matchesIntent(intent, { text: p.body, createdAt: p.createdAt }),
        );
        return settleFromRecentPosts({
          intent,
          posts,
          matching,
          listEnded: posts.length < LIMIT,
          idOf: (p) => p.id,
          found: (p, since) => ({
            result: postResult(p.view, account.origin)!,
            evidence: `Lemmy post ${p.id} (${p.createdAt ? `created ${p.createdAt.toISOString()}` : 'with no creation time'}) in the community carries the title and text sent by the attempt begun ${since}`,
          }),
          wording: { kind: 'Lemmy posts', items: (n) => `the account’s ${n} Lemmy posts`, sent: 'title and text' },
        });
      } catch (error) {
        return { outcome: 'unknown', evidence: `Lemmy could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}
