// The networks' webhooks over real HTTP against PostgreSQL, with payloads and signatures shaped
// as each network documents them:
//   Meta  https://developers.facebook.com/docs/graph-api/webhooks/getting-started (verification
//         requests, X-Hub-Signature-256) and …/messenger-platform/reference/webhook-events/messages,
//         …/graph-api/webhooks/reference/page/#ratings
//   X     https://docs.x.com/x-api/webhooks/introduction (CRC, x-twitter-webhooks-signature) and
//         https://docs.x.com/x-api/account-activity/introduction (direct_message_events)
//   Google https://cloud.google.com/pubsub/docs/push (the push envelope) and
//         https://developers.google.com/my-business/content/notification-setup (NEW_REVIEW)
// A signed delivery is stored once; the same message pushed and polled, in either order, is one
// row and one event; a forged, stale or repeated delivery is refused or ignored, recorded, and
// writes nothing else; an unknown account writes nothing.
import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import type { MessagesClient, NetworkMessage, ReviewsClient } from '@/server/platforms/conversations';
import { RetiredCallError } from '@/server/platforms/publisher';
import { methodHandler, API_ROUTE_FILES } from '@/server/runtime/api-routes';
import { startTestServer } from '@/server/testing/api-server';
import { createWorkspaceWithKey, uniq } from '@/server/testing/fixtures';
import { collectConversations } from '@/server/inbox/collect-conversations';

const APP_SECRET = 'meta-app-secret-for-tests';
const VERIFY_TOKEN = 'herald-verify-token';
const X_SECRET = 'x-consumer-secret-for-tests';
const PUSH_TOKEN = 'pubsub-token-for-tests';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({
    '/hooks': (req) => methodHandler(API_ROUTE_FILES.networkWebhook, req.method)!(req),
  });
});
afterAll(() => server?.close());
beforeEach(() => {
  vi.stubEnv('META_APP_SECRET', APP_SECRET);
  vi.stubEnv('META_WEBHOOK_VERIFY_TOKEN', VERIFY_TOKEN);
  vi.stubEnv('X_CONSUMER_SECRET', X_SECRET);
  vi.stubEnv('GOOGLE_PUBSUB_VERIFICATION_TOKEN', PUSH_TOKEN);
});

const metaSignature = (body: string, secret = APP_SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
const xSignature = (body: string) => `sha256=${createHmac('sha256', X_SECRET).update(body).digest('base64')}`;

async function post(path: string, body: string, headers: Record<string, string>) {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, body: await res.text() };
}

async function liveAccount(platform: string, externalId: string) {
  const w = await createWorkspaceWithKey();
  const conn = await db.connection.create({
    data: { workspaceId: w.workspace.id, platform, provider: 'live', externalId, accountName: uniq('acct'), displayName: 'Herald Coffee', accessToken: null },
  });
  return { ...w, conn };
}

/** A Messenger delivery as Meta sends it: one entry, one message event. */
function messengerDelivery(pageId: string, mid: string, text: string, at = Date.now()) {
  return JSON.stringify({
    object: 'page',
    entry: [{ id: pageId, time: at, messaging: [{ sender: { id: 'PSID-7101' }, recipient: { id: pageId }, timestamp: at, message: { mid, text } }] }],
  });
}

/** A Page webhook's ratings change as Meta sends it: one entry, one recommendation added. */
function ratingsDelivery(pageId: string, review: { reviewerId: string; name: string; recommends: boolean; text: string; story: string }) {
  const now = Math.floor(Date.now() / 1000);
  const value = {
    item: 'rating',
    verb: 'add',
    reviewer_id: review.reviewerId,
    reviewer_name: review.name,
    recommendation_type: review.recommends ? 'positive' : 'negative',
    review_text: review.text,
    open_graph_story_id: `${pageId}_${review.story}`,
    created_time: now,
  };
  return JSON.stringify({ object: 'page', entry: [{ id: pageId, time: now, changes: [{ field: 'ratings', value }] }] });
}

