// The app's own procedures and the staff rules behind them: roles, the shell (switcher and
// counts), the workspace time zone, the dashboard, and notifications from the outbox.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { createCaller } from '@/server/root';
import { createRequestContext } from '@/server/trpc/context';
import { HEADERS } from '@/server/shared/headers';
import { drainOutbox } from '@/server/events/drain-outbox';
import { recordEvent } from '@/server/events/record-event';
import { outboxConsumers } from '@/server/runtime/job-handlers';
import { usePublicApi } from '@/server/testing/public-api';
import { createWorkspace } from '@/server/testing/fixtures';
import { inMinutes, publishingWorkspace } from '@/server/testing/posts-fixtures';
import { ROLE_SCOPES } from '@/server/auth/roles';
import { loadDashboard } from './dashboard';

const api = usePublicApi();
beforeAll(() => vi.stubEnv('SANDBOX_LATENCY_MS', '1'));
afterAll(() => vi.unstubAllEnvs());

async function member(workspaceId: string, role: string) {
  const user = await db.user.create({ data: { email: `${role}-${crypto.randomUUID()}@example.com`, name: role } });
  await db.membership.create({ data: { userId: user.id, workspaceId, role } });
  return user;
}
const callerFor = (userId: string, workspaceId?: string) =>
  createCaller(createRequestContext({ transport: 'trpc', headers: new Headers(workspaceId ? { [HEADERS.workspace]: workspaceId } : {}), staffUserId: userId }));

describe('roles', () => {
  it('a reviewer reads and approves, and may do nothing else', async () => {
    const w = await publishingWorkspace({ requireApproval: true });
    const reviewer = callerFor((await member(w.workspace.id, 'reviewer')).id);
    const pending = await api('POST', '/posts', {
      key: w.secret,
      body: { content: 'check me', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(60) },
    });
    const other = await api('POST', '/posts', { key: w.secret, body: { content: 'and me', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(60) } });

    const queue = (await reviewer.posts.pendingApprovals()).data;
    expect(queue).toHaveLength(2);
    // Who asked: here the API key, by name.
    const keyName = (await db.apiKey.findFirstOrThrow({ where: { workspaceId: w.workspace.id } })).name;
    expect(queue.map((p) => p.requestedBy)).toEqual([`API key “${keyName}”`, `API key “${keyName}”`]);
    expect(queue.every((p) => p.requestedAt !== null)).toBe(true);
    // A member asking from the app is named; a later reschedule of the same pending post keeps the first request.
    const author = await member(w.workspace.id, 'member');
    await db.user.update({ where: { id: author.id }, data: { name: 'Dana Reyes' } });
    const own = await callerFor(author.id).posts.create({ content: 'mine', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(90) });
    await callerFor(author.id).posts.update({ id: own.data.id, scheduledAt: inMinutes(120) });
    const mine = (await reviewer.posts.pendingApprovals()).data.find((p) => p.id === own.data.id)!;
    expect(mine.requestedBy).toBe('Dana Reyes');
    await reviewer.posts.reject({ id: own.data.id, reason: 'Not now' });
    // The post's page names who asked, who decided and why.
    expect((await callerFor(author.id).posts.approval({ id: own.data.id })).data).toMatchObject({
      approvalStatus: 'rejected',
      requestedBy: 'Dana Reyes',
      decidedBy: 'reviewer',
      rejectionReason: 'Not now',
      decidedAt: expect.any(String),
    });
    const stranger = await publishingWorkspace();
    await expect(callerFor((await member(stranger.workspace.id, 'owner')).id).posts.approval({ id: own.data.id })).rejects.toThrow(
      'No post with that id in this workspace',
    );
    expect((await reviewer.posts.approve({ id: pending.body.data.id })).data.approvalStatus).toBe('approved');
    expect((await reviewer.posts.reject({ id: other.body.data.id, reason: 'Off brand' })).data.approvalStatus).toBe('rejected');

    await expect(reviewer.posts.create({ content: 'mine', connectionIds: [w.ok.linkedin.id] })).rejects.toMatchObject({
      message: expect.stringMatching(/posts:write/),
    });
    await expect(reviewer.posts.update({ id: pending.body.data.id, content: 'edited' })).rejects.toThrow(/posts:write/);
    await expect(reviewer.posts.cancel({ id: pending.body.data.id })).rejects.toThrow(/posts:write/);
    await expect(reviewer.posts.publish({ id: pending.body.data.id })).rejects.toThrow(/posts:write/);
    await expect(reviewer.posts.bulkCancel({ selection: { ids: [pending.body.data.id] } })).rejects.toThrow(/posts:write/);
    await expect(reviewer.media.uploadUrl({ contentType: 'image/png', bytes: 10 } as never)).rejects.toThrow(/media:write/);
    expect((await db.post.findUniqueOrThrow({ where: { id: pending.body.data.id } })).status).toBe('scheduled');
  });

  it('a member publishes but does not manage workspaces or webhooks; owners and admins do', async () => {
    const w = await publishingWorkspace();
    const m = callerFor((await member(w.workspace.id, 'member')).id);
    expect((await m.posts.create({ content: 'by a member', connectionIds: [w.ok.linkedin.id] })).data.status).toBe('draft');
    await expect(m.workspaces.create({ name: 'Client' })).rejects.toThrow(/workspaces:manage/);
    await expect(m.webhooks.list()).rejects.toThrow(/webhooks:manage/);
    const admin = callerFor((await member(w.workspace.id, 'admin')).id);
    expect((await admin.workspaces.create({ name: 'Client of admin', timeZone: 'Asia/Tokyo' })).data.timeZone).toBe('Asia/Tokyo');
    expect(ROLE_SCOPES.owner).toEqual(ROLE_SCOPES.admin);
  });

  it('in a client workspace the agency role applies, and a direct membership counts when stronger', async () => {
    const agency = await createWorkspace({ name: 'Agency' });
    const client = await createWorkspace({ name: 'Client', managedById: agency.id });
    const user = await member(agency.id, 'reviewer');
    const shell = await callerFor(user.id, client.id).app.shell();
    expect(shell.data.current).toMatchObject({ id: client.id, role: 'reviewer' });
    await db.membership.create({ data: { userId: user.id, workspaceId: client.id, role: 'admin' } });
    expect((await callerFor(user.id, client.id).app.shell()).data.current.role).toBe('admin');
    expect((await callerFor(user.id).app.shell()).data.current).toMatchObject({ id: agency.id, role: 'reviewer' });
    const stranger = await createWorkspace({ name: 'Elsewhere' });
    await expect(callerFor(user.id, stranger.id).app.shell()).rejects.toThrow(/cannot act for that workspace/);
  });
});

