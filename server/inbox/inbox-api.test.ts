// The comments inbox end to end against PostgreSQL: collection (only new items written, an
// edit or a deletion on the network updated in place, our own reply recognised, a refused
// token marking the account), the routes over real HTTP (filters, cursor, unread, another
// workspace's items never seen, scope), replies (sent once per Idempotency-Key, limits counted
// the network's way, refusals in the network's words), approval of members' replies, hide /
// like where the network allows, the team's handling, events and notifications.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '@/server/auth/actor';
import { SCOPES } from '@/server/auth/scopes';
import { db } from '@/server/db/client';
import { closeJobs, startLocalRunner, type LocalRunner } from '@/server/jobs';
import type { CommentsClient, NetworkComment } from '@/server/platforms/comments';
import { PlatformError } from '@/server/platforms/publisher';
import { runnableJobs } from '@/server/runtime/job-handlers';
import { createKey, createSandboxConnection, createWorkspace, createWorkspaceWithKey, uniq } from '@/server/testing/fixtures';
import { testDatabaseUrl } from '@/server/testing/per-file-database';
import { usePublicApi } from '@/server/testing/public-api';
import { publishedTarget as publishedOne } from '@/server/testing/posts-fixtures';
import { collectConnectionComments, sweepDueComments } from './collect-comments';
import { approveReply, rejectReply } from './reply-approval';
import { replyToItem } from './act-on-inbox';

const api = usePublicApi();
let runner: LocalRunner;
beforeAll(async () => {
  runner = await startLocalRunner({ connectionString: testDatabaseUrl(), definitions: runnableJobs, concurrency: 2, pollIntervalMs: 100 });
});
afterAll(async () => {
  await runner.stop();
  await closeJobs();
});

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** A post published to one account `publishedAt`, its content naming its id on the network. */
const publishedTarget = (workspaceId: string, connectionId: string, platform: string, publishedAt: Date, postedId = uniq('sbx-post')) =>
  publishedOne(workspaceId, connectionId, platform, publishedAt, postedId, `Our autumn menu is here ${postedId}`);

/** A network in a test's hands: the comments it holds now, and what was sent to it. */
function scriptedNetwork(source = 'instagram') {
  const state = {
    comments: [] as NetworkComment[],
    complete: true,
    replies: [] as { commentId: string | null; text: string; key?: string }[],
    fail: null as Error | null,
  };
  const client: CommentsClient = {
    source,
    async readComments() {
      if (state.fail) throw state.fail;
      return { ok: true, comments: state.comments.map((c) => ({ ...c })), complete: state.complete };
    },
    async reply(_c, target, text, ctx) {
      if (state.fail) throw state.fail;
      state.replies.push({ commentId: target.commentId, text, key: ctx.idempotencyKey });
      const id = `reply-${state.replies.length}`;
      return { id, permalink: `https://www.instagram.com/p/abc/c/${id}` };
    },
    async hide() {},
    async delete() {},
  };
  return { state, client };
}

const comment = (id: string, text: string, at: Date, extra: Partial<NetworkComment> = {}): NetworkComment => ({
  id,
  parentId: null,
  authorId: `user-${id}`,
  authorName: `Person ${id}`,
  authorHandle: `@person${id}`,
  text,
  createdAt: at,
  permalink: null,
  fromAccount: false,
  ...extra,
});

function staff(workspaceId: string, role: 'owner' | 'admin' | 'member' | 'reviewer', userId = crypto.randomUUID()): Actor {
  return { kind: 'staff', workspaceId, homeWorkspaceId: workspaceId, scopes: SCOPES, userId, role };
}

/** A workspace with a demo Instagram account, a post published there `hoursAgo`, and a network in the test's hands. */
async function instagramPost(hoursAgo: number) {
  const w = await createWorkspaceWithKey();
  const conn = await createSandboxConnection(w.workspace.id, { platform: 'instagram' });
  const at = new Date(Date.now() - hoursAgo * HOUR);
  const { post, target } = await publishedTarget(w.workspace.id, conn.id, 'instagram', at);
  return { ...w, conn, at, post, target, net: scriptedNetwork() };
}

