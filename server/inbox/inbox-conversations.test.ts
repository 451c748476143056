// Direct messages and reviews against PostgreSQL, over real HTTP: a demo Google location's
// reviews and a demo Instagram account's conversations are read on schedule and stored once
// however often they are read; the inbox lists them by kind, stars and "not answered"; a review
// is answered once (a second answer is refused), its answer changed and taken down on the
// network and read back as the demo network keeps it; a message is answered through the one
// reply path, every earlier message of its conversation counting as answered, and Meta's 24-hour
// window closes a conversation whose last message is older; another workspace's items are not
// found. The events message.received and review.received are written once per new item.
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { checkDocumentedOutcomes } from '@/server/testing/public-api';
import { apiClient } from '@/server/testing/api-client';
import { startTestServer } from '@/server/testing/api-server';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { readyMedia } from '@/server/testing/posts-fixtures';
import { afterAll, beforeAll } from 'vitest';
import { drainOutbox } from '@/server/events/drain-outbox';
import { notifyStaff } from '@/server/notifications/notifications';
import type { NetworkMessage } from '@/server/platforms/conversations';
import { collectConversations, sweepDueConversations } from './collect-conversations';
import { storeMessages } from './store-conversations';

const HOUR = 3_600_000;
const outcomes = checkDocumentedOutcomes();
let server: Awaited<ReturnType<typeof startTestServer>>;
let api: ReturnType<typeof apiClient>;
beforeAll(async () => {
  server = await startTestServer({ '/public/v1': outcomes.handle });
  api = apiClient(server.url);
});
afterAll(() => server?.close());

/** A demo account connected `hoursAgo` hours ago, read once. */
async function demoAccount(platform: 'google_business' | 'instagram' | 'facebook' | 'bluesky', hoursAgo: number) {
  const w = await createWorkspaceWithKey();
  const conn = await createSandboxConnection(w.workspace.id, { platform });
  await db.connection.update({ where: { id: conn.id }, data: { createdAt: new Date(Date.now() - hoursAgo * HOUR) } });
  const read = await collectConversations(conn.id);
  expect(read.ok).toBe(true);
  return { ...w, conn };
}

