// The operations behind the app's posts screens, through the same procedures as the API:
// alerts (field and filter), retry of failed targets, bulk shift/spread/cancel, duplicates.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { createCaller } from '@/server/root';
import { createRequestContext } from '@/server/trpc/context';
import { usePublicApi } from '@/server/testing/public-api';
import { inMinutes, publishingWorkspace } from '@/server/testing/posts-fixtures';
import { postAlert, alertSql, OVERDUE_AFTER_MS } from './post-alerts';
import { HEADERS } from '@/server/shared/headers';

const api = usePublicApi();
beforeAll(() => vi.stubEnv('SANDBOX_LATENCY_MS', '1'));
afterAll(() => vi.unstubAllEnvs());

async function staff(workspaceId: string, role = 'member') {
  const user = await db.user.create({ data: { email: `${role}-${crypto.randomUUID()}@example.com`, name: role } });
  await db.membership.create({ data: { userId: user.id, workspaceId, role } });
  const headers = new Headers({ [HEADERS.workspace]: workspaceId });
  return { user, caller: createCaller(createRequestContext({ transport: 'trpc', headers, staffUserId: user.id })) };
}

/** As if the delivery job never ran: the post's time is moved into the past behind the services' back. */
async function backdate(id: string, msAgo: number) {
  await db.post.update({ where: { id }, data: { scheduledAt: new Date(Date.now() - msAgo) } });
}

describe('alerts: overdue and stuck posts', () => {
  it('flags an overdue scheduled post with its reason and action, in the field and the filter', async () => {
    const w = await publishingWorkspace();
    const late = await api('POST', '/posts', { key: w.secret, body: { content: 'late', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(30) } });
    const onTime = await api('POST', '/posts', { key: w.secret, body: { content: 'fine', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(30) } });
    await backdate(late.body.data.id, OVERDUE_AFTER_MS + 60_000);

    const read = await api('GET', `/posts/${late.body.data.id}`, { key: w.secret });
    expect(read.body.data.alert).toMatchObject({ kind: 'overdue', action: 'publish_now' });
    expect((await api('GET', `/posts/${onTime.body.data.id}`, { key: w.secret })).body.data.alert).toBeNull();

    const list = await api('GET', '/posts?alert=any', { key: w.secret });
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([late.body.data.id]);
    expect(list.body.total).toBe(1);
    expect((await api('GET', '/posts?alert=stuck', { key: w.secret })).body.data).toEqual([]);
    expect((await api('GET', '/posts?alert=sometimes', { key: w.secret })).status).toBe(400);

    // The one action resolves it.
    const published = await api('POST', `/posts/${late.body.data.id}/publish`, { key: w.secret });
    expect(published.body.data).toMatchObject({ status: 'published', alert: null });
  });

  it('says a late post waiting for approval needs a review, and a lapsed delivery is stuck', async () => {
    const w = await publishingWorkspace({ requireApproval: true });
    const pending = await api('POST', '/posts', { key: w.secret, body: { content: 'waiting', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(30) } });
    await backdate(pending.body.data.id, OVERDUE_AFTER_MS + 1000);
    expect((await api('GET', `/posts/${pending.body.data.id}`, { key: w.secret })).body.data.alert).toMatchObject({ kind: 'overdue', action: 'review' });

    const stuck = await api('POST', '/posts', { key: w.secret, body: { content: 'stuck', connectionIds: [w.ok.linkedin.id] } });
    await db.post.update({
      where: { id: stuck.body.data.id },
      data: { status: 'publishing', deliveryOwner: 'gone', deliveryLeaseUntil: new Date(Date.now() - 1000) },
    });
    const list = await api('GET', '/posts?alert=stuck', { key: w.secret });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ id: stuck.body.data.id, alert: { kind: 'stuck', action: 'publish_now' } });
    // publish_now takes the dead delivery over and settles it.
    const resumed = await api('POST', `/posts/${stuck.body.data.id}/publish`, { key: w.secret });
    expect(resumed.body.data.status).toBe('published');
  });

  it('the SQL condition and the field agree on every status and time', async () => {
    const w = await publishingWorkspace();
    const now = new Date();
    const cases = [
      { status: 'scheduled', scheduledAt: new Date(now.getTime() - OVERDUE_AFTER_MS - 5000), approvalStatus: 'none' },
      { status: 'scheduled', scheduledAt: new Date(now.getTime() - OVERDUE_AFTER_MS + 5000), approvalStatus: 'none' },
      { status: 'scheduled', scheduledAt: new Date(now.getTime() - 3_600_000), approvalStatus: 'rejected' },
      { status: 'draft', scheduledAt: null, approvalStatus: 'none' },
      { status: 'failed', scheduledAt: new Date(now.getTime() - 3_600_000), approvalStatus: 'none' },
      { status: 'publishing', scheduledAt: null, approvalStatus: 'none', deliveryLeaseUntil: new Date(now.getTime() + 60_000) },
      { status: 'publishing', scheduledAt: null, approvalStatus: 'none', deliveryLeaseUntil: new Date(now.getTime() - 1) },
      { status: 'publishing', scheduledAt: null, approvalStatus: 'none', deliveryLeaseUntil: null },
    ];
    const ids: string[] = [];
    for (const c of cases) {
      const p = await db.post.create({ data: { workspaceId: w.workspace.id, content: 'x', platforms: [], connectionIds: [], ...c } });
      ids.push(p.id);
    }
    const flagged = await db.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Post" WHERE "workspaceId" = ${w.workspace.id}::uuid AND ${alertSql('any', now)}`;
    const rows = await db.post.findMany({ where: { id: { in: ids } } });
    const byField = rows.filter((r) => postAlert(r, now) !== null).map((r) => r.id);
    expect(flagged.map((r) => r.id).sort()).toEqual(byField.sort());
    expect(byField).toHaveLength(4);
  });
});