describe('collection', () => {
  it('writes only new comments, updates an edit and a deletion in place, threads replies and recognises our own', async () => {
    const { conn, at, target, net, ...w } = await instagramPost(3);
    net.state.comments = [
      comment('c1', 'Do you ship to Canada?', new Date(at.getTime() + 5 * MINUTE)),
      comment('c2', 'Love it', new Date(at.getTime() + 6 * MINUTE)),
      comment('c3', 'Same question!', new Date(at.getTime() + 7 * MINUTE), { parentId: 'c1' }),
      comment('c4', 'Yes we do', new Date(at.getTime() + 8 * MINUTE), { parentId: 'c3', fromAccount: true }),
    ];
    const first = await collectConnectionComments(conn.id, { client: net.client });
    expect(first).toMatchObject({ ok: true, posts: 1, inserted: 4, updated: 0, deleted: 0 });
    const rows = await db.inboxItem.findMany({ where: { targetId: target.id }, orderBy: { externalId: 'asc' } });
    expect(rows.map((r) => [r.externalId, r.threadExternalId, r.status, r.fromAccount, r.source])).toEqual([
      ['c1', 'c1', 'open', false, 'instagram'],
      ['c2', 'c2', 'open', false, 'instagram'],
      ['c3', 'c1', 'open', false, 'instagram'],
      ['c4', 'c1', 'done', true, 'instagram'],
    ]);
    // c3 was answered by the account in the same read: answered at once.
    expect(rows.find((r) => r.externalId === 'c3')!.repliedAt).toBeInstanceOf(Date);
    expect(rows.find((r) => r.externalId === 'c1')!.repliedAt).toBeNull();
    // Each new comment from someone else is an event (webhooks, notifications); ours is not.
    const events = await db.outboxEvent.findMany({ where: { workspaceId: w.workspace.id, type: 'comment.received' } });
    expect(events.map((e) => (e.data as { externalId: string }).externalId).sort()).toEqual(['c1', 'c2', 'c3']);

    // Read again with nothing new: nothing written (the schedule says it is not due either).
    expect(await collectConnectionComments(conn.id, { client: net.client, targetIds: [target.id] })).toMatchObject({ inserted: 0, updated: 0, deleted: 0 });

    // c2 edited on the network, c3 deleted: the same rows change, nothing is duplicated.
    net.state.comments = [net.state.comments[0]!, { ...net.state.comments[1]!, text: 'Love it, ordered two' }, net.state.comments[3]!];
    expect(await collectConnectionComments(conn.id, { client: net.client, targetIds: [target.id] })).toMatchObject({ inserted: 0, updated: 1, deleted: 1 });
    const after = new Map((await db.inboxItem.findMany({ where: { targetId: target.id } })).map((r) => [r.externalId, r]));
    expect(after.size).toBe(4);
    expect(after.get('c2')).toMatchObject({ text: 'Love it, ordered two', editedAt: expect.any(Date), deletedAt: null });
    expect(after.get('c3')!.deletedAt).toBeInstanceOf(Date);

    // Hidden from Herald, read again from a network that does not report hiding: still hidden.
    await db.inboxItem.updateMany({ where: { targetId: target.id, externalId: 'c1' }, data: { hidden: true } });
    await collectConnectionComments(conn.id, { client: net.client, targetIds: [target.id] });
    expect((await db.inboxItem.findFirstOrThrow({ where: { targetId: target.id, externalId: 'c1' } })).hidden).toBe(true);
    // One that does report it (shown again on the network) is believed.
    net.state.comments[0] = { ...net.state.comments[0]!, hidden: false };
    await collectConnectionComments(conn.id, { client: net.client, targetIds: [target.id] });
    expect((await db.inboxItem.findFirstOrThrow({ where: { targetId: target.id, externalId: 'c1' } })).hidden).toBe(false);

    // An incomplete read (a network that pages only so far back) never marks anything deleted.
    net.state.complete = false;
    net.state.comments = [];
    expect(await collectConnectionComments(conn.id, { client: net.client, targetIds: [target.id] })).toMatchObject({ deleted: 0 });
  });

  it('a comment with a NUL character or a broken surrogate is stored as PostgreSQL can hold it, and the read goes on', async () => {
    const { conn, at, target, net, ...w } = await instagramPost(3);
    // JSON carries both ("\u0000", a lone "\ud83d"); PostgreSQL's text and jsonb take neither.
    net.state.comments = [
      comment('n1', 'Is this\u0000 vegan?', new Date(at.getTime() + 5 * MINUTE)),
      comment('n2', 'Looks great \ud83d', new Date(at.getTime() + 6 * MINUTE), { authorName: 'Zoë \udc00' }),
      comment('n3', 'Where is the shop?', new Date(at.getTime() + 7 * MINUTE)),
    ];
    expect(await collectConnectionComments(conn.id, { client: net.client })).toMatchObject({ ok: true, inserted: 3 });
    const rows = await db.inboxItem.findMany({ where: { targetId: target.id }, orderBy: { externalId: 'asc' } });
    expect(rows.map((r) => [r.externalId, r.text, r.authorName])).toEqual([
      ['n1', 'Is this vegan?', 'Person n1'],
      ['n2', 'Looks great \ufffd', 'Zoë \ufffd'],
      ['n3', 'Where is the shop?', 'Person n3'],
    ]);
    const events = await db.outboxEvent.findMany({ where: { workspaceId: w.workspace.id, type: 'comment.received' } });
    expect(events.map((e) => (e.data as { text: string }).text).sort()).toEqual(['Is this vegan?', 'Looks great \ufffd', 'Where is the shop?']);
    // Read again unchanged: not taken for an edit.
    expect(await collectConnectionComments(conn.id, { client: net.client, targetIds: [target.id] })).toMatchObject({ inserted: 0, updated: 0 });
  });

  it('a refused token marks the account inactive and tells the team; a network failure is recorded and backed off', async () => {
    const w = await createWorkspaceWithKey();
    const expired = await createSandboxConnection(w.workspace.id, { platform: 'facebook', behaviour: 'expired' });
    await publishedTarget(w.workspace.id, expired.id, 'facebook', new Date(Date.now() - HOUR));
    const result = await collectConnectionComments(expired.id);
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('Session has expired') });
    expect(await db.connection.findUniqueOrThrow({ where: { id: expired.id } })).toMatchObject({
      status: 'inactive',
      commentsError: expect.stringContaining('Session has expired'),
    });
    expect(await db.outboxEvent.count({ where: { workspaceId: w.workspace.id, type: 'connection.error' } })).toBe(1);

    const down = await createSandboxConnection(w.workspace.id, { platform: 'instagram' });
    await publishedTarget(w.workspace.id, down.id, 'instagram', new Date(Date.now() - HOUR));
    const net = scriptedNetwork();
    net.state.fail = new PlatformError('(#4) Application request limit reached', { status: 429 });
    expect(await collectConnectionComments(down.id, { client: net.client })).toMatchObject({ ok: false, error: '(#4) Application request limit reached' });
    const row = await db.connection.findUniqueOrThrow({ where: { id: down.id } });
    expect(row).toMatchObject({ status: 'active', commentsError: '(#4) Application request limit reached' });
    // The sweep leaves it alone for a while; the next read succeeds.
    const swept = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "Connection" WHERE id = ${down.id}::uuid AND "commentsErrorAt" IS NOT NULL`;
    expect(Number(swept[0]!.n)).toBe(1);
    net.state.fail = null;
    expect(await collectConnectionComments(down.id, { client: net.client })).toMatchObject({ ok: true });
    expect((await db.connection.findUniqueOrThrow({ where: { id: down.id } })).commentsError).toBeNull();
  });

  it('the sweep on the job runner reads due demo posts by age: demo comments arrive, and a young post notifies the team', async () => {
    const w = await createWorkspaceWithKey();
    const conn = await createSandboxConnection(w.workspace.id, { platform: 'bluesky' });
    const young = await publishedTarget(w.workspace.id, conn.id, 'bluesky', new Date(Date.now() - 3 * HOUR));
    // A TikTok demo account mirrors TikTok: no comments to read, never due.
    const tiktok = await createSandboxConnection(w.workspace.id, { platform: 'tiktok' });
    await publishedTarget(w.workspace.id, tiktok.id, 'tiktok', new Date(Date.now() - 3 * HOUR));
    const swept = await sweepDueComments();
    expect(swept.connections).toBeGreaterThanOrEqual(1);
    const items = await (async () => {
      for (let i = 0; i < 200; i++) {
        const rows = await db.inboxItem.findMany({ where: { targetId: young.target.id } });
        if (rows.length) return rows;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('no demo comments collected');
    })();
    expect(items.every((i) => i.source === 'sandbox')).toBe(true);
    expect(items.map((i) => i.text)).toContain('Do you ship to Canada? Would love to order a bag for my sister.');
    // Demo permalinks lead to Herald's page of the demo post, never to the network.
    expect(items.every((i) => !i.permalink || i.permalink.includes('/demo-post/bluesky/'))).toBe(true);
    expect(await db.inboxItem.count({ where: { connectionId: tiktok.id } })).toBe(0);
    const checked = await db.postTarget.findUniqueOrThrow({ where: { id: young.target.id } });
    expect(checked.commentsCheckedAt).toBeInstanceOf(Date);

    // The outbox drain turns the new comments into one notice for the post (it is younger than a day).
    let notes = await db.notification.findMany({ where: { workspaceId: w.workspace.id, kind: 'comment.received' } });
    for (let i = 0; i < 200 && !notes.length; i++) {
      await new Promise((r) => setTimeout(r, 50));
      notes = await db.notification.findMany({ where: { workspaceId: w.workspace.id, kind: 'comment.received' } });
    }
    expect(notes).toHaveLength(1);
    expect(notes[0]!.data).toMatchObject({ postId: young.post.id });
  });
});

describe('the routes', () => {
  async function inboxWith(n: number) {
    const { conn, at, post, target, net, ...w } = await instagramPost(2);
    net.state.comments = Array.from({ length: n }, (_, i) => comment(`k${i}`, `Question ${i}?`, new Date(at.getTime() + (i + 1) * MINUTE)));
    await collectConnectionComments(conn.id, { client: net.client });
    return { ...w, conn, post, target, net };
  }

  it('lists newest first a cursor page at a time, with filters and the unread count; another workspace sees none of it', async () => {
    const a = await inboxWith(5);
    const page1 = await api('GET', '/inbox?limit=2', { key: a.secret });
    expect(page1.status, page1.text).toBe(200);
    expect(page1.body.data.map((i) => i.text)).toEqual(['Question 4?', 'Question 3?']);
    expect(page1.body.unread).toBe(5);
    expect(page1.body.data[0]).toMatchObject({ platform: 'instagram', accountName: a.conn.accountName, postId: a.post.id, status: 'open', seen: false });
    const page2 = await api('GET', `/inbox?limit=2&cursor=${page1.body.nextCursor}`, { key: a.secret });
    const page3 = await api('GET', `/inbox?limit=2&cursor=${page2.body.nextCursor}`, { key: a.secret });
    expect([...page2.body.data, ...page3.body.data].map((i) => i.text)).toEqual(['Question 2?', 'Question 1?', 'Question 0?']);
    expect(page3.body.nextCursor).toBeNull();
    expect((await api('GET', '/inbox?cursor=nonsense', { key: a.secret })).body).toMatchObject({ error: { code: 'VALIDATION_FAILED', field: 'cursor' } });
    expect((await api('GET', '/inbox?platform=facebook', { key: a.secret })).body.data).toEqual([]);
    expect((await api('GET', `/inbox?postId=${a.post.id}&limit=100`, { key: a.secret })).body.data).toHaveLength(5);

    const other = await createWorkspaceWithKey();
    expect((await api('GET', '/inbox', { key: other.secret })).body).toMatchObject({ data: [], unread: 0 });
    const res = await api('GET', `/inbox/${page1.body.data[0]!.id}`, { key: other.secret });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: { code: 'INBOX_ITEM_NOT_FOUND' } });
    const reply = await api('POST', `/inbox/${page1.body.data[0]!.id}/reply`, { key: other.secret, body: { text: 'Hi' } });
    expect(reply.status).toBe(404);
  });

  it('reads one item with its post, conversation and what the network allows; marks it read, done and assigned', async () => {
    const a = await inboxWith(1);
    const [item] = (await api('GET', '/inbox', { key: a.secret })).body.data;
    const one = await api('GET', `/inbox/${item!.id}`, { key: a.secret });
    expect(one.status).toBe(200);
    expect(one.body.data.post).toMatchObject({ id: a.post.id, content: a.post.content });
    expect(one.body.data.thread.map((t) => t.id)).toEqual([item!.id]);
    // Instagram offers reply, hide and delete, not like (docs/inbox.md).
    expect(one.body.data.actions).toMatchObject({ reply: { offered: true }, hide: { offered: true }, delete: { offered: true }, like: { offered: false } });
    expect(one.body.data.actions.like.reason).toContain('Instagram');
    expect(one.body.data.replyLimit.maxChars).toBeGreaterThan(0);

    const done = await api('PATCH', `/inbox/${item!.id}`, { key: a.secret, body: { status: 'done', seen: true } });
    expect(done.body.data).toMatchObject({ status: 'done', seen: true });
    expect((await api('GET', '/inbox', { key: a.secret })).body).toMatchObject({ data: [], unread: 0 });
    expect((await api('GET', '/inbox?status=done', { key: a.secret })).body.data).toHaveLength(1);

    const stranger = await db.user.create({ data: { email: `${uniq('u')}@example.com` } });
    const refused = await api('PATCH', `/inbox/${item!.id}`, { key: a.secret, body: { assigneeId: stranger.id } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: { code: 'VALIDATION_FAILED', field: 'assigneeId' } });
    await db.membership.create({ data: { userId: stranger.id, workspaceId: a.workspace.id, role: 'member' } });
    expect((await api('PATCH', `/inbox/${item!.id}`, { key: a.secret, body: { assigneeId: stranger.id } })).body.data.assigneeId).toBe(stranger.id);
    expect((await api('GET', `/inbox?status=all&assignee=${stranger.id}`, { key: a.secret })).body.data).toHaveLength(1);
    expect((await api('GET', '/inbox?status=all&assignee=none', { key: a.secret })).body.data).toHaveLength(0);
  });

  it('a reply goes out once per Idempotency-Key, is recognised as ours when read back, and a refusal comes back in the network’s words', async () => {
    const a = await inboxWith(1);
    const [item] = (await api('GET', '/inbox', { key: a.secret })).body.data;
    const headers = { 'idempotency-key': uniq('reply') };
    const sent = await api('POST', `/inbox/${item!.id}/reply`, { key: a.secret, body: { text: 'Yes, we ship to Canada!' }, headers });
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({ fromAccount: true, text: 'Yes, we ship to Canada!', reply: { state: 'sent', inReplyToId: item!.id } });
    expect(sent.body.data.permalink).toContain('instagram');
    const again = await api('POST', `/inbox/${item!.id}/reply`, { key: a.secret, body: { text: 'Yes, we ship to Canada!' }, headers });
    expect(again.body.data.id).toBe(sent.body.data.id);
    expect(await db.inboxItem.count({ where: { inReplyToId: item!.id } })).toBe(1);
    // The demo account sent it (the scripted network stood in only for reading).
    expect(await db.inboxItem.findUniqueOrThrow({ where: { id: item!.id } })).toMatchObject({ status: 'done', repliedAt: expect.any(Date) });
    const event = await db.outboxEvent.findFirst({ where: { workspaceId: a.workspace.id, type: 'comment.replied' } });
    expect(event!.data).toMatchObject({ itemId: sent.body.data.id, inReplyToId: item!.id, externalId: sent.body.data.externalId });

    // Read back from the network: the same row, ours, not a new item.
    a.net.state.comments.push(comment(sent.body.data.externalId!, 'Yes, we ship to Canada!', new Date(), { parentId: 'k0', fromAccount: true }));
    expect(await collectConnectionComments(a.conn.id, { client: a.net.client, targetIds: [a.target.id] })).toMatchObject({ inserted: 0 });
    const thread = (await api('GET', `/inbox/${item!.id}`, { key: a.secret })).body.data.thread;
    expect(thread.map((t) => [t.text, t.fromAccount])).toEqual([
      ['Question 0?', false],
      ['Yes, we ship to Canada!', true],
    ]);

    // Too long, counted the network's way.
    const long = await api('POST', `/inbox/${item!.id}/reply`, { key: a.secret, body: { text: 'x'.repeat(2_201) } });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ error: { code: 'CONTENT_TOO_LONG', field: 'text' } });

    // The network refuses: its words, and nothing is left behind.
    const actor: Actor = { kind: 'apiKey', workspaceId: a.workspace.id, homeWorkspaceId: a.workspace.id, scopes: SCOPES };
    a.net.state.fail = new PlatformError('(#100) The comment has been deleted', { status: 400 });
    await expect(replyToItem(actor, item!.id, 'Still there?', { client: a.net.client })).rejects.toMatchObject({
      code: 'PLATFORM_REFUSED',
      message: '(#100) The comment has been deleted',
    });
    expect(await db.inboxItem.count({ where: { inReplyToId: item!.id } })).toBe(1);
  });

  it('hide and delete where the network allows them; like refused with the network’s reason; a reviewer’s key cannot reply', async () => {
    const a = await inboxWith(2);
    const [first, second] = (await api('GET', '/inbox', { key: a.secret })).body.data;
    const hidden = await api('POST', `/inbox/${first!.id}/hide`, { key: a.secret, body: { hidden: true } });
    expect(hidden.body.data.hidden).toBe(true);
    const like = await api('POST', `/inbox/${first!.id}/like`, { key: a.secret, body: {} });
    expect(like.status).toBe(409);
    expect(like.body).toMatchObject({ error: { code: 'ACTION_NOT_OFFERED', message: expect.stringContaining('Instagram') } });
    const deleted = await api('POST', `/inbox/${second!.id}/delete`, { key: a.secret, body: {} });
    expect(deleted.body.data.deletedAt).not.toBeNull();
    expect((await api('POST', `/inbox/${second!.id}/reply`, { key: a.secret, body: { text: 'Hi' } })).body).toMatchObject({
      error: { code: 'ACTION_NOT_OFFERED', message: 'It was deleted on the network' },
    });

    const reviewer = await createKey(a.workspace.id, { scopes: ['posts:read', 'connections:read', 'analytics:read'] });
    const refused = await api('POST', `/inbox/${first!.id}/reply`, { key: reviewer.secret, body: { text: 'Hi' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'SCOPE_MISSING' } });
    expect((await api('GET', '/inbox?status=all', { key: reviewer.secret })).status).toBe(200);
  });

  it('with reply approval on, a member’s reply waits, then goes out when approved; an owner answers directly', async () => {
    const a = await inboxWith(2);
    await db.workspace.update({ where: { id: a.workspace.id }, data: { requireReplyApproval: true } });
    const [first, second] = (await api('GET', '/inbox', { key: a.secret })).body.data;
    const waiting = await api('POST', `/inbox/${first!.id}/reply`, { key: a.secret, body: { text: 'We open at 9' } });
    expect(waiting.status).toBe(201);
    expect(waiting.body.data.reply).toMatchObject({ state: 'pending_approval' });
    expect(waiting.body.warnings).toEqual([expect.objectContaining({ code: 'APPROVAL_REQUIRED' })]);
    expect(waiting.body.data.externalId).toBeNull();

    const member = staff(a.workspace.id, 'member');
    await expect(approveReply(member, waiting.body.data.id)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const owner = staff(a.workspace.id, 'owner');
    const approved = await approveReply(owner, waiting.body.data.id);
    expect(approved).toMatchObject({ reply: { state: 'sent' }, externalId: expect.any(String) });
    await expect(approveReply(owner, waiting.body.data.id)).rejects.toMatchObject({ code: 'INBOX_ITEM_NOT_FOUND' });

    const second1 = await replyToItem(member, second!.id, 'Maybe');
    expect(second1.pendingApproval).toBe(true);
    expect((await rejectReply(owner, second1.reply.id, 'Not our tone')).reply).toMatchObject({ state: 'rejected', error: 'Not our tone' });
    const direct = await replyToItem(owner, second!.id, 'Yes, 9 to 5');
    expect(direct).toMatchObject({ pendingApproval: false, reply: { reply: { state: 'sent' } } });
  });

  it('from an agency, scope=agency lists its clients’ items too, and the tool endpoint’s scope rules are the API’s', async () => {
    const agency = await createWorkspace();
    const agencyKey = await createKey(agency.id);
    const client = await createWorkspace({ managedById: agency.id });
    const conn = await createSandboxConnection(client.id, { platform: 'facebook' });
    await publishedTarget(client.id, conn.id, 'facebook', new Date(Date.now() - HOUR));
    const net = scriptedNetwork('facebook');
    net.state.comments = [comment('f1', 'Open today?', new Date(Date.now() - 30 * MINUTE))];
    await collectConnectionComments(conn.id, { client: net.client });
    expect((await api('GET', '/inbox', { key: agencyKey.secret })).body.data).toEqual([]);
    const all = await api('GET', '/inbox?scope=agency', { key: agencyKey.secret });
    expect(all.body.data.map((i) => [i.text, i.workspaceId])).toEqual([['Open today?', client.id]]);
    expect((await api('GET', `/inbox?scope=agency&workspaceId=${agency.id}`, { key: agencyKey.secret })).body.data).toEqual([]);
    // The agency acts on its client's item directly.
    expect((await api('GET', `/inbox/${all.body.data[0]!.id}`, { key: agencyKey.secret })).status).toBe(200);
  });
});
