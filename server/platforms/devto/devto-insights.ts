// Dev.to post metrics: the counters DEV keeps on the account's own articles.
//
// Source: https://developers.forem.com/api/v1#tag/articles/operation/getUserPublishedArticles
//   GET /api/articles/me/published?page=&per_page= (up to 1000) → [ArticleMe] with id,
//   page_views_count, public_reactions_count and comments_count, newest published first.
// Only the author's key sees page views, which is why Herald reads its own list rather than
// the public article. A post not in the list was deleted or unpublished since.
import { type AdapterOptions } from '../http';
import { networkMetricSet, numeric, read, type PostMetricsReader, type PostMetricsResult } from '../insights';
import { withAccessToken } from '../token-refresh';
import { devtoClient } from './devto-api';

const PER_PAGE = 1000;
const MISSING = 'DEV returned no value for this article';
const NOT_FOUND = 'DEV did not list this article among the account’s published ones (deleted, or unpublished since)';

export function createDevtoInsightsReader(options: AdapterOptions = {}): PostMetricsReader {
  return {
    maxIdsPerRequest: 100,
    source: 'devto',
    async readPostMetrics(connection, posts, { tokens }) {
      return withAccessToken(connection, null, tokens, async (apiKey) => {
        const wanted = new Set(posts.map((p) => p.postedId));
        const found = new Map<string, Record<string, unknown>>();
        const oldest = Math.min(...posts.map((p) => p.publishedAt.getTime()));
        for (let page = 1; found.size < wanted.size; page += 1) {
          const response = await devtoClient(options, apiKey).call('GET', `/api/articles/me/published?page=${page}&per_page=${PER_PAGE}`);
          const list = Array.isArray(response.json) ? (response.json as Record<string, unknown>[]) : [];
          for (const article of list) if (wanted.has(String(article.id))) found.set(String(article.id), article);
          const last = list.at(-1);
          const lastAt = Date.parse(String(last?.published_at ?? ''));
          // The list is newest first: past the oldest post asked about, the rest is older still.
          if (list.length < PER_PAGE || (!Number.isNaN(lastAt) && lastAt < oldest - 60_000)) break;
        }
        return new Map(
          posts.map((p): [string, PostMetricsResult] => {
            const article = found.get(p.postedId);
            if (!article) return [p.postedId, { ok: false, reason: NOT_FOUND }];
            return [
              p.postedId,
              {
                ok: true,
                metrics: networkMetricSet(
                  'devto',
                  {
                    views: read(numeric(article.page_views_count), 'page_views_count', MISSING),
                    reactions: read(numeric(article.public_reactions_count), 'public_reactions_count', MISSING),
                    comments: read(numeric(article.comments_count), 'comments_count', MISSING),
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
