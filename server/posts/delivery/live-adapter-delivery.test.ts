// Delivery through a live adapter (X) against the fake platform API: what the adapter is
// handed comes from the stored post, and what it obtains on the way (a refreshed token) ends
// up on the connection. The registry is replaced only to point the X adapter at
// the fake API (production adapters call out through the guarded client, which trusts no
// local server); everything else is the production path.
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openToken } from '@/server/connections/token-sealing';
import { db } from '@/server/db/client';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import type { LiveOverrides } from '@/server/platforms/testing/live-overrides';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { createWorkspaceWithKey, uniq } from '@/server/testing/fixtures';
import { eventsOf } from '@/server/testing/posts-fixtures';
import { usePublicApi } from '@/server/testing/public-api';

const live = vi.hoisted((): LiveOverrides => ({ platform: 'twitter', publisher: null }));
vi.mock('@/server/platforms/registry', (original) => import('@/server/platforms/testing/live-overrides').then((m) => m.registryWith(original, live)));
const { createTwitterPublisher } = await import('@/server/platforms/twitter/twitter-publisher');

const x = (name: string) => fixture(path.join(import.meta.dirname, '../../platforms/twitter'), name);
const TWEET = '1945880548472328192';

const api = usePublicApi();
const platform = useFakePlatformApi();

function useLiveX(options: { clientId?: string } = {}) {
  live.publisher = createTwitterPublisher({ fetch: platform.fetch, baseUrl: platform.baseUrl, clientId: options.clientId ?? '', pollIntervalMs: 0 });
}

async function liveXAccount(tokens: { accessToken: string; refreshToken?: string; tokenExpiresAt: Date }) {
  const { workspace, secret } = await createWorkspaceWithKey();
  const connection = await db.connection.create({
    data: {
      workspaceId: workspace.id,
      platform: 'twitter',
      provider: 'live',
      externalId: uniq('x'),
      accountName: 'heraldcoffee',
      displayName: 'Herald',
      ...tokens,
    },
  });
  return { secret, connection };
}

const inAnHour = () => new Date(Date.now() + 3_600_000);

describe('delivery to a live adapter', () => {
  it('hands the adapter the post’s validated settings for its platform', async () => {
    useLiveX();
    const { secret, connection } = await liveXAccount({ accessToken: 'x-token', tokenExpiresAt: inAnHour() });
    platform.on('POST', '/2/tweets', { status: 201, json: x('tweet-created') });

    const created = await api('POST', '/posts', {
      key: secret,
      body: { content: 'Reply', connectionIds: [connection.id], platformSettings: { twitter: { replyTo: '1940000000000000001' } } },
    });
    const res = await api('POST', `/posts/${created.body.data.id}/publish`, { key: secret });

    expect(res.body.data.targets[0]).toMatchObject({ status: 'published', postedId: TWEET, permalink: `https://x.com/heraldcoffee/status/${TWEET}` });
    expect(platform.calls('POST', '/2/tweets')[0]!.json()).toEqual({ text: 'Reply', reply: { in_reply_to_tweet_id: '1940000000000000001' } });
  });

  it('fails a target whose stored settings no longer validate, without calling the platform', async () => {
    useLiveX();
    const { secret, connection } = await liveXAccount({ accessToken: 'x-token', tokenExpiresAt: inAnHour() });
    const created = await api('POST', '/posts', { key: secret, body: { content: 'x', connectionIds: [connection.id] } });
    await db.post.update({ where: { id: created.body.data.id }, data: { platformSettings: { twitter: { replyTo: 'not-a-tweet-id' } } } });

    const res = await api('POST', `/posts/${created.body.data.id}/publish`, { key: secret });

    expect(res.body.data).toMatchObject({ status: 'failed' });
    expect(res.body.data.targets[0].error).toMatch(/^The stored twitter settings are not valid/);
    expect(platform.requests).toHaveLength(0);
    const failed = (await eventsOf(created.body.data.id)).find((e) => e.type === 'post.failed')!;
    expect(failed.data).toMatchObject({ error: { code: 'DELIVERY_ERROR' } });
  });

  it('stores the token the platform granted during the delivery on the connection', async () => {
    useLiveX({ clientId: 'x-client' });
    const { secret, connection } = await liveXAccount({ accessToken: 'x-old', refreshToken: 'x-refresh', tokenExpiresAt: inAnHour() });
    platform.on('POST', '/2/tweets', { status: 401, json: x('error-unauthorized') }, { status: 201, json: x('tweet-created') });
    platform.on('POST', '/2/oauth2/token', { json: x('token-refreshed') });

    const created = await api('POST', '/posts', { key: secret, body: { content: 'x', connectionIds: [connection.id] } });
    const res = await api('POST', `/posts/${created.body.data.id}/publish`, { key: secret });

    expect(res.body.data.targets[0]).toMatchObject({ status: 'published', postedId: TWEET });
    expect(platform.calls('POST', '/2/tweets').map((r) => r.headers.authorization)).toEqual(['Bearer x-old', `Bearer ${x('token-refreshed').access_token}`]);
    const stored = await db.connection.findUniqueOrThrow({ where: { id: connection.id } });
    expect(stored).toMatchObject({ status: 'active', lastError: null });
    // Granted tokens are stored sealed, never in clear.
    expect(stored.accessToken).not.toContain(x('token-refreshed').access_token);
    expect({ accessToken: openToken(stored.accessToken), refreshToken: openToken(stored.refreshToken) }).toEqual({
      accessToken: x('token-refreshed').access_token,
      refreshToken: x('token-refreshed').refresh_token,
    });
    expect(Math.abs(stored.tokenExpiresAt!.getTime() - (Date.now() + 7_200_000))).toBeLessThan(60_000);
  });

  it('keeps a rotated refresh token even when the post is then refused', async () => {
    useLiveX({ clientId: 'x-client' });
    const { secret, connection } = await liveXAccount({ accessToken: 'x-old', refreshToken: 'x-refresh', tokenExpiresAt: inAnHour() });
    platform.on('POST', '/2/tweets', { status: 401, json: x('error-unauthorized') }, { status: 403, json: x('error-duplicate') });
    platform.on('POST', '/2/oauth2/token', { json: x('token-refreshed') });

    const created = await api('POST', '/posts', { key: secret, body: { content: 'x', connectionIds: [connection.id] } });
    const res = await api('POST', `/posts/${created.body.data.id}/publish`, { key: secret });

    expect(res.body.data.targets[0]).toMatchObject({ status: 'failed', error: 'You are not allowed to create a Tweet with duplicate content.' });
    // The old refresh token was spent by the grant: only the new one can refresh again.
    const stored = await db.connection.findUniqueOrThrow({ where: { id: connection.id } });
    expect(stored.status).toBe('active');
    expect([openToken(stored.accessToken), openToken(stored.refreshToken)]).toEqual([x('token-refreshed').access_token, x('token-refreshed').refresh_token]);
  });
});