/** The scheduled read of the account, its network (Graph's conversations) returning this one message, with the person's name. */
async function poll(connectionId: string, mid: string, text: string) {
  const message: NetworkMessage = {
    id: mid,
    conversationId: 'PSID-7101',
    counterpartId: 'PSID-7101',
    authorId: 'PSID-7101',
    authorName: 'Maya Chen',
    authorHandle: null,
    text,
    createdAt: new Date(),
    fromAccount: false,
  };
  const client: MessagesClient = {
    source: 'facebook',
    readMessages: async () => ({ messages: [message], cursor: null }),
    sendMessage: async () => ({ id: 'x' }),
  };
  await collectConversations(connectionId, { messagesClient: client, reviewsClient: null, kinds: ['message'] });
}

const deliveries = (outcome: string) => db.networkWebhookDelivery.count({ where: { outcome } });

describe('Meta', () => {
  it('answers the subscription handshake only with the verify token', async () => {
    const ok = await fetch(`${server.url}/hooks/meta?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('1158201444');
    const wrong = await fetch(`${server.url}/hooks/meta?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1158201444`);
    expect(wrong.status).toBe(403);
  });

  it('stores a signed message once; pushed then polled (with the person’s name) it stays one row and one event', async () => {
    const page = uniq('page');
    const a = await liveAccount('facebook', page);
    const mid = uniq('m_');
    const body = messengerDelivery(page, mid, 'Is the Saturday tasting still on?');
    const res = await post('/hooks/meta', body, { 'x-hub-signature-256': metaSignature(body) });
    expect(res.status).toBe(200);
    const rows = await db.inboxItem.findMany({ where: { connectionId: a.conn.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'message', externalId: mid, authorName: 'PSID-7101', threadExternalId: 'PSID-7101', source: 'meta-webhook' });
    expect((await db.connection.findUniqueOrThrow({ where: { id: a.conn.id } })).pushReceivedAt).not.toBeNull();

    // The scheduled read returns the same message, with the name the webhook did not carry.
    await poll(a.conn.id, mid, 'Is the Saturday tasting still on?');
    const after = await db.inboxItem.findMany({ where: { connectionId: a.conn.id } });
    expect(after).toHaveLength(1);
    expect(after[0]!.authorName).toBe('Maya Chen');
    expect(await db.outboxEvent.count({ where: { workspaceId: a.workspace.id, type: 'message.received' } })).toBe(1);
  });

  it('polled first, then pushed: one row, the name kept, one event', async () => {
    const page = uniq('page');
    const a = await liveAccount('facebook', page);
    const mid = uniq('m_');
    await poll(a.conn.id, mid, 'Do you sell gift cards?');
    const body = messengerDelivery(page, mid, 'Do you sell gift cards?');
    expect((await post('/hooks/meta', body, { 'x-hub-signature-256': metaSignature(body) })).status).toBe(200);
    const rows = await db.inboxItem.findMany({ where: { connectionId: a.conn.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.authorName).toBe('Maya Chen');
    expect(await db.outboxEvent.count({ where: { workspaceId: a.workspace.id, type: 'message.received' } })).toBe(1);
  });

  it('a second message pushed in a conversation becomes the one the inbox lists; one arriving late does not', async () => {
    const page = uniq('page');
    const a = await liveAccount('facebook', page);
    const first = uniq('m_');
    const second = uniq('m_');
    const late = uniq('m_');
    const at = Date.now();
    for (const [mid, text, when] of [
      [first, 'Can I book a table?', at - 60_000],
      [second, 'For six, on Friday', at],
      [late, 'Hello?', at - 120_000],
    ] as const) {
      const body = messengerDelivery(page, mid, text, when);
      expect((await post('/hooks/meta', body, { 'x-hub-signature-256': metaSignature(body) })).status).toBe(200);
    }
    const rows = await db.inboxItem.findMany({ where: { connectionId: a.conn.id }, select: { externalId: true, newestInConversation: true } });
    expect(Object.fromEntries(rows.map((r) => [r.externalId, r.newestInConversation]))).toEqual({ [first]: false, [second]: true, [late]: false });
  });

  it('refuses a forged signature, records it and writes nothing', async () => {
    const page = uniq('page');
    const a = await liveAccount('facebook', page);
    const body = messengerDelivery(page, uniq('m_'), 'Send me your password');
    const before = await deliveries('forged');
    for (const signature of [metaSignature(body, 'another-secret'), 'sha256=00', '', metaSignature(`${body} `)]) {
      const res = await post('/hooks/meta', body, signature ? { 'x-hub-signature-256': signature } : {});
      expect(res.status).toBe(403);
    }
    expect(await deliveries('forged')).toBe(before + 4);
    expect(await db.inboxItem.count({ where: { connectionId: a.conn.id } })).toBe(0);
    expect(await db.outboxEvent.count({ where: { workspaceId: a.workspace.id } })).toBe(0);
  });

  it('a replayed delivery writes nothing twice; one older than the replay window is refused', async () => {
    const page = uniq('page');
    const a = await liveAccount('facebook', page);
    const body = messengerDelivery(page, uniq('m_'), 'Table for two tonight?');
    const headers = { 'x-hub-signature-256': metaSignature(body) };
    expect((await post('/hooks/meta', body, headers)).status).toBe(200);
    const duplicates = await deliveries('duplicate');
    const again = await post('/hooks/meta', body, headers);
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body)).toMatchObject({ duplicate: true, items: 0 });
    expect(await deliveries('duplicate')).toBe(duplicates + 1);
    expect(await db.inboxItem.count({ where: { connectionId: a.conn.id } })).toBe(1);
    expect(await db.outboxEvent.count({ where: { workspaceId: a.workspace.id, type: 'message.received' } })).toBe(1);

    const stale = messengerDelivery(page, uniq('m_'), 'An old message', Date.now() - 3 * 24 * 3_600_000);
    const before = await deliveries('stale');
    const res = await post('/hooks/meta', stale, { 'x-hub-signature-256': metaSignature(stale) });
    expect(res.status).toBe(403);
    expect(await deliveries('stale')).toBe(before + 1);
    expect(await db.inboxItem.count({ where: { connectionId: a.conn.id } })).toBe(1);
  });

  it('a Page recommendation arrives as a review with review.received', async () => {
    const page = uniq('page');
    const a = await liveAccount('facebook', page);
    const body = ratingsDelivery(page, { reviewerId: '100012345', name: 'Tom Okafor', recommends: false, text: 'Waited forty minutes.', story: 'story1' });
    expect((await post('/hooks/meta', body, { 'x-hub-signature-256': metaSignature(body) })).status).toBe(200);
    const review = await db.inboxItem.findFirstOrThrow({ where: { connectionId: a.conn.id, kind: 'review' } });
    expect(review).toMatchObject({ recommends: false, rating: null, authorName: 'Tom Okafor', text: 'Waited forty minutes.' });
    expect(await db.outboxEvent.count({ where: { workspaceId: a.workspace.id, type: 'review.received' } })).toBe(1);
  });

  it('a Page connected in one more workspace receives the next push at once, as does the first', async () => {
    const page = uniq('page');
    const first = await liveAccount('facebook', page);
    const one = messengerDelivery(page, uniq('m_'), 'Do you cater weddings?');
    expect((await post('/hooks/meta', one, { 'x-hub-signature-256': metaSignature(one) })).status).toBe(200);
    // The same Page, connected by a second workspace a moment later.
    const second = await createWorkspaceWithKey();
    const again = await db.connection.create({
      data: {
        workspaceId: second.workspace.id,
        platform: 'facebook',
        provider: 'live',
        externalId: page,
        accountName: uniq('acct'),
        displayName: 'Herald Coffee',
      },
    });
    const two = messengerDelivery(page, uniq('m_'), 'And birthdays?');
    expect((await post('/hooks/meta', two, { 'x-hub-signature-256': metaSignature(two) })).status).toBe(200);
    const texts = async (connectionId: string) => (await db.inboxItem.findMany({ where: { connectionId }, orderBy: { createdAt: 'asc' } })).map((i) => i.text);
    expect(await texts(first.conn.id)).toEqual(['Do you cater weddings?', 'And birthdays?']);
    expect(await texts(again.id)).toEqual(['And birthdays?']);
  });

  it('where Graph no longer serves the recommendations read, the pushed ones stay and the account shows no error', async () => {
    const page = uniq('page');
    const a = await liveAccount('facebook', page);
    const body = ratingsDelivery(page, { reviewerId: '100012399', name: 'Ana Ruiz', recommends: true, text: 'Lovely staff.', story: 'story2' });
    expect((await post('/hooks/meta', body, { 'x-hub-signature-256': metaSignature(body) })).status).toBe(200);
    const retired: ReviewsClient = {
      source: 'facebook',
      readReviews: async () => {
        throw new RetiredCallError('(#12) ratings field is deprecated for versions v22.0 and higher');
      },
      replyToReview: async () => ({ id: 'x' }),
      deleteReviewReply: async () => undefined,
    };
    const read = await collectConversations(a.conn.id, { messagesClient: null, reviewsClient: retired, kinds: ['review'] });
    expect(read.ok).toBe(true);
    expect((await db.inboxItem.findMany({ where: { connectionId: a.conn.id, kind: 'review' } })).map((r) => [r.authorName, r.deletedAt])).toEqual([
      ['Ana Ruiz', null],
    ]);
    expect(await db.connection.findUniqueOrThrow({ where: { id: a.conn.id } })).toMatchObject({
      conversationsError: null,
      conversationsCheckedAt: expect.any(Date),
    });
  });

  it('deliveries arriving at once are stored together, each once: copies answer duplicate, a message pushed twice is one row', async () => {
    const pages = [uniq('page'), uniq('page'), uniq('page')];
    const accounts = await Promise.all(pages.map((page) => liveAccount('facebook', page)));
    const at = Date.now();
    const bodies = Array.from({ length: 36 }, (_, i) => {
      const page = pages[i % 3]!;
      // Two people write to each Page twice: a conversation's messages land in one statement or in several.
      return JSON.stringify({
        object: 'page',
        entry: [
          {
            id: page,
            time: at,
            messaging: [
              { sender: { id: `PSID-${i % 6}` }, recipient: { id: page }, timestamp: at + i, message: { mid: `m_${page}_${i}`, text: `Message ${i}` } },
            ],
          },
        ],
      });
    });
    // Meta sending four deliveries again (the same bytes), and four messages again in deliveries of their own (other bytes).
    const copies = bodies.slice(0, 4);
    const resent = bodies.slice(4, 8).map((b) => b.replace('"time":', '"resent":true,"time":'));
    const all = [...bodies, ...copies, ...resent];
    const answers = await Promise.all(all.map((body) => post('/hooks/meta', body, { 'x-hub-signature-256': metaSignature(body) })));
    expect(answers.map((a) => a.status)).toEqual(all.map(() => 200));
    const parsed = answers.map((a) => JSON.parse(a.body) as { items: number; duplicate: boolean });
    expect(parsed.filter((a) => a.duplicate)).toHaveLength(4);
    expect(parsed.reduce((n, a) => n + a.items, 0)).toBe(36);
    for (const [p, account] of accounts.entries()) {
      const rows = await db.inboxItem.findMany({ where: { connectionId: account.conn.id }, orderBy: { externalId: 'asc' } });
      expect(rows.map((r) => r.externalId)).toEqual(
        bodies
          .map((_, i) => `m_${pages[p]}_${i}`)
          .filter((_, i) => i % 3 === p)
          .sort(),
      );
      expect(await db.outboxEvent.count({ where: { workspaceId: account.workspace.id, type: 'message.received' } })).toBe(12);
    }
    const records = await db.networkWebhookDelivery.findMany({ where: { outcome: 'accepted', receivedAt: { gte: new Date(at - 1_000) }, items: { gt: 0 } } });
    expect(records.filter((r) => all.some((b) => createHash('sha256').update(b).digest('hex') === r.digest)).reduce((n, r) => n + r.items, 0)).toBe(36);
  });

  it('messages of one conversation arriving at once: the conversation is listed once, by its newest', async () => {
    const page = uniq('page');
    const a = await liveAccount('facebook', page);
    const at = Date.now();
    // Eight people each send two messages in quick succession, each message a delivery of its own, all at once.
    const bodies = Array.from({ length: 16 }, (_, i) =>
      JSON.stringify({
        object: 'page',
        entry: [
          {
            id: page,
            time: at,
            messaging: [
              { sender: { id: `PSID-${i >> 1}` }, recipient: { id: page }, timestamp: at + i, message: { mid: `m_${page}_${i}`, text: `Part ${i}` } },
            ],
          },
        ],
      }),
    );
    const answers = await Promise.all(bodies.map((body) => post('/hooks/meta', body, { 'x-hub-signature-256': metaSignature(body) })));
    expect(answers.map((r) => r.status)).toEqual(bodies.map(() => 200));
    const newest = await db.inboxItem.findMany({ where: { connectionId: a.conn.id, newestInConversation: true }, orderBy: { threadExternalId: 'asc' } });
    expect(newest.map((r) => [r.threadExternalId, r.externalId])).toEqual(Array.from({ length: 8 }, (_, p) => [`PSID-${p}`, `m_${page}_${2 * p + 1}`]));
  });

  it('a delivery the database refuses fails alone; those stored with it are kept', async () => {
    const page = uniq('page');
    const a = await liveAccount('facebook', page);
    const mids = Array.from({ length: 12 }, () => uniq('m_'));
    // The database refuses one message (a trigger of this test's, standing for anything it may
    // refuse): the network gets a 500 for that delivery and sends it again later.
    await db.$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.text = 'poison' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`);
    await db.$executeRawUnsafe(`CREATE TRIGGER refuse_poison BEFORE INSERT ON "InboxItem" FOR EACH ROW EXECUTE FUNCTION refuse_poison()`);
    try {
      const bodies = mids.map((mid, i) => messengerDelivery(page, mid, i === 7 ? 'poison' : `Question ${i}`));
      const answers = await Promise.all(bodies.map((body) => post('/hooks/meta', body, { 'x-hub-signature-256': metaSignature(body) })));
      expect(answers.map((r) => r.status)).toEqual(mids.map((_, i) => (i === 7 ? 500 : 200)));
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER refuse_poison ON "InboxItem"`);
    }
    const rows = await db.inboxItem.findMany({ where: { connectionId: a.conn.id } });
    expect(rows.map((r) => r.externalId).sort()).toEqual(mids.filter((_, i) => i !== 7).sort());
  });

  it('a message or a review with a NUL character is stored without it, not refused again at every retry', async () => {
    const page = uniq('page');
    const a = await liveAccount('facebook', page);
    const message = messengerDelivery(page, uniq('m_'), 'Open on\u0000 Sunday?');
    expect((await post('/hooks/meta', message, { 'x-hub-signature-256': metaSignature(message) })).status).toBe(200);
    const review = ratingsDelivery(page, { reviewerId: '100012377', name: 'Li\u0000 Wei', recommends: true, text: 'Great\u0000 beans', story: 'story3' });
    expect((await post('/hooks/meta', review, { 'x-hub-signature-256': metaSignature(review) })).status).toBe(200);
    const rows = await db.inboxItem.findMany({ where: { connectionId: a.conn.id }, orderBy: { kind: 'asc' } });
    expect(rows.map((r) => [r.kind, r.text, r.authorName])).toEqual([
      ['message', 'Open on Sunday?', 'PSID-7101'],
      ['review', 'Great beans', 'Li Wei'],
    ]);
  });

  it('a delivery for an account no workspace connected writes nothing and is recorded', async () => {
    const body = messengerDelivery(uniq('nobody'), uniq('m_'), 'hello');
    const before = await deliveries('unknown_account');
    expect((await post('/hooks/meta', body, { 'x-hub-signature-256': metaSignature(body) })).status).toBe(200);
    expect(await deliveries('unknown_account')).toBe(before + 1);
  });
});

describe('X', () => {
  it('answers the CRC with the consumer secret’s HMAC, and stores a signed direct message', async () => {
    const crc = await fetch(`${server.url}/hooks/x?crc_token=challenge-123`);
    expect(await crc.json()).toEqual({ response_token: `sha256=${createHmac('sha256', X_SECRET).update('challenge-123').digest('base64')}` });

    const user = String(1_000_000 + Math.floor(Math.random() * 1_000_000));
    const a = await liveAccount('twitter', user);
    const body = JSON.stringify({
      for_user_id: user,
      direct_message_events: [
        {
          type: 'message_create',
          id: String(Date.now()) + String(Math.floor(Math.random() * 1000)),
          created_timestamp: String(Date.now()),
          message_create: { target: { recipient_id: user }, sender_id: '3805104374', message_data: { text: 'Are you open on Sunday?' } },
        },
      ],
      users: { '3805104374': { id: '3805104374', name: 'Lena Fischer', screen_name: 'lenafischer' } },
    });
    expect((await post('/hooks/x', body, { 'x-twitter-webhooks-signature': xSignature(body) })).status).toBe(200);
    const row = await db.inboxItem.findFirstOrThrow({ where: { connectionId: a.conn.id } });
    expect(row).toMatchObject({ kind: 'message', authorName: 'Lena Fischer', text: 'Are you open on Sunday?' });
    // The same delivery altered on the way (the text, and a message of its own) under the first one's signature.
    const before = await deliveries('forged');
    const altered = body.replace('Sunday', 'Monday').replace(/"id":"(\d+)"/, '"id":"$19"');
    const forged = await post('/hooks/x', altered, { 'x-twitter-webhooks-signature': xSignature(body) });
    expect(forged.status).toBe(403);
    expect(await deliveries('forged')).toBe(before + 1);
    expect(await db.inboxItem.findMany({ where: { connectionId: a.conn.id }, select: { text: true } })).toEqual([{ text: 'Are you open on Sunday?' }]);
    expect(await db.outboxEvent.count({ where: { workspaceId: a.workspace.id, type: 'message.received' } })).toBe(1);
  });
});

describe('Google', () => {
  it('a review notification with the push token queues a read of the location’s reviews; without it, nothing', async () => {
    const location = `accounts/${Date.now()}/locations/${Math.floor(Math.random() * 1e9)}`;
    const a = await liveAccount('google_business', location);
    const data = Buffer.from(JSON.stringify({ type: 'NEW_REVIEW', review: `${location}/reviews/AbFvOqn9Xk2`, location })).toString('base64');
    const body = JSON.stringify({
      message: { data, messageId: uniq('msg'), publishTime: new Date().toISOString() },
      subscription: 'projects/herald/subscriptions/reviews',
    });
    const forged = await post('/hooks/google?token=guess', body, {});
    expect(forged.status).toBe(403);
    const res = await post(`/hooks/google?token=${PUSH_TOKEN}`, body, {});
    expect(res.status).toBe(200);
    const queued = await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE key LIKE ${`inbox-push-reviews:${a.conn.id}:%`}`;
    expect(queued[0]!.n).toBe(1);
  });
});
