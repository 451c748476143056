// VK reconcile: settles a publish that was cut off by asking VK for the wall's newest posts
// (reconcile.ts). Read only.
//
// Source: https://dev.vk.com/ru/method/wall.get
//   wall.get(owner_id, count ≤ 100) → { response: { count, items: [{ id, owner_id, from_id,
//   date (Unix seconds), text, attachments }] } }, newest first (a pinned post may come first,
//   with is_pinned: 1).
// wall.post's guid keeps a repeat out for an hour only, so the post is told by what the attempt
// sent: its text, posted since the attempt began.
import { apiEndpoint, jsonAt, jsonString } from '../http';
import { matchesIntent, settleFromRecentPosts, type Reconciler } from '../reconcile';
import { withAccessToken } from '../token-refresh';
import { VK_DEFAULT_BASE_URL, vkClient } from './vk-api';
import { vkPermalink, vkRefresher, vkWall, type VkOptions } from './vk-publisher';

const COUNT = 20;

interface WallPost {
  id: string;
  text: string;
  createdAt: Date | null;
  pinned: boolean;
}

function wallPosts(json: unknown): WallPost[] {
  const items = jsonAt(json, 'items');
  return (Array.isArray(items) ? items : []).flatMap((post) => {
    const id = jsonString(post, 'id');
    if (!id) return [];
    const seconds = Number(jsonString(post, 'date'));
    return [
      {
        id,
        text: jsonString(post, 'text') ?? '',
        createdAt: Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : null,
        pinned: jsonAt(post, 'is_pinned') === 1,
      },
    ];
  });
}

export function createVkReconciler(options: VkOptions = {}): Reconciler {
  return {
    async reconcile(connection, intent, { tokens }) {
      try {
        const { fetch, baseUrl } = apiEndpoint(options, 'VK_API_BASE_URL', VK_DEFAULT_BASE_URL);
        const wall = vkWall(connection);
        const answer = await withAccessToken(connection, vkRefresher(fetch, connection, options), tokens, (token) =>
          vkClient(fetch, baseUrl, token, options.timeoutMs).call('wall.get', { owner_id: wall.ownerId, count: COUNT }),
        );
        const all = wallPosts(answer);
        // A pinned post heads the list whatever its age: it says nothing of where the list ends.
        const posts = all.filter((p) => !p.pinned);
        const matching = all.filter((p) => matchesIntent(intent, { text: p.text, createdAt: p.createdAt }));
        return settleFromRecentPosts({
          intent,
          posts,
          matching,
          listEnded: all.length < COUNT,
          idOf: (p) => p.id,
          found: (p, since) => {
            const postedId = `${wall.ownerId}_${p.id}`;
            return {
              result: { postedId, permalink: vkPermalink(postedId) },
              evidence: `VK post ${postedId} (${p.createdAt ? `posted ${p.createdAt.toISOString()}` : 'with no date'}) carries the text sent by the attempt begun ${since}`,
            };
          },
          wording: { kind: `posts on the wall ${wall.ownerId}`, items: (n) => `the wall’s ${n} posts`, sent: 'text' },
        });
      } catch (error) {
        return { outcome: 'unknown', evidence: `VK could not be asked: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}
