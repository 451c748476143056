// Settling an interrupted Ghost publish from the site's newest posts: the Admin API's posts
// browse (https://docs.ghost.org/admin-api/#posts), { posts, meta.pagination }.
import { describe, expect, it } from 'vitest';
import { liveConnection, MemoryTokenStore, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createGhostReconciler } from './ghost-reconcile';

const f = (name: string) => fixture(import.meta.dirname, name);
const api = useFakePlatformApi();
const KEY = `6489f2a1c2b3d40001a1b2c3:${'b'.repeat(64)}`;
const connection = () => liveConnection('ghost', { externalId: 'x', accountName: 'heraldcoffee.ghost.io', accessToken: KEY });
const reconciler = () => createGhostReconciler({ fetch: api.fetch, baseUrl: api.baseUrl });
const ctx = { tokens: new MemoryTokenStore(), now: new Date('2026-11-27T09:05:00Z') };
const intent = (content: string, settings: Record<string, unknown> = {}) => ({
  idempotencyKey: 't',
  content,
  mediaUrls: [],
  settings,
  startedAt: new Date('2026-11-27T09:00:00Z'),
});

describe('ghost reconcile', () => {
  it('finds the post created since the attempt with the title sent', async () => {
    api.on('GET', '/ghost/api/admin/posts/', { json: f('posts-browse') });
    const outcome = await reconciler().reconcile(connection(), intent('Latte art in 30 seconds\nSteam the milk.'), ctx);
    expect(outcome).toMatchObject({
      outcome: 'found',
      result: { postedId: '6746a8f2b3c1d40001e9a7c2', permalink: 'https://heraldcoffee.ghost.io/latte-art-in-30-seconds/' },
    });
    expect(api.calls('GET', '/ghost/api/admin/posts/')[0]!.query.get('order')).toBe('created_at desc');
  });

  it('is absent when the site’s posts end without it, and an older post of that title does not count', async () => {
    api.on('GET', '/ghost/api/admin/posts/', { json: f('posts-browse') });
    expect((await reconciler().reconcile(connection(), intent('Body', { title: 'Our autumn menu' }), ctx)).outcome).toBe('absent');
  });

  it('is unknown, with Ghost’s words, when the key is refused', async () => {
    api.on('GET', '/ghost/api/admin/posts/', { status: 401, json: f('error-unauthorized') });
    expect(await reconciler().reconcile(connection(), intent('x'), ctx)).toEqual({
      outcome: 'unknown',
      evidence: 'Ghost could not be asked: Unknown Admin API Key',
    });
  });
});
