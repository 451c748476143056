// Drafted replies and response times against PostgreSQL, over real HTTP: a draft is stored
// with who drafted it, checked against the network's limit, never sent by itself; a member
// sends it (edited) through the one reply path, once, and it is marked sent; a refusal leaves
// it pending; discarded drafts stay listed; another workspace's item is not found. Response
// times: the median time to first reply and the share within the workspace's target on seeded
// items with a moved `now`, the setting validated, and the figure in the client report.
import { PDFParse } from 'pdf-parse';
import { describe, expect, it } from 'vitest';
import type { Actor } from '@/server/auth/actor';
import { SCOPES } from '@/server/auth/scopes';
import { db } from '@/server/db/client';
import type { CommentsClient } from '@/server/platforms/comments';
import { PlatformError } from '@/server/platforms/publisher';
import { useClientLinkApi } from '@/server/testing/client-link-api';
import { createKey, createSandboxConnection, createWorkspaceWithKey, uniq } from '@/server/testing/fixtures';
import { publishedTarget } from '@/server/testing/posts-fixtures';
import { replyToItem } from './act-on-inbox';
import { collectConnectionComments } from './collect-comments';
import { responseTimes } from './response-times';

const { api, raw, origin } = useClientLinkApi();
const HOUR = 3_600_000;
/** A kind with nothing written in the period. */
const NONE = { answered: 0, unanswered: 0, medianMinutes: null, withinTarget: null };
const MINUTE = 60_000;

/** A network in the test's hands: one comment to read, and every reply sent to it. */
function scriptedNetwork() {
  const state = { replies: [] as { commentId: string | null; text: string }[], fail: null as Error | null };
  const client: CommentsClient = {
    source: 'instagram',
    async readComments() {
      return {
        ok: true,
        complete: true,
        comments: [
          {
            id: 'q1',
            parentId: null,
            authorId: 'user-q1',
            authorName: 'Maya',
            authorHandle: '@maya',
            text: 'Do you ship to Canada?',
            createdAt: new Date(Date.now() - HOUR),
            permalink: null,
            fromAccount: false,
          },
        ],
      };
    },
    async reply(_c, target, text) {
      if (state.fail) throw state.fail;
      state.replies.push({ commentId: target.commentId, text });
      return { id: `reply-${state.replies.length}`, permalink: null };
    },
  };
  return { state, client };
}

async function inboxWithQuestion() {
  const w = await createWorkspaceWithKey();
  const conn = await createSandboxConnection(w.workspace.id, { platform: 'instagram' });
  await publishedTarget(w.workspace.id, conn.id, 'instagram', new Date(Date.now() - 2 * HOUR), uniq('sbx-post'));
  const net = scriptedNetwork();
  await collectConnectionComments(conn.id, { client: net.client });
  const item = await db.inboxItem.findFirstOrThrow({ where: { connectionId: conn.id, externalId: 'q1' } });
  return { ...w, conn, net, item };
}

const member = (workspaceId: string): Actor => ({
  kind: 'staff',
  workspaceId,
  homeWorkspaceId: workspaceId,
  scopes: SCOPES,
  userId: crypto.randomUUID(),
  role: 'member',
});

