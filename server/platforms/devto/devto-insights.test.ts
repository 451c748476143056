// Dev.to post metrics from the account's published articles:
// GET /api/articles/me/published (https://developers.forem.com/api/v1#tag/articles/operation/getUserPublishedArticles),
// whose ArticleMe carries page_views_count, public_reactions_count and comments_count.
import { describe, expect, it } from 'vitest';
import { liveConnection, MemoryTokenStore, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createDevtoInsightsReader } from './devto-insights';

const f = (name: string) => fixture(import.meta.dirname, name);
const api = useFakePlatformApi();
const connection = () => liveConnection('devto', { externalId: '1190032', accountName: '@heraldcoffee', accessToken: 'devto-key' });
const ctx = { tokens: new MemoryTokenStore(), now: new Date('2026-11-28T09:00:00Z') };

describe('devto insights', () => {
  it('reads views, reactions and comments; a post no longer listed says why', async () => {
    api.on('GET', '/api/articles/me/published', { json: (f('articles-me-all') as { published: boolean }[]).filter((a) => a.published) });
    const reader = createDevtoInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl });
    const out = await reader.readPostMetrics(
      connection(),
      [
        { postedId: '2094611', publishedAt: new Date('2026-11-27T09:00:02Z') },
        { postedId: '1999999', publishedAt: new Date('2026-11-20T09:00:00Z') },
      ],
      ctx,
    );
    const found = out.get('2094611')!;
    expect(found.ok).toBe(true);
    if (!found.ok) return;
    expect(found.metrics.views).toEqual({ value: 812, reason: null, networkName: 'page_views_count' });
    expect(found.metrics.reactions).toEqual({ value: 41, reason: null, networkName: 'public_reactions_count' });
    expect(found.metrics.comments).toEqual({ value: 3, reason: null, networkName: 'comments_count' });
    expect(found.metrics.impressions).toEqual({ value: null, reason: 'DEV does not report impressions', networkName: null });
    expect(out.get('1999999')).toEqual({
      ok: false,
      reason: 'DEV did not list this article among the account’s published ones (deleted, or unpublished since)',
    });
    const [call] = api.calls('GET', '/api/articles/me/published');
    expect(call!.headers['api-key']).toBe('devto-key');
    expect(call!.query.get('per_page')).toBe('1000');
  });
});