describe('shell, time zone and dashboard', () => {
  it('lists the agency with its clients, the counts of the selected workspace, and its time zone', async () => {
    const w = await publishingWorkspace({ requireApproval: true });
    const owner = await member(w.workspace.id, 'owner');
    const client = await createWorkspace({ name: 'Acme', managedById: w.workspace.id });
    await api('POST', '/posts', { key: w.secret, body: { content: 'needs a look', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(60) } });
    const caller = callerFor(owner.id, w.workspace.id);
    const shell = (await caller.app.shell()).data;
    expect(shell.workspaces).toEqual([{ id: w.workspace.id, name: w.workspace.name, role: 'owner', clients: [{ id: client.id, name: 'Acme' }] }]);
    expect(shell.current).toMatchObject({ timeZone: 'UTC', role: 'owner' });
    expect(shell.counts.pendingApprovals).toBe(1);

    expect((await caller.settings.update({ timeZone: 'America/New_York' })).data.timeZone).toBe('America/New_York');
    await expect(caller.settings.update({ timeZone: 'Mars/Olympus' })).rejects.toThrow(/time zone/);
    expect((await caller.app.shell()).data.current.timeZone).toBe('America/New_York');
    expect((await callerFor(owner.id, client.id).app.shell()).data.counts.pendingApprovals).toBe(0);
  });

  it("builds today and this week in the workspace's time zone, with attention and health", async () => {
    const w = await publishingWorkspace();
    await db.workspace.update({ where: { id: w.workspace.id }, data: { timeZone: 'Pacific/Auckland' } });
    // 2026-03-10 20:30 UTC is 2026-03-11 09:30 in Auckland (UTC+13), a Wednesday.
    const now = new Date('2026-03-10T20:30:00Z');
    const at = (iso: string, status = 'scheduled') =>
      db.post.create({
        data: { workspaceId: w.workspace.id, content: iso, platforms: ['linkedin'], connectionIds: [w.ok.linkedin.id], status, scheduledAt: new Date(iso) },
      });
    const todayLocal = await at('2026-03-11T05:00:00Z'); // 18:00 on the 11th in Auckland
    await at('2026-03-10T10:00:00Z'); // 23:00 on the 10th: same week, not today
    await at('2026-03-15T12:00:00Z'); // Monday the 16th 01:00: next week
    const failedThisMorning = await at('2026-03-10T19:00:00Z', 'failed'); // 08:00 on the 11th
    const d = await loadDashboard(w.workspace.id, now);
    expect(d.today.from).toBe('2026-03-10T11:00:00.000Z');
    expect(d.today.posts.map((p) => p.id)).toEqual([failedThisMorning.id, todayLocal.id]);
    expect(d.week.from).toBe('2026-03-08T11:00:00.000Z');
    expect(d.week.posts).toHaveLength(3);
    expect(d.week.scheduled).toBe(2);
    // The post due 23:00 yesterday is overdue at `now`; the failed one needs attention too.
    expect(d.attention.map((p) => p.content).sort()).toEqual(['2026-03-10T10:00:00Z', '2026-03-10T19:00:00Z']);
    expect(d.connections.map((c) => c.tokenHealth)).toContain('expired');
    await db.postTarget.create({
      data: { postId: failedThisMorning.id, connectionId: w.ok.linkedin.id, platform: 'linkedin', status: 'failed', error: 'Rate limited' },
    });
    const again = await loadDashboard(w.workspace.id, now);
    expect(again.attention.find((p) => p.id === failedThisMorning.id)!.error).toBe('linkedin: Rate limited');
  });

  it('counts a post published with "Publish now" (no scheduled time) on the day it went out', async () => {
    const w = await publishingWorkspace();
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'right now', connectionIds: [w.ok.linkedin.id] } });
    const published = await api('POST', `/posts/${created.body.data.id}/publish`, { key: w.secret });
    expect(published.body.data).toMatchObject({ status: 'published', scheduledAt: null });
    const d = await loadDashboard(w.workspace.id);
    expect(d.week.published).toBe(1);
    expect(d.week.posts.map((p) => p.id)).toEqual([created.body.data.id]);
    expect(d.today.posts.map((p) => p.id)).toEqual([created.body.data.id]);
  });
});