describe('drafted replies', () => {
  it('a draft is stored with its author and never sent by itself; a member sends it once, edited, and it is marked sent', async () => {
    const a = await inboxWithQuestion();
    const drafted = await api('POST', `/inbox/${a.item.id}/drafts`, { key: a.secret, body: { text: 'Yes, we ship to Canada.' } });
    expect(drafted.status, drafted.text).toBe(201);
    expect(drafted.body.data).toMatchObject({
      itemId: a.item.id,
      text: 'Yes, we ship to Canada.',
      status: 'pending',
      authoredBy: { name: expect.stringMatching(/API key/), userId: null, assistant: false },
      sentReplyId: null,
    });
    // Nothing went out and no reply row exists: a draft is only text.
    expect(a.net.state.replies).toEqual([]);
    expect(await db.inboxItem.count({ where: { inReplyToId: a.item.id } })).toBe(0);
    expect(await db.inboxItem.findUniqueOrThrow({ where: { id: a.item.id } })).toMatchObject({ repliedAt: null, status: 'open' });

    // Over the network's limit, counted as a reply's is (Instagram: 2,200 characters).
    const long = await api('POST', `/inbox/${a.item.id}/drafts`, { key: a.secret, body: { text: 'x'.repeat(2_201) } });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ error: { code: 'CONTENT_TOO_LONG', field: 'text' } });

    // The item shows who drafted what.
    const read = await api('GET', `/inbox/${a.item.id}`, { key: a.secret });
    expect(read.body.data.drafts).toEqual([expect.objectContaining({ id: drafted.body.data.id, status: 'pending', text: 'Yes, we ship to Canada.' })]);

    // A member sends it, edited, through the reply path: once on the network, the draft marked sent.
    const sent = await replyToItem(member(a.workspace.id), a.item.id, 'Yes, we ship to Canada: 5 to 7 days.', {
      client: a.net.client,
      draftId: drafted.body.data.id,
    });
    expect(sent.pendingApproval).toBe(false);
    expect(a.net.state.replies).toEqual([{ commentId: 'q1', text: 'Yes, we ship to Canada: 5 to 7 days.' }]);
    expect(await db.inboxDraft.findUniqueOrThrow({ where: { id: drafted.body.data.id } })).toMatchObject({ status: 'sent', sentReplyId: sent.reply.id });
    // Sent drafts cannot be sent again.
    await expect(replyToItem(member(a.workspace.id), a.item.id, 'Again', { client: a.net.client, draftId: drafted.body.data.id })).rejects.toMatchObject({
      code: 'INBOX_DRAFT_NOT_FOUND',
    });
    expect(a.net.state.replies).toHaveLength(1);

    // The network refuses: nothing went out, the draft waits again.
    const second = (await api('POST', `/inbox/${a.item.id}/drafts`, { key: a.secret, body: { text: 'Anything else?' } })).body.data;
    a.net.state.fail = new PlatformError('(#100) The comment has been deleted', { status: 400 });
    await expect(replyToItem(member(a.workspace.id), a.item.id, 'Anything else?', { client: a.net.client, draftId: second.id })).rejects.toMatchObject({
      code: 'PLATFORM_REFUSED',
    });
    expect(await db.inboxDraft.findUniqueOrThrow({ where: { id: second.id } })).toMatchObject({ status: 'pending', sentReplyId: null });

    // Over HTTP with draftId (the demo account sends it): the draft is marked sent with the reply.
    const viaHttp = await api('POST', `/inbox/${a.item.id}/reply`, { key: a.secret, body: { text: 'Anything else we can help with?', draftId: second.id } });
    expect(viaHttp.status, viaHttp.text).toBe(201);
    expect(await db.inboxDraft.findUniqueOrThrow({ where: { id: second.id } })).toMatchObject({ status: 'sent', sentReplyId: viaHttp.body.data.id });
  });

  it('discarding keeps the draft, marked; another workspace finds neither item nor draft; a reader cannot draft', async () => {
    const a = await inboxWithQuestion();
    const draft = (await api('POST', `/inbox/${a.item.id}/drafts`, { key: a.secret, body: { text: 'Maybe' } })).body.data;

    const other = await createWorkspaceWithKey();
    const foreign = await api('POST', `/inbox/${a.item.id}/drafts`, { key: other.secret, body: { text: 'Hi' } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ error: { code: 'INBOX_ITEM_NOT_FOUND' } });
    expect((await api('DELETE', `/inbox/${a.item.id}/drafts/${draft.id}`, { key: other.secret })).body).toMatchObject({
      error: { code: 'INBOX_ITEM_NOT_FOUND' },
    });

    const reader = await createKey(a.workspace.id, { scopes: ['posts:read'] });
    const refused = await api('POST', `/inbox/${a.item.id}/drafts`, { key: reader.secret, body: { text: 'Hi' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'SCOPE_MISSING' } });

    const discarded = await api('DELETE', `/inbox/${a.item.id}/drafts/${draft.id}`, { key: a.secret });
    expect(discarded.status, discarded.text).toBe(200);
    expect(discarded.body.data).toMatchObject({ id: draft.id, status: 'discarded' });
    const again = await api('DELETE', `/inbox/${a.item.id}/drafts/${draft.id}`, { key: a.secret });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ error: { code: 'INBOX_DRAFT_NOT_FOUND' } });
    const send = await api('POST', `/inbox/${a.item.id}/reply`, { key: a.secret, body: { text: 'Maybe', draftId: draft.id } });
    expect(send.body).toMatchObject({ error: { code: 'INBOX_DRAFT_NOT_FOUND', field: 'draftId' } });
    expect(await db.inboxItem.count({ where: { inReplyToId: a.item.id } })).toBe(0);
    expect((await api('GET', `/inbox/${a.item.id}`, { key: a.secret })).body.data.drafts).toEqual([expect.objectContaining({ status: 'discarded' })]);
  });
});