describe('rows written without their list columns', () => {
  it('read as empty lists in the list and the post (the columns are nullable)', async () => {
    const w = await publishingWorkspace();
    const row = await db.post.create({ data: { workspaceId: w.workspace.id, content: 'seeded', status: 'draft' } });
    expect((await db.$queryRaw<{ m: unknown }[]>`SELECT "mediaUrls" AS m FROM "Post" WHERE "id" = ${row.id}::uuid`)[0]!.m).toBeNull();
    const list = await api('GET', '/posts', { key: w.secret });
    expect(list.status).toBe(200);
    expect(list.body.data[0]).toMatchObject({ id: row.id, mediaUrls: [], platforms: [], connectionIds: [] });
    expect((await api('GET', `/posts/${row.id}`, { key: w.secret })).status).toBe(200);
  });
});

describe('retry of failed targets', () => {
  it('delivers only the failed targets of a partly published post again, verbatim errors kept until then', async () => {
    const w = await publishingWorkspace();
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'retry me', connectionIds: [w.ok.twitter.id, w.rejects.id] } });
    const first = await api('POST', `/posts/${created.body.data.id}/publish`, { key: w.secret });
    expect(first.body.data.status).toBe('partial_published');
    const failed = first.body.data.targets.find((t: { connectionId: string }) => t.connectionId === w.rejects.id);
    expect(failed!.error).toMatch(/DUPLICATE_POST/);

    // Still refused by the platform: the post stays partly published, the landed target untouched.
    const again = await api('POST', `/posts/${created.body.data.id}/retry`, { key: w.secret });
    expect(again.status).toBe(201);
    expect(again.body.data.status).toBe('partial_published');
    const landed = again.body.data.targets.find((t: { connectionId: string }) => t.connectionId === w.ok.twitter.id);
    expect(landed).toMatchObject({ status: 'published', attempts: 1 });

    // The account is fixed: the retry lands and the post is published.
    await db.connection.update({ where: { id: w.rejects.id }, data: { sandboxBehavior: 'ok' } });
    const fixed = await api('POST', `/posts/${created.body.data.id}/retry`, { key: w.secret });
    expect(fixed.body.data.status).toBe('published');
    expect(fixed.body.data.targets.find((t: { connectionId: string }) => t.connectionId === w.rejects.id)).toMatchObject({ status: 'published', attempts: 3 });

    // Nothing left to retry.
    const none = await api('POST', `/posts/${created.body.data.id}/retry`, { key: w.secret });
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('POST_NOT_EDITABLE');
  });
});