describe('notifications', () => {
  it('approval requested, a failed post and an expired account become unread notices, read once marked', async () => {
    const w = await publishingWorkspace({ requireApproval: true });
    const caller = callerFor((await member(w.workspace.id, 'member')).id, w.workspace.id);
    await api('POST', '/posts', { key: w.secret, body: { content: 'Please approve this one', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(60) } });
    const failing = await api('POST', '/posts', { key: w.secret, body: { content: 'fails', connectionIds: [w.rejects.id, w.ok.twitter.id] } });
    await db.connection.update({ where: { id: w.ok.twitter.id }, data: { sandboxBehavior: 'expired' } });
    await api('POST', `/posts/${failing.body.data.id}/publish`, { key: w.secret });
    await drainOutbox({ consumers: outboxConsumers });

    const list = (await caller.notifications.list()).data;
    expect(list.unread).toBe(4);
    expect(list.items.map((n) => n.kind).sort()).toEqual(['approval.requested', 'connection.expired', 'post.failed', 'post.failed']);
    const approval = list.items.find((n) => n.kind === 'approval.requested')!;
    expect(approval.body).toContain('Please approve this one');
    // Networks by their names, not their ids.
    expect(list.items.find((n) => n.kind === 'post.failed' && n.title === 'A post failed on LinkedIn')!.body).toMatch(/DUPLICATE_POST/);
    expect(list.items.find((n) => n.kind === 'connection.expired')!.title).toMatch(/ on X \(Twitter\) needs reconnecting$/);
    expect((await caller.app.shell()).data.counts.unreadNotifications).toBe(4);

    expect((await caller.notifications.markRead({ ids: [approval.id] })).data.unread).toBe(3);
    expect((await caller.notifications.list({ unreadOnly: true, limit: 30 })).data.items.map((n) => n.id)).not.toContain(approval.id);
    expect((await caller.notifications.markRead({ all: true })).data.unread).toBe(0);
    // Another workspace's notices are not touched or seen.
    const other = await publishingWorkspace();
    await db.notification.create({ data: { workspaceId: other.workspace.id, kind: 'post.failed', title: 't', body: 'b' } });
    expect((await caller.notifications.list()).data.items).toHaveLength(4);
    expect((await caller.notifications.markRead({ all: true })).data.unread).toBe(0);
    expect(await db.notification.count({ where: { workspaceId: other.workspace.id, readAt: null } })).toBe(1);
  });

  it('a staged assistant action and a failed workflow run become notices that say what to look at', async () => {
    const w = await publishingWorkspace();
    const caller = callerFor((await member(w.workspace.id, 'member')).id, w.workspace.id);
    const actionId = crypto.randomUUID();
    const runId = crypto.randomUUID();
    await db.$transaction(async (tx) => {
      await recordEvent(tx, {
        workspaceId: w.workspace.id,
        type: 'proposal.staged',
        data: { actionId, toolName: 'posts_publish', title: 'Publish post “Spring sale” now' },
      });
      await recordEvent(tx, {
        workspaceId: w.workspace.id,
        type: 'workflow.run.failed',
        data: { workflowId: 'repurpose-post', runId, error: { code: 'POST_NOT_FOUND', message: 'No post with that id in this workspace' } },
      });
    });
    await drainOutbox({ consumers: outboxConsumers });
    const items = (await caller.notifications.list()).data.items;
    expect(items.find((n) => n.kind === 'proposal.staged')).toMatchObject({
      title: 'An assistant asks for confirmation',
      body: 'Publish post “Spring sale” now',
      data: { actionId, toolName: 'posts_publish' },
    });
    expect(items.find((n) => n.kind === 'workflow.failed')).toMatchObject({
      title: 'Workflow “Repurpose a post” failed',
      body: 'No post with that id in this workspace',
      data: { runId, workflowId: 'repurpose-post' },
    });
  });
});