/** Comments written at `at` (minutes after `base`), answered `after` minutes later, or not. */
async function seed(workspaceId: string, rows: { at: Date; after?: number; fromAccount?: boolean; deleted?: boolean }[]): Promise<{ connectionId: string }> {
  const conn = await createSandboxConnection(workspaceId, { platform: 'facebook' });
  const { post, target } = await publishedTarget(workspaceId, conn.id, 'facebook', new Date('2026-02-01T00:00:00Z'), uniq('sbx-post'));
  await db.inboxItem.createMany({
    data: rows.map((r, i) => ({
      workspaceId,
      connectionId: conn.id,
      targetId: target.id,
      postId: post.id,
      platform: 'facebook',
      externalId: `c${i}`,
      authorName: `Person ${i}`,
      text: `Comment ${i}`,
      networkCreatedAt: r.at,
      repliedAt: r.after === undefined ? null : new Date(r.at.getTime() + r.after * MINUTE),
      fromAccount: r.fromAccount ?? false,
      deletedAt: r.deleted ? r.at : null,
      source: 'sandbox',
      collectedAt: r.at,
    })),
  });
  return { connectionId: conn.id };
}

const at = (iso: string) => new Date(iso);
const MARCH = [
  { at: at('2026-03-02T10:00:00Z'), after: 30 },
  { at: at('2026-03-03T10:00:00Z'), after: 90 },
  { at: at('2026-03-04T10:00:00Z'), after: 300 },
  { at: at('2026-03-05T10:00:00Z') }, // unanswered, long overdue
  { at: at('2026-03-10T11:00:00Z') }, // unanswered, an hour old at NOW: not late yet
  { at: at('2026-03-03T11:00:00Z'), after: 1, fromAccount: true }, // the account's own
  { at: at('2026-03-03T12:00:00Z'), deleted: true }, // deleted before anyone answered
  { at: at('2026-02-20T10:00:00Z'), after: 5 }, // before the period
];
const NOW = at('2026-03-10T12:00:00Z');