describe('reviews', () => {
  it('a demo location’s reviews are stored once, with stars, answered ones marked, and one review.received each', async () => {
    const a = await demoAccount('google_business', 4);
    const rows = await db.inboxItem.findMany({ where: { connectionId: a.conn.id, kind: 'review' }, orderBy: { networkCreatedAt: 'asc' } });
    // Maya's old five stars (answered on the network), Tom's one star two hours before connecting, Lena's four stars three hours after.
    const reviews = rows.filter((r) => !r.fromAccount);
    expect(reviews.map((r) => r.rating)).toEqual([5, 1, 4]);
    expect(reviews[0]!.repliedAt).not.toBeNull();
    expect(reviews[1]!.repliedAt).toBeNull();
    const answer = rows.find((r) => r.fromAccount)!;
    expect(answer).toMatchObject({ text: 'Thank you Maya! See you soon.', inReplyToId: reviews[0]!.id, status: 'done' });
    expect(await db.outboxEvent.count({ where: { workspaceId: a.workspace.id, type: 'review.received' } })).toBe(3);
    // The one star is a notice for the team; the four and five stars wait in the inbox.
    await drainOutbox({ consumers: [notifyStaff] });
    const notes = await db.notification.findMany({ where: { workspaceId: a.workspace.id, kind: 'review.received' } });
    expect(notes.map((n) => n.title)).toEqual(['Tom Okafor left 1 star on Google Business Profile']);
    expect(notes[0]!.data).toEqual({ itemId: reviews[1]!.id });

    // Read again (and again): nothing new, nothing doubled.
    await collectConversations(a.conn.id);
    await collectConversations(a.conn.id);
    expect(await db.inboxItem.count({ where: { connectionId: a.conn.id } })).toBe(rows.length);
    expect(await db.outboxEvent.count({ where: { workspaceId: a.workspace.id, type: 'review.received' } })).toBe(3);
  });

  it('lists reviews by kind, stars and not answered; a review is answered once, changed and taken down, as the network keeps it', async () => {
    const a = await demoAccount('google_business', 4);
    const unanswered = await api('GET', '/inbox?kind=review&answered=false', { key: a.secret });
    expect(unanswered.status).toBe(200);
    expect(unanswered.body.data.map((i: { author: { name: string } }) => i.author.name).sort()).toEqual(['Lena Fischer', 'Tom Okafor']);
    const oneStar = await api('GET', '/inbox?rating=1', { key: a.secret });
    expect(oneStar.body.data).toHaveLength(1);
    const tom = oneStar.body.data[0];
    expect(tom).toMatchObject({ kind: 'review', rating: 1, postId: null, targetId: null, permalink: null });

    const conversation = await api('GET', `/inbox/${tom.id}`, { key: a.secret });
    expect(conversation.body.data.post).toBeNull();
    expect(conversation.body.data.actions.reply).toEqual({ offered: true, reason: null });
    expect(conversation.body.data.actions.editReply.offered).toBe(false);
    expect(conversation.body.data.actions.hide.offered).toBe(false);
    expect(conversation.body.data.replyLimit.maxChars).toBe(4096);

    const sent = await api('POST', `/inbox/${tom.id}/reply`, {
      key: a.secret,
      body: { text: 'Sorry Tom, that is not us at our best. Coffee is on us next time.' },
    });
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({ kind: 'review', fromAccount: true, reply: { state: 'sent' } });
    const again = await api('POST', `/inbox/${tom.id}/reply`, { key: a.secret, body: { text: 'A second answer' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('REVIEW_ALREADY_ANSWERED');

    // The demo network keeps the answer: read back, it is the same row, not deleted.
    await collectConversations(a.conn.id);
    const answers = await db.inboxItem.findMany({ where: { inReplyToId: tom.id } });
    expect(answers).toHaveLength(1);
    expect(answers[0]!.deletedAt).toBeNull();
    expect((await db.inboxItem.findUniqueOrThrow({ where: { id: tom.id } })).repliedAt).not.toBeNull();

    const changed = await api('PUT', `/inbox/${tom.id}/reply`, { key: a.secret, body: { text: 'Sorry Tom: your next coffee is on us.' } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.text).toBe('Sorry Tom: your next coffee is on us.');
    await collectConversations(a.conn.id);
    expect((await db.inboxItem.findUniqueOrThrow({ where: { id: answers[0]!.id } })).text).toBe('Sorry Tom: your next coffee is on us.');

    const removed = await api('DELETE', `/inbox/${answers[0]!.id}/reply`, { key: a.secret });
    expect(removed.status).toBe(200);
    expect(removed.body.data.deletedAt).not.toBeNull();
    await collectConversations(a.conn.id);
    expect((await db.inboxItem.findUniqueOrThrow({ where: { id: tom.id } })).status).toBe('open');
    // Response times count the review: answered at once, kind by kind.
    const times = await api('GET', '/inbox/response-times', { key: a.secret });
    expect(times.body.data).toMatchObject({ byKind: { review: { answered: 2 }, comment: { answered: 0, unanswered: 0 } } });
    // Answered anew after the answer came down.
    const anew = await api('POST', `/inbox/${tom.id}/reply`, { key: a.secret, body: { text: 'Thank you for telling us, Tom.' } });
    expect(anew.status).toBe(201);
  });

  it('a demo Facebook Page’s reviews are recommendations, not stars', async () => {
    const a = await demoAccount('facebook', 4);
    const rows = await db.inboxItem.findMany({ where: { connectionId: a.conn.id, kind: 'review', fromAccount: false } });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.rating === null && r.recommends !== null)).toBe(true);
  });
});

describe('the schedule', () => {
  it('queues a read for an account never read, none for one just read, and waits longer while its network pushes', async () => {
    const w = await createWorkspaceWithKey();
    const conn = await createSandboxConnection(w.workspace.id, { platform: 'instagram' });
    const queued = async () =>
      (
        await db.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE key LIKE ${`inbox-conversations:${conn.id}:%`}`
      )[0]!.n;
    const now = new Date();
    await sweepDueConversations(now);
    expect(await queued()).toBe(1);
    await collectConversations(conn.id, { now });
    // Read just now: not due for five minutes.
    const soon = new Date(now.getTime() + 4 * 60_000);
    await sweepDueConversations(soon);
    expect(await queued()).toBe(1);
    // Pushes arriving: the read waits an hour, not five minutes.
    await db.connection.update({ where: { id: conn.id }, data: { pushReceivedAt: now } });
    await sweepDueConversations(new Date(now.getTime() + 10 * 60_000));
    expect(await queued()).toBe(1);
    await sweepDueConversations(new Date(now.getTime() + 61 * 60_000));
    expect(await queued()).toBe(2);
  });
});

describe('direct messages', () => {
  it('a demo Instagram account’s conversations: stored once, answered through the one reply path, Meta’s window respected', async () => {
    const a = await demoAccount('instagram', 1);
    const messages = await db.inboxItem.findMany({ where: { connectionId: a.conn.id, kind: 'message' }, orderBy: { networkCreatedAt: 'asc' } });
    // Maya (50 h ago), Tom and the account's own answer, Lena twice; Priya's arrives 45 min after connecting.
    expect(messages.map((m) => m.text.slice(0, 12))).toEqual(['Hi! Do you s', 'Is the Satur', 'Yes! 6pm as ', 'Can I book a', 'Also, is the', 'Your oat lat']);
    const tom = messages[1]!;
    expect(tom.repliedAt).not.toBeNull(); // answered on the network by the account
    expect(await db.outboxEvent.count({ where: { workspaceId: a.workspace.id, type: 'message.received' } })).toBe(5);
    await collectConversations(a.conn.id);
    expect(await db.inboxItem.count({ where: { connectionId: a.conn.id, kind: 'message' } })).toBe(messages.length);

    // Each conversation is listed once, by its newest message from the person.
    const listed = await api('GET', '/inbox?kind=message&status=all', { key: a.secret });
    expect(listed.body.data.every((i: { kind: string; fromAccount: boolean }) => i.kind === 'message' && !i.fromAccount)).toBe(true);
    expect(listed.body.data.map((i: { text: string }) => i.text.slice(0, 12)).sort()).toEqual(['Also, is the', 'Hi! Do you s', 'Is the Satur', 'Your oat lat']);

    // Maya wrote 50 hours ago: Instagram's 24-hour window is closed, and says so.
    const maya = messages[0]!;
    const mayaView = await api('GET', `/inbox/${maya.id}`, { key: a.secret });
    expect(mayaView.body.data.replyWindow).toMatchObject({ hours: 24, open: false });
    expect(mayaView.body.data.actions.reply.offered).toBe(false);
    expect(mayaView.body.data.actions.reply.reason).toContain('24 hours');
    const closed = await api('POST', `/inbox/${maya.id}/reply`, { key: a.secret, body: { text: 'Yes, we do!' } });
    expect(closed.status).toBe(409);
    expect(closed.body.error.code).toBe('REPLY_WINDOW_CLOSED');

    // Lena's conversation is open: one answer answers both of her messages.
    const lena = messages[4]!;
    const lenaView = await api('GET', `/inbox/${lena.id}`, { key: a.secret });
    expect(lenaView.body.data.thread.map((t: { text: string }) => t.text.slice(0, 5))).toEqual(['Can I', 'Also,']);
    expect(lenaView.body.data.replyWindow?.open).toBe(true);
    expect(lenaView.body.data.replyImages).toBe(true);
    expect(lenaView.body.data.replyLimit.maxChars).toBe(1000);
    const answered = await api('POST', `/inbox/${lena.id}/reply`, { key: a.secret, body: { text: 'Friday at 7 works! There is a car park behind us.' } });
    expect(answered.status).toBe(201);
    expect(answered.body.data).toMatchObject({ kind: 'message', fromAccount: true, threadExternalId: lena.threadExternalId, reply: { state: 'sent' } });
    const both = await db.inboxItem.findMany({ where: { connectionId: a.conn.id, threadExternalId: lena.threadExternalId, fromAccount: false } });
    expect(both.every((m) => m.repliedAt !== null && m.status === 'done')).toBe(true);
    // Reopened and read as one conversation.
    await api('PATCH', `/inbox/${lena.id}`, { key: a.secret, body: { status: 'open', seen: true } });
    const reopened = await db.inboxItem.findMany({ where: { connectionId: a.conn.id, threadExternalId: lena.threadExternalId, fromAccount: false } });
    expect(reopened.every((m) => m.status === 'open' && m.seenAt !== null)).toBe(true);

    const tooLong = await api('POST', `/inbox/${lena.id}/reply`, { key: a.secret, body: { text: 'x'.repeat(1001) } });
    expect(tooLong.body.error.code).toBe('CONTENT_TOO_LONG');
    const notHere = await api('POST', `/inbox/${lena.id}/hide`, { key: a.secret, body: {} });
    expect(notHere.body.error.code).toBe('ACTION_NOT_OFFERED');
  });

  it('an answer carries one image from the media library where the network takes one, and only there', async () => {
    const a = await demoAccount('instagram', 1);
    const priya = await db.inboxItem.findFirstOrThrow({ where: { connectionId: a.conn.id, kind: 'message', text: { startsWith: 'Your oat latte' } } });
    const image = await readyMedia(a.workspace.id);
    const video = await readyMedia(a.workspace.id, { kind: 'video' });
    const sent = await api('POST', `/inbox/${priya.id}/reply`, { key: a.secret, body: { text: 'Here are our beans!', mediaIds: [image.id] } });
    expect(sent.status).toBe(201);
    expect(sent.body.data.attachmentUrl).toBe(image.url);
    const notImage = await api('POST', `/inbox/${priya.id}/reply`, { key: a.secret, body: { text: 'A video', mediaIds: [video.id] } });
    expect(notImage.status).toBe(400);
    expect(await db.inboxItem.count({ where: { connectionId: a.conn.id, text: 'A video' } })).toBe(0);

    // Bluesky's chat takes no image; a review's answer neither.
    const sky = await demoAccount('bluesky', 1);
    const skyItem = await db.inboxItem.findFirstOrThrow({ where: { connectionId: sky.conn.id, kind: 'message', text: { startsWith: 'Your oat latte' } } });
    const skyImage = await readyMedia(sky.workspace.id);
    const refused = await api('POST', `/inbox/${skyItem.id}/reply`, { key: sky.secret, body: { text: 'Beans!', mediaIds: [skyImage.id] } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('ACTION_NOT_OFFERED');
  });

  it('messages of one conversation sent at the same instant, stored one after the other: listed once, by the greater id', async () => {
    // Networks that date a message to the second (Telegram, Bluesky) give two quick messages one time;
    // the batch and the heal order by (time, id), and so must a later statement.
    const w = await createWorkspaceWithKey();
    const conn = await createSandboxConnection(w.workspace.id, { platform: 'instagram' });
    const account = { workspaceId: w.workspace.id, connectionId: conn.id, platform: 'instagram', source: 'instagram' };
    const at = new Date(Date.now() - 60_000);
    const message = (id: string): NetworkMessage => ({
      id,
      conversationId: 'IGSID-77',
      counterpartId: 'IGSID-77',
      authorId: 'IGSID-77',
      authorName: 'Ada Brook',
      authorHandle: null,
      text: `Message ${id}`,
      createdAt: at,
      fromAccount: false,
    });
    const newest = () => db.inboxItem.findMany({ where: { connectionId: conn.id, newestInConversation: true }, select: { externalId: true } });
    await storeMessages(db, account, [message('dm-b')], new Date());
    await storeMessages(db, account, [message('dm-a')], new Date());
    expect(await newest()).toEqual([{ externalId: 'dm-b' }]);
    await storeMessages(db, account, [message('dm-c')], new Date());
    expect(await newest()).toEqual([{ externalId: 'dm-c' }]);
    expect((await sweepDueConversations()).healed).toBe(0);
  });

  it('two messages of one conversation stored by two writers at once: the sweep lists the conversation once again', async () => {
    const w = await createWorkspaceWithKey();
    const conn = await createSandboxConnection(w.workspace.id, { platform: 'instagram' });
    const account = { workspaceId: w.workspace.id, connectionId: conn.id, platform: 'instagram', source: 'instagram' };
    const at = Date.now() - 60_000;
    const message = (id: string, offset: number): NetworkMessage => ({
      id,
      conversationId: 'IGSID-55',
      counterpartId: 'IGSID-55',
      authorId: 'IGSID-55',
      authorName: 'Sam Ito',
      authorHandle: null,
      text: `Message ${id}`,
      createdAt: new Date(at + offset),
      fromAccount: false,
    });
    // Each writer's transaction stores its message and waits for the other's before committing:
    // neither sees the other's row, as with two processes receiving pushes at the same moment.
    let arrived = 0;
    let bothIn!: () => void;
    const barrier = new Promise<void>((resolve) => (bothIn = resolve));
    const writer = (m: NetworkMessage) =>
      db.$transaction(async (tx) => {
        await storeMessages(tx, account, [m], new Date());
        if (++arrived === 2) bothIn();
        await barrier;
      });
    await Promise.all([writer(message('dm-1', 0)), writer(message('dm-2', 1_000))]);
    const newest = () => db.inboxItem.findMany({ where: { connectionId: conn.id, newestInConversation: true }, select: { externalId: true } });
    expect((await newest()).map((r) => r.externalId).sort()).toEqual(['dm-1', 'dm-2']);

    expect((await sweepDueConversations()).healed).toBe(1);
    expect(await newest()).toEqual([{ externalId: 'dm-2' }]);
    const listed = await api('GET', `/inbox?kind=message&connectionId=${conn.id}`, { key: w.secret });
    expect(listed.body.data.map((i: { text: string }) => i.text)).toEqual(['Message dm-2']);
  });

  it('one workspace never sees another’s messages or reviews', async () => {
    const a = await demoAccount('instagram', 1);
    const b = await createWorkspaceWithKey();
    const item = await db.inboxItem.findFirstOrThrow({ where: { connectionId: a.conn.id, kind: 'message', fromAccount: false } });
    const read = await api('GET', `/inbox/${item.id}`, { key: b.secret });
    expect(read.status).toBe(404);
    const reply = await api('POST', `/inbox/${item.id}/reply`, { key: b.secret, body: { text: 'hi' } });
    expect(reply.status).toBe(404);
    expect((await api('GET', '/inbox?kind=message', { key: b.secret })).body.data).toEqual([]);
  });
});
