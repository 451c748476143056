// Farcaster through Neynar, against the documented shapes, served by the local HTTPS stand-in
// through the guarded client:
//   https://docs.neynar.com/reference/publish-cast (signer_uuid, text, embeds [{ url }] up to 2,
//     channel_id, idem → { success, cast: { hash, author: { fid }, text } }; ErrorRes
//     { code, message, property, status })
//   https://docs.neynar.com/reference/rate-limits (429)
//   https://docs.neynar.com/reference/fetch-casts-for-user (reconcile: { casts, next: { cursor } })
//   https://docs.neynar.com/reference/lookup-cast-by-hash-or-url (results: reactions.likes_count,
//     reactions.recasts_count, replies.count)
//   https://docs.neynar.com/docs/how-to-get-cast-information-from-url (the cast URL form)
import { describe, expect, it } from 'vitest';
import type { PublishRequest } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, publishing, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createFarcasterInsightsReader } from './farcaster-insights';
import { createFarcasterPublisher, farcasterIdem } from './farcaster-publisher';
import { createFarcasterReconciler } from './farcaster-reconcile';
import type { NeynarOptions } from './neynar-api';

const f = (name: string) => fixture(import.meta.dirname, name);
const api = useFakePlatformApi();
const SIGNER = '19d0c5fd-9b33-4a48-a0e2-bc7b0555baec';
const HASH = '0x71d5225f77e0164388b1d4c120825f3a2c1f131c';
const connection = () =>
  liveConnection('farcaster', { externalId: '194', accountName: '@heraldcoffee', accessToken: SIGNER, platformData: { fid: 194, username: 'heraldcoffee' } });
const options = (): NeynarOptions => ({ fetch: api.fetch, baseUrl: api.baseUrl, apiKey: 'neynar-key' });
const publisher = () => publishing(createFarcasterPublisher(options()));
const CAST = '/v2/farcaster/cast';

const cast = (settings: PublishRequest<'farcaster'>['settings'] = {}): PublishRequest<'farcaster'> => ({
  content: 'Our winter blend is back. Roasted on Tuesday.',
  mediaUrls: [],
  settings,
  idempotencyKey: 'target-1',
});

describe('Farcaster publishing', () => {
  it('casts with the signer, the embeds by URL, the channel and a stable idem; the permalink is the cast on farcaster.xyz', async () => {
    api.on('POST', CAST, { json: f('cast-created') });
    const result = await publisher().publish(connection(), {
      ...cast({ channel: 'coffee' }),
      mediaUrls: ['https://media.herald.example/beans.jpg', 'https://media.herald.example/pour.mp4'],
      mediaKinds: ['image', 'video'],
    });

    expect(result).toEqual({ postedId: HASH, permalink: 'https://farcaster.xyz/heraldcoffee/0x71d5225f' });
    const [sent] = api.calls('POST', CAST);
    expect(sent!.headers['x-api-key']).toBe('neynar-key');
    expect(sent!.json()).toEqual({
      signer_uuid: SIGNER,
      text: 'Our winter blend is back. Roasted on Tuesday.',
      embeds: [{ url: 'https://media.herald.example/beans.jpg' }, { url: 'https://media.herald.example/pour.mp4' }],
      channel_id: 'coffee',
      idem: farcasterIdem('target-1'),
    });
    // 16 characters, as Neynar recommends, and the same for every attempt of the target.
    expect(farcasterIdem('target-1')).toMatch(/^[0-9a-f]{16}$/);
    expect(farcasterIdem('target-1')).toBe(farcasterIdem('target-1'));
    expect(farcasterIdem('target-2')).not.toBe(farcasterIdem('target-1'));
  });

  it('sends no embeds or channel when there are none', async () => {
    api.on('POST', CAST, { json: f('cast-created') });
    await publisher().publish(connection(), cast());
    expect(Object.keys(api.calls('POST', CAST)[0]!.json()).sort()).toEqual(['idem', 'signer_uuid', 'text']);
  });

  it('passes Neynar’s refusal on verbatim, and reports its rate limit as one', async () => {
    api.on('POST', CAST, { status: 400, json: f('error-invalid-channel') });
    const refused = await failure(publisher().publish(connection(), cast({ channel: 'nope' })));
    expect(refused.message).toBe('Invalid channel_id');
    expect(refused.opts.status).toBe(400);

    api.on('POST', CAST, { status: 429, json: f('error-rate-limit') });
    const limited = await failure(publisher().publish(connection(), cast()));
    expect(limited.message).toBe('Too many requests');
    expect(limited.opts.status).toBe(429);
  });

  it('refuses more than 2 embeds before calling, and a connection without its account', async () => {
    const three = { ...cast(), mediaUrls: ['https://m.example/1.jpg', 'https://m.example/2.jpg', 'https://m.example/3.jpg'] };
    expect((await failure(publisher().publish(connection(), three))).message).toMatch(/at most 2 embeds/);
    const bare = liveConnection('farcaster', { externalId: '194', accountName: '@heraldcoffee', accessToken: SIGNER });
    expect((await failure(publisher().publish(bare, cast()))).opts.status).toBe(401);
    expect(api.requests).toHaveLength(0);
  });
});

