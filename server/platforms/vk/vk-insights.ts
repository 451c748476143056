// VK post metrics: the counters wall.getById returns with each post.
//
// Source: https://dev.vk.com/ru/method/wall.getById
//   wall.getById(posts=<owner_id>_<post_id>,… up to 100) → { response: { items: [{ id,
//   owner_id, comments: { count }, likes: { count }, reposts: { count }, views: { count } }] } }
//   (an array of posts in versions before 5.150; both are read). A post that was deleted or
//   cannot be seen is left out.
// The follower count is the user's followers_count (users.get fields=followers_count) or the
// community's members_count (groups.getById fields=members_count).
import { apiEndpoint, jsonAt, jsonString } from '../http';
import { batches, followers, networkMetricSet, numeric, read, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { withAccessToken } from '../token-refresh';
import { VK_DEFAULT_BASE_URL, vkClient } from './vk-api';
import { vkRefresher, vkWall, type VkOptions } from './vk-publisher';

const MAX_IDS = 100;
const MISSING = 'VK returned no value for this post';
const NOT_FOUND = 'VK did not return this post (deleted, or no longer visible to the account)';

function postsOf(response: unknown): unknown[] {
  if (Array.isArray(response)) return response;
  const items = jsonAt(response, 'items');
  return Array.isArray(items) ? items : [];
}

export function createVkInsightsReader(options: VkOptions = {}): PostMetricsReader {
  return {
    maxIdsPerRequest: MAX_IDS,
    source: 'vk',
    async readPostMetrics(connection, posts, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'VK_API_BASE_URL', VK_DEFAULT_BASE_URL);
      return withAccessToken(connection, vkRefresher(fetch, connection, options), tokens, async (token) => {
        const api = vkClient(fetch, baseUrl, token, options.timeoutMs);
        const out = new Map<string, PostMetricsResult>();
        for (const batch of batches(posts, MAX_IDS)) {
          const answer = await api.call('wall.getById', { posts: batch.map((p) => p.postedId).join(',') });
          const found = new Map(postsOf(answer).map((post) => [`${jsonString(post, 'owner_id')}_${jsonString(post, 'id')}`, post]));
          for (const { postedId } of batch) {
            const post = found.get(postedId);
            out.set(postedId, post ? { ok: true, metrics: metricsOf(post) } : { ok: false, reason: NOT_FOUND });
          }
        }
        return out;
      });
    },
    async readFollowers(connection, { tokens }) {
      const { fetch, baseUrl } = apiEndpoint(options, 'VK_API_BASE_URL', VK_DEFAULT_BASE_URL);
      const wall = vkWall(connection);
      return withAccessToken(connection, vkRefresher(fetch, connection, options), tokens, async (token) => {
        const api = vkClient(fetch, baseUrl, token, options.timeoutMs);
        if (wall.groupId) {
          const answer = await api.call('groups.getById', { group_id: wall.groupId, fields: 'members_count' });
          const group = jsonAt(answer, 'groups', 0) ?? jsonAt(answer, 0);
          return followers(jsonAt(group, 'members_count'), 'members_count', 'VK returned no members_count for this community');
        }
        const answer = await api.call('users.get', { user_ids: wall.ownerId, fields: 'followers_count' });
        return followers(jsonAt(answer, 0, 'followers_count'), 'followers_count', 'VK returned no followers_count for this user');
      });
    },
  };
}

function metricsOf(post: unknown) {
  const count = (key: string) => read(numeric(jsonAt(post, key, 'count')), `${key}.count`, MISSING);
  return networkMetricSet('vk', { views: count('views'), reactions: count('likes'), comments: count('comments'), shares: count('reposts') }, MISSING);
}
