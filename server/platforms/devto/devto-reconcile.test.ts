// Settling an interrupted Dev.to publish from the account's own articles:
// GET /api/articles/me/all (https://developers.forem.com/api/v1#tag/articles/operation/getUserAllArticles),
// drafts first, then published newest first; fixtures/articles-me-all.json follows its ArticleMe sample.
import { describe, expect, it } from 'vitest';
import { liveConnection, MemoryTokenStore, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createDevtoReconciler } from './devto-reconcile';

const f = (name: string) => fixture(import.meta.dirname, name);
const api = useFakePlatformApi();
const connection = () => liveConnection('devto', { externalId: '1190032', accountName: '@heraldcoffee', accessToken: 'devto-key' });
const reconciler = () => createDevtoReconciler({ fetch: api.fetch, baseUrl: api.baseUrl });
const ctx = { tokens: new MemoryTokenStore(), now: new Date('2026-11-27T09:05:00Z') };
const intent = (content: string, startedAt = new Date('2026-11-27T09:00:00Z'), mediaUrls: string[] = []) => ({
  idempotencyKey: 'target-1',
  content,
  mediaUrls,
  settings: {},
  startedAt,
});

describe('devto reconcile', () => {
  it('finds the published article with the title and body sent', async () => {
    api.on('GET', '/api/articles/me/all', { json: f('articles-me-all') });
    const outcome = await reconciler().reconcile(
      connection(),
      intent('Latte art in 30 seconds\nSteam the milk to 60 °C, tilt the cup and pour from high, then low.', undefined, [
        'https://cdn.heraldcoffee.example/latte.jpg',
        'https://cdn.heraldcoffee.example/pour.jpg',
      ]),
      ctx,
    );
    expect(outcome).toMatchObject({ outcome: 'found', result: { postedId: '2094611', permalink: 'https://dev.to/heraldcoffee/latte-art-in-30-seconds-4aca' } });
    expect(api.calls('GET', '/api/articles/me/all')[0]!.headers['api-key']).toBe('devto-key');
  });

  it('finds a draft, which carries no time', async () => {
    api.on('GET', '/api/articles/me/all', { json: f('articles-me-all') });
    const outcome = await reconciler().reconcile(connection(), intent('Cold brew, step by step\nCoarse grind, cold water, twelve hours.'), ctx);
    expect(outcome).toMatchObject({ outcome: 'found', result: { postedId: '2094700' } });
  });

  it('is absent when the whole list carries no such article', async () => {
    api.on('GET', '/api/articles/me/all', { json: f('articles-me-all') });
    const outcome = await reconciler().reconcile(connection(), intent('Flat white\nA new recipe.'), ctx);
    expect(outcome.outcome).toBe('absent');
  });

  it('does not take an article published before the attempt', async () => {
    api.on('GET', '/api/articles/me/all', { json: f('articles-me-all') });
    const outcome = await reconciler().reconcile(connection(), intent('Our autumn menu\nPumpkin spice is back from Monday.'), ctx);
    expect(outcome.outcome).toBe('absent');
  });

  it('is unknown, with DEV’s words, when the key is refused', async () => {
    api.on('GET', '/api/articles/me/all', { status: 401, json: f('error-unauthorized') });
    expect(await reconciler().reconcile(connection(), intent('x'), ctx)).toEqual({ outcome: 'unknown', evidence: 'DEV could not be asked: unauthorized' });
  });
});