describe('Farcaster after an interrupted publish', () => {
  const reconcile = (startedAt: string) =>
    createFarcasterReconciler(options()).reconcile(
      connection(),
      { idempotencyKey: 'target-1', content: cast().content, mediaUrls: [], settings: {}, startedAt: new Date(startedAt) },
      { tokens: new MemoryTokenStore(), now: new Date('2026-11-27T12:05:00Z') },
    );

  it('finds the cast among the account’s newest, by its text and time', async () => {
    api.on('GET', '/v2/farcaster/feed/user/casts', { json: f('user-casts') });
    expect(await reconcile('2026-11-27T12:00:00Z')).toMatchObject({
      outcome: 'found',
      result: { postedId: HASH, permalink: 'https://farcaster.xyz/heraldcoffee/0x71d5225f' },
    });
    const [asked] = api.calls('GET', '/v2/farcaster/feed/user/casts');
    expect(Object.fromEntries(asked!.query)).toEqual({ fid: '194', limit: '25', include_replies: 'false' });
    expect(asked!.headers['x-api-key']).toBe('neynar-key');
  });

  it('says absent when the whole list was read and none matches, unknown when Neynar cannot be asked', async () => {
    api.on('GET', '/v2/farcaster/feed/user/casts', { json: { casts: f('user-casts').casts.slice(1), next: { cursor: null } } });
    expect((await reconcile('2026-11-27T12:00:00Z')).outcome).toBe('absent');
    api.on('GET', '/v2/farcaster/feed/user/casts', { status: 500, json: { message: 'Internal server error' } });
    expect(await reconcile('2026-11-27T12:00:00Z')).toMatchObject({ outcome: 'unknown', evidence: expect.stringContaining('Internal server error') });
  });
});

describe('Farcaster results', () => {
  it('reads likes, recasts and replies from the cast lookup; a cast that is gone says so', async () => {
    api.on('GET', CAST, (request) => (request.query.get('identifier') === HASH ? { json: f('cast-lookup') } : { status: 404, json: f('error-not-found') }));
    const reader = createFarcasterInsightsReader(options());
    const now = new Date('2026-11-28T12:00:00Z');
    const out = await reader.readPostMetrics(
      connection(),
      [
        { postedId: HASH, publishedAt: now },
        { postedId: '0x0000000000000000000000000000000000000001', publishedAt: now },
      ],
      { tokens: new MemoryTokenStore(), now },
    );
    const found = out.get(HASH)!;
    expect(found.ok).toBe(true);
    if (found.ok) {
      expect(found.metrics.reactions).toMatchObject({ value: 37 });
      expect(found.metrics.shares).toMatchObject({ value: 5 });
      expect(found.metrics.comments).toMatchObject({ value: 8 });
      expect(found.metrics.impressions.value).toBeNull();
    }
    expect(out.get('0x0000000000000000000000000000000000000001')).toEqual({ ok: false, reason: expect.stringContaining('did not find') });
    expect(api.calls('GET', CAST)[0]!.query.get('type')).toBe('hash');
  });
});