describe('response times', () => {
  it('the median time to first reply and the share within the target, over the period’s comments from others; the target is a setting', async () => {
    const w = await createWorkspaceWithKey();
    await db.workspace.update({ where: { id: w.workspace.id }, data: { timeZone: 'UTC' } });
    await seed(w.workspace.id, MARCH);
    expect(await responseTimes(w.workspace.id, { from: '2026-03-01', to: '2026-03-10' }, NOW)).toEqual({
      from: '2026-03-01',
      to: '2026-03-10',
      answered: 3,
      unanswered: 2,
      medianMinutes: 90,
      withinTarget: 0.5, // 30 and 90 minutes of 3 answered + 1 overdue
      targetMinutes: 240,
      byKind: { comment: { answered: 3, unanswered: 2, medianMinutes: 90, withinTarget: 0.5 }, message: NONE, review: NONE },
    });
    // A week later the young one is overdue too.
    expect((await responseTimes(w.workspace.id, { from: '2026-03-01', to: '2026-03-10' }, new Date(NOW.getTime() + 7 * 24 * HOUR))).withinTarget).toBe(0.4);

    // The target is the workspace's, validated.
    for (const bad of [2, 20_000, 90.5, '60']) {
      const res = await api('PATCH', '/settings', { key: w.secret, body: { responseTargetMinutes: bad } });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(JSON.stringify(res.body)).toContain('responseTargetMinutes');
    }
    expect((await api('GET', '/settings', { key: w.secret })).body.data.responseTargetMinutes).toBe(240);
    const patched = await api('PATCH', '/settings', { key: w.secret, body: { responseTargetMinutes: 360 } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data.responseTargetMinutes).toBe(360);
    expect(await responseTimes(w.workspace.id, { from: '2026-03-01', to: '2026-03-10' }, NOW)).toMatchObject({ withinTarget: 0.75, targetMinutes: 360 });

    // Over HTTP (now is today: every March comment is overdue), one day, an empty period, another workspace.
    const all = await api('GET', '/inbox/response-times?from=2026-03-01&to=2026-03-10', { key: w.secret });
    expect(all.status, all.text).toBe(200);
    expect(all.body.data).toEqual({
      from: '2026-03-01',
      to: '2026-03-10',
      answered: 3,
      unanswered: 2,
      medianMinutes: 90,
      withinTarget: 0.6,
      targetMinutes: 360,
      byKind: { comment: { answered: 3, unanswered: 2, medianMinutes: 90, withinTarget: 0.6 }, message: NONE, review: NONE },
    });
    expect((await api('GET', '/inbox/response-times?from=2026-03-04&to=2026-03-04', { key: w.secret })).body.data).toMatchObject({
      answered: 1,
      unanswered: 0,
      medianMinutes: 300,
      withinTarget: 1,
    });
    expect((await api('GET', '/inbox/response-times?from=2025-03-01&to=2025-03-10', { key: w.secret })).body.data).toMatchObject({
      answered: 0,
      unanswered: 0,
      medianMinutes: null,
      withinTarget: null,
    });
    expect((await api('GET', '/inbox/response-times?from=2026-03-10&to=2026-03-01', { key: w.secret })).status).toBe(400);
    const other = await createWorkspaceWithKey();
    expect((await api('GET', '/inbox/response-times?from=2026-03-01&to=2026-03-10', { key: other.secret })).body.data).toMatchObject({
      answered: 0,
      unanswered: 0,
    });
  });

  it('the client report shows them, on the page’s data and in the PDF', async () => {
    const agency = await createWorkspaceWithKey();
    const clientId = (await api('POST', '/workspaces', { key: agency.secret, body: { name: 'Client Co' } })).body.data.id as string;
    await db.workspace.update({ where: { id: clientId }, data: { timeZone: 'UTC' } });
    await seed(clientId, MARCH);
    const link = await api('POST', `/workspaces/${clientId}/report-url`, { key: agency.secret, body: { from: '2026-03-01', to: '2026-03-05' } });
    expect(link.status, link.text).toBe(201);
    const token = String(link.body.data.url).split('/').at(-1)!;
    const page = await raw('GET', `/public/report/${token}`);
    expect(page.body.data.responseTimes).toEqual({
      from: '2026-03-01',
      to: '2026-03-05',
      answered: 3,
      unanswered: 1,
      medianMinutes: 90,
      withinTarget: 0.5,
      targetMinutes: 240,
      byKind: { comment: { answered: 3, unanswered: 1, medianMinutes: 90, withinTarget: 0.5 }, message: NONE, review: NONE },
    });
    const pdf = await fetch(`${origin()}/public/report/${token}/pdf`, { headers: { 'x-forwarded-for': '10.9.1.1' } });
    expect(pdf.status).toBe(200);
    const parser = new PDFParse({ data: new Uint8Array(await pdf.arrayBuffer()) });
    try {
      const text = (await parser.getText()).text.replace(/\s+/g, ' ');
      expect(text).toContain('Replies to comments, messages and reviews');
      expect(text).toContain('3 of 4 comments, messages and reviews answered: median time to first reply 1 h 30 min; 50% answered within 4 h.');
    } finally {
      await parser.destroy();
    }
  });
});
