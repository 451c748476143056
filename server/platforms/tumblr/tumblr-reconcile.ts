// Tumblr reconcile: settles a publish that was cut off by asking Tumblr for the blog's newest
// posts (reconcile.ts). Read only.
//
// Sources:
//   https://www.tumblr.com/docs/en/api/v2#posts--retrieve-published-posts
//     GET /v2/blog/{blog-identifier}/posts?npf=true&limit=20 → { response: { blog, posts: [{
//     id_string, post_url, timestamp (seconds), state, content: [NPF blocks] }] } }, newest first
//     (limit 1 to 20)
//   https://www.tumblr.com/docs/en/api/v2#postsdraft--retrieve-draft-posts (a draft's list)
// Tumblr takes no idempotency key, so the post is told by what the attempt sent: its text
// blocks, created since the attempt began.
import { apiEndpoint, jsonAt, jsonString } from '../http';
import { matchesIntent, settleFromRecentPosts, type Reconciler } from '../reconcile';
import { withAccessToken } from '../token-refresh';
import { TUMBLR_DEFAULT_BASE_URL, tumblrClient } from './tumblr-api';
import { tumblrBlog, tumblrPermalink, tumblrRefresher, type TumblrOptions } from './tumblr-publisher';

/** The most posts one page of /posts holds. */
const LIMIT = 20;

interface RecentPost {
  id: string;
  text: string;
  createdAt: Date | null;
}

function recentPosts(json: unknown): RecentPost[] {
  const posts = jsonAt(json, 'response', 'posts');
  return (Array.isArray(posts) ? posts : []).flatMap((post) => {
    const id = jsonString(post, 'id_string') ?? jsonString(post, 'id');
    if (!id) return [];
    const blocks = jsonAt(post, 'content');
    const text = (Array.isArray(blocks) ? blocks : [])
      .map((block) => (jsonString(block, 'type') === 'text' ? (jsonString(block, 'text') ?? '') : ''))
      .filter(Boolean)
      .join('\n');
    const seconds = Number(jsonString(post, 'timestamp'));
    return [{ id, text, createdAt: Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : null }];
  });
}

export function createTumblrReconciler(options: TumblrOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent, { tokens }) {
      try {
        const { fetch, baseUrl } = apiEndpoint(options, 'TUMBLR_API_BASE_URL', TUMBLR_DEFAULT_BASE_URL);
        const blog = tumblrBlog(connection);
        const draft = intent.settings.state === 'draft';
        const path = `/v2/blog/${encodeURIComponent(blog)}/posts${draft ? '/draft' : ''}?npf=true${draft ? '' : `&limit=${LIMIT}`}`;
        const answer = await withAccessToken(connection, tumblrRefresher(fetch, baseUrl, options), tokens, (token) =>
          tumblrClient(fetch, baseUrl, token, options.timeoutMs).call('GET', path),
        );
        const posts = recentPosts(answer.json);
        const matching = posts.filter((p) => matchesIntent(intent, { text: p.text, createdAt: p.createdAt }));
        return settleFromRecentPosts({
          intent,
          posts,
          matching,
          listEnded: posts.length < LIMIT,
          idOf: (p) => p.id,
          found: (p, since) => ({
            result: { postedId: p.id, permalink: tumblrPermalink(blog, p.id) },
            evidence: `Tumblr post ${p.id} (${p.createdAt ? `created ${p.createdAt.toISOString()}` : 'with no creation time'}) on ${blog} carries the text sent by the attempt begun ${since}`,
          }),
          wording: { kind: `${draft ? 'drafts' : 'posts'} on ${blog}`, items: (n) => `the blog’s ${n} ${draft ? 'drafts' : 'posts'}`, sent: 'text' },
        });
      } catch (error) {
        return { outcome: 'unknown', evidence: `Tumblr could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}
