// Settling an interrupted Hashnode publish from the publication's newest posts or drafts:
// publication(id) { posts, drafts } (https://apidocs.hashnode.com/), cursor connections with
// pageInfo.hasNextPage.
import { describe, expect, it } from 'vitest';
import { liveConnection, MemoryTokenStore, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createHashnodeReconciler } from './hashnode-reconcile';
import { createHashnodeInsightsReader } from './hashnode-insights';

const f = (name: string) => fixture(import.meta.dirname, name);
const api = useFakePlatformApi();
const PUBLICATION = '6571f0c2a8b9d40012e3f4b2';
const connection = () =>
  liveConnection('hashnode', {
    externalId: PUBLICATION,
    accountName: 'heraldcoffee.hashnode.dev',
    accessToken: 'hn-token',
    platformData: { publicationId: PUBLICATION },
  });
const reconciler = () => createHashnodeReconciler({ fetch: api.fetch, baseUrl: api.baseUrl });
const ctx = { tokens: new MemoryTokenStore(), now: new Date('2026-11-27T09:05:00Z') };
const intent = (content: string, settings: Record<string, unknown> = {}) => ({
  idempotencyKey: 't',
  content,
  mediaUrls: [],
  settings,
  startedAt: new Date('2026-11-27T09:00:00Z'),
});

describe('hashnode reconcile', () => {
  it('finds the post published since the attempt with the title sent', async () => {
    api.on('POST', '/', { json: f('recent') });
    const outcome = await reconciler().reconcile(connection(), intent('Latte art in 30 seconds\nSteam the milk.'), ctx);
    expect(outcome).toMatchObject({
      outcome: 'found',
      result: { postedId: '6747b1c0d2e3f40015a6b7c8', permalink: 'https://heraldcoffee.hashnode.dev/latte-art-in-30-seconds' },
    });
    expect(api.calls('POST', '/')[0]!.json().variables).toEqual({ id: PUBLICATION, first: 50 });
  });

  it('looks among the drafts for a draft', async () => {
    api.on('POST', '/', { json: f('recent') });
    const outcome = await reconciler().reconcile(connection(), intent('Body', { title: 'Cold brew at home', published: false }), ctx);
    expect(outcome).toMatchObject({ outcome: 'found', result: { postedId: '6747b1c0d2e3f40015a6b7d9', permalink: null } });
  });

  it('is absent when the posts end without it, and an older post of that title does not count', async () => {
    api.on('POST', '/', { json: f('recent') });
    expect((await reconciler().reconcile(connection(), intent('Body', { title: 'Our autumn menu' }), ctx)).outcome).toBe('absent');
  });

  it('is unknown, with Hashnode’s words, when the token is refused', async () => {
    api.on('POST', '/', { json: f('error-unauthenticated') });
    expect(await reconciler().reconcile(connection(), intent('x'), ctx)).toEqual({
      outcome: 'unknown',
      evidence: 'Hashnode could not be asked: Invalid access token provided.',
    });
  });
});

describe('hashnode insights', () => {
  it('reads views, reactions and responses per post in one request; a post Hashnode no longer has says why', async () => {
    api.on('POST', '/', { json: f('stats') });
    const reader = createHashnodeInsightsReader({ fetch: api.fetch, baseUrl: api.baseUrl });
    const out = await reader.readPostMetrics(
      connection(),
      [
        { postedId: '6747b1c0d2e3f40015a6b7c8', publishedAt: new Date('2026-11-27T09:00:04Z') },
        { postedId: '6740a0b1c2d3e40015a6b7ff', publishedAt: new Date('2026-11-20T08:00:00Z') },
      ],
      ctx,
    );
    const body = api.calls('POST', '/')[0]!.json();
    expect(body.variables).toEqual({ p0: '6747b1c0d2e3f40015a6b7c8', p1: '6740a0b1c2d3e40015a6b7ff' });
    expect(body.query).toContain('p1: post(id: $p1) { id views reactionCount responseCount }');
    const found = out.get('6747b1c0d2e3f40015a6b7c8')!;
    expect(found.ok).toBe(true);
    if (!found.ok) return;
    expect(found.metrics.views).toEqual({ value: 412, reason: null, networkName: 'views' });
    expect(found.metrics.reactions).toEqual({ value: 23, reason: null, networkName: 'reactionCount' });
    expect(found.metrics.comments).toEqual({ value: 5, reason: null, networkName: 'responseCount' });
    expect(found.metrics.shares.value).toBeNull();
    expect(out.get('6740a0b1c2d3e40015a6b7ff')).toEqual({ ok: false, reason: 'Hashnode has no post with this id (deleted since, or still a draft)' });
  });
});