describe('bulk actions', () => {
  it('shifts a week of posts by a day, emitting post.scheduled, and refuses what cannot move', async () => {
    const w = await publishingWorkspace();
    const { caller } = await staff(w.workspace.id);
    const times = [inMinutes(60), inMinutes(60 * 24), inMinutes(60 * 24 * 3)];
    const posts = [];
    for (const t of times)
      posts.push((await api('POST', '/posts', { key: w.secret, body: { content: t, connectionIds: [w.ok.linkedin.id], scheduledAt: t } })).body.data);
    const outside = (
      await api('POST', '/posts', { key: w.secret, body: { content: 'later', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(60 * 24 * 10) } })
    ).body.data;

    const res = await caller.posts.bulkShift({ selection: { range: { from: new Date().toISOString(), to: inMinutes(60 * 24 * 7) } }, byMinutes: 24 * 60 });
    expect(res.data.done.sort()).toEqual(posts.map((p) => p.id).sort());
    for (const [i, p] of posts.entries()) {
      const row = await db.post.findUniqueOrThrow({ where: { id: p.id } });
      expect(row.scheduledAt!.getTime()).toBe(new Date(times[i]!).getTime() + 24 * 3_600_000);
    }
    expect((await db.post.findUniqueOrThrow({ where: { id: outside.id } })).scheduledAt!.toISOString()).toBe(outside.scheduledAt);
    expect(await db.outboxEvent.count({ where: { type: 'post.scheduled', workspaceId: w.workspace.id } })).toBe(4 + 3);

    // Moving into the past is refused per post by the same rule as PATCH.
    const back = await caller.posts.bulkShift({ selection: { ids: [posts[0]!.id, outside.id] }, byMinutes: -3 * 24 * 60 });
    expect(back.data.done).toEqual([outside.id]);
    expect(back.data.refused).toEqual([{ id: posts[0]!.id, code: 'SCHEDULED_TIME_IN_PAST', message: expect.any(String) }]);
  });

  it('spreads posts over slots in time order and cancels a selection', async () => {
    const w = await publishingWorkspace();
    const { caller } = await staff(w.workspace.id);
    const a = (await api('POST', '/posts', { key: w.secret, body: { content: 'a', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(10) } })).body.data;
    const b = (await api('POST', '/posts', { key: w.secret, body: { content: 'b', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(11) } })).body.data;
    const c = (await api('POST', '/posts', { key: w.secret, body: { content: 'c', connectionIds: [w.ok.linkedin.id] } })).body.data;
    const start = new Date(Date.now() + 2 * 3_600_000);
    start.setUTCSeconds(0, 0);
    const res = await caller.posts.bulkSpread({ selection: { ids: [b.id, a.id] }, start: start.toISOString(), everyMinutes: 90 });
    expect(res.data.done).toEqual([a.id, b.id]);
    expect((await db.post.findUniqueOrThrow({ where: { id: a.id } })).scheduledAt!.getTime()).toBe(start.getTime());
    expect((await db.post.findUniqueOrThrow({ where: { id: b.id } })).scheduledAt!.getTime()).toBe(start.getTime() + 90 * 60_000);

    await api('POST', `/posts/${c.id}/publish`, { key: w.secret });
    const cancel = await caller.posts.bulkCancel({ selection: { ids: [a.id, b.id, c.id] } });
    expect(cancel.data.done.sort()).toEqual([a.id, b.id].sort());
    expect(cancel.data.refused).toMatchObject([{ id: c.id, code: 'POST_NOT_EDITABLE' }]);
    await expect(caller.posts.bulkCancel({ selection: {} })).rejects.toThrow();
  });
});

describe('duplicates', () => {
  it('finds the same text to the same account within the window and keeps one', async () => {
    const w = await publishingWorkspace();
    const { caller } = await staff(w.workspace.id);
    const post = (content: string, ids: string[], at?: string, variants?: unknown) =>
      api('POST', '/posts', {
        key: w.secret,
        body: { content, connectionIds: ids, ...(at ? { scheduledAt: at } : {}), ...(variants ? { variants } : {}) },
      }).then((r) => r.body.data);
    const one = await post('Launch day!', [w.ok.linkedin.id, w.ok.twitter.id], inMinutes(60));
    const two = await post('  launch   DAY! ', [w.ok.linkedin.id], inMinutes(120));
    // Same text to another account, or a day and more later, or a variant that differs: not duplicates.
    await post('Launch day!', [w.ok.facebook.id], inMinutes(60));
    await post('Launch day!', [w.ok.linkedin.id], inMinutes(60 * 30));
    await post('Launch day!', [w.ok.threads.id], inMinutes(60), { threads: { content: 'Different' } });
    // The variant is what the account receives: the same variant under different shared texts is a duplicate.
    const v1 = await post('First text', [w.ok.threads.id], inMinutes(60), { threads: { content: 'Same clip caption' } });
    const v2 = await post('Second text', [w.ok.threads.id], inMinutes(61), { threads: { content: 'same clip caption' } });

    const found = await caller.posts.duplicates();
    expect(found.data).toHaveLength(2);
    expect(found.data.find((g) => g.platforms[0] === 'threads')!.posts.map((p) => p.id)).toEqual([v1.id, v2.id]);
    const group = found.data.find((g) => g.platforms[0] === 'linkedin')!;
    expect(group.posts.map((p) => p.id)).toEqual([one.id, two.id]);
    expect(group.connectionIds).toEqual([w.ok.linkedin.id]);

    const res = await caller.posts.resolveDuplicates({ keepId: one.id, groupKey: group.key });
    expect(res.data).toEqual({ kept: one.id, cancelled: [two.id] });
    expect((await db.post.findUniqueOrThrow({ where: { id: two.id } })).status).toBe('cancelled');
    expect((await caller.posts.duplicates()).data.map((g) => g.platforms)).toEqual([['threads']]);
    await expect(caller.posts.resolveDuplicates({ keepId: one.id, groupKey: group.key })).rejects.toThrow(/no longer duplicates/);
  });
});
