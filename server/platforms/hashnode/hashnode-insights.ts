// Hashnode post metrics: the counters on each post.
//
// Source: https://apidocs.hashnode.com/ (query post(id) → Post { id views reactionCount
// responseCount }); a public read. Several posts go in one request, each under its own alias
// (p0, p1, …) with its id as a variable. A post Hashnode answers null for was deleted since (a
// draft is never a post: it has no counters until published).
import { type AdapterOptions } from '../http';
import { networkMetricSet, numeric, read, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { withAccessToken } from '../token-refresh';
import { hashnodeClient } from './hashnode-api';

const MISSING = 'Hashnode returned no value for this post';
const NOT_FOUND = 'Hashnode has no post with this id (deleted since, or still a draft)';

export function createHashnodeInsightsReader(options: AdapterOptions = {}): PostMetricsReader {
  return {
    maxIdsPerRequest: 20,
    source: 'hashnode',
    async readPostMetrics(connection, posts, { tokens }) {
      return withAccessToken(connection, null, tokens, async (token) => {
        const ids = posts.map((p) => p.postedId);
        const query = `query Stats(${ids.map((_, i) => `$p${i}: ID!`).join(', ')}) { ${ids
          .map((_, i) => `p${i}: post(id: $p${i}) { id views reactionCount responseCount }`)
          .join(' ')} }`;
        const data = (await hashnodeClient(options, token).graphql(query, Object.fromEntries(ids.map((id, i) => [`p${i}`, id])))) as Record<
          string,
          Record<string, unknown> | null
        > | null;
        return new Map(
          ids.map((id, i): [string, PostMetricsResult] => {
            const post = data?.[`p${i}`];
            if (!post) return [id, { ok: false, reason: NOT_FOUND }];
            return [
              id,
              {
                ok: true,
                metrics: networkMetricSet(
                  'hashnode',
                  {
                    views: read(numeric(post.views), 'views', MISSING),
                    reactions: read(numeric(post.reactionCount), 'reactionCount', MISSING),
                    comments: read(numeric(post.responseCount), 'responseCount', MISSING),
                  },
                  MISSING,
                ),
              },
            ];
          }),
        );
      });
    },
  };
}
