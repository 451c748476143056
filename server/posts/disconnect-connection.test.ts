// Disconnecting an account from the app: the warning's list of posts, what happens to their
// targets, the account row kept for history and revived by a reconnect; and the Clients
// screen's per-client health and approvals.
import { beforeAll, afterAll, describe, expect, it, vi } from 'vitest';
import { listClientSummaries } from '@/server/app/client-summaries';
import { db } from '@/server/db/client';
import { createRequestContext } from '@/server/trpc/context';
import { createCaller } from '@/server/root';
import { HEADERS } from '@/server/shared/headers';
import { createSandboxConnection, createWorkspace } from '@/server/testing/fixtures';
import { inMinutes, publishingWorkspace } from '@/server/testing/posts-fixtures';
import { usePublicApi } from '@/server/testing/public-api';

const api = usePublicApi();
beforeAll(() => vi.stubEnv('SANDBOX_LATENCY_MS', '1'));
afterAll(() => vi.unstubAllEnvs());

async function memberOf(workspaceId: string, role: string) {
  const user = await db.user.create({ data: { email: `u-${crypto.randomUUID()}@example.com` } });
  await db.membership.create({ data: { userId: user.id, workspaceId, role } });
  return (selected?: string) =>
    createCaller(createRequestContext({ transport: 'trpc', headers: new Headers(selected ? { [HEADERS.workspace]: selected } : {}), staffUserId: user.id }));
}

describe('disconnecting an account', () => {
  it('warns with the draft and scheduled posts that target it; removes it from shared posts and cancels sole ones', async () => {
    const w = await publishingWorkspace();
    const as = (await memberOf(w.workspace.id, 'owner'))();
    const li = w.ok.linkedin.id;
    const post = (body: Record<string, unknown>) => api('POST', '/posts', { key: w.secret, body }).then((r) => r.body.data.id as string);
    const shared = await post({ content: 'both', connectionIds: [li, w.ok.twitter.id], scheduledAt: inMinutes(60) });
    const sole = await post({ content: 'only linkedin', connectionIds: [li], scheduledAt: inMinutes(90) });
    const draft = await post({ content: 'draft', connectionIds: [li, w.ok.facebook.id], variants: { linkedin: { content: 'draft, longer for LinkedIn' } } });
    const elsewhere = await post({ content: 'not on linkedin', connectionIds: [w.ok.twitter.id], scheduledAt: inMinutes(30) });
    const done = await post({ content: 'published', connectionIds: [li] });
    await api('POST', `/posts/${done}/publish`, { key: w.secret });

    const usage = (await as.connections.usage({ id: li })).data.posts;
    expect(usage.map((p) => [p.id, p.onlyTarget])).toEqual(
      expect.arrayContaining([
        [shared, false],
        [sole, true],
        [draft, false],
      ]),
    );
    expect(usage.map((p) => p.id)).not.toContain(elsewhere);
    expect(usage.map((p) => p.id)).not.toContain(done);

    const result = (await as.connections.disconnect({ id: li })).data;
    expect(result).toEqual({ targetsRemoved: 2, postsCancelled: [sole] });

    const read = async (id: string) => (await api('GET', `/posts/${id}`, { key: w.secret })).body.data;
    expect((await read(shared)).targets.map((t: { connectionId: string }) => t.connectionId)).toEqual([w.ok.twitter.id]);
    expect((await read(shared)).platforms).toEqual(['twitter']);
    expect((await read(shared)).status).toBe('scheduled');
    expect((await read(draft)).platforms).toEqual(['facebook']);
    // The post says what its targets are: accounts, and no variant for a platform it left.
    expect((await read(shared)).connectionIds).toEqual([w.ok.twitter.id]);
    expect((await read(draft)).connectionIds).toEqual([w.ok.facebook.id]);
    expect((await read(draft)).variants).toBeNull();
    // …so the post rules accept the next edit.
    expect((await api('PATCH', `/posts/${draft}`, { key: w.secret, body: { content: 'draft, edited' } })).status).toBe(200);
    expect((await read(sole)).status).toBe('cancelled');
    // Delivered history still points at the account, which stays listed as disconnected.
    expect((await read(done)).targets[0].connectionId).toBe(li);
    const row = (await as.connections.list()).data.find((c) => c.id === li)!;
    expect(row).toMatchObject({ status: 'inactive', tokenHealth: 'expired', lastError: expect.stringMatching(/Disconnected/) });
    expect((await db.connection.findUniqueOrThrow({ where: { id: li } })).accessToken).toBeNull();
    // New posts cannot target it until it is reconnected.
    const refused = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [li] } });
    expect(refused.body.error.code).toBe('CONNECTION_EXPIRED');
  });

  it('needs workspaces:manage; members see the warning but may not disconnect', async () => {
    const w = await publishingWorkspace();
    const member = (await memberOf(w.workspace.id, 'member'))();
    expect((await member.connections.usage({ id: w.ok.linkedin.id })).data.posts).toEqual([]);
    await expect(member.connections.disconnect({ id: w.ok.linkedin.id })).rejects.toThrow(/workspaces:manage/);
  });

  it('never reaches another workspace’s account', async () => {
    const a = await publishingWorkspace();
    const b = await publishingWorkspace();
    const as = (await memberOf(a.workspace.id, 'owner'))();
    await expect(as.connections.disconnect({ id: b.ok.linkedin.id })).rejects.toMatchObject({ cause: { code: 'CONNECTION_NOT_FOUND' } });
    await expect(as.connections.usage({ id: b.ok.linkedin.id })).rejects.toMatchObject({ cause: { code: 'CONNECTION_NOT_FOUND' } });
    await expect(as.connections.disconnect({ id: 'nope' })).rejects.toMatchObject({ cause: { code: 'CONNECTION_NOT_FOUND' } });
    expect((await db.connection.findUniqueOrThrow({ where: { id: b.ok.linkedin.id } })).status).toBe('active');
  });
});

describe('app.clients', () => {
  it('counts each client’s accounts by token health and its posts waiting for approval; only this agency’s clients', async () => {
    const agency = await createWorkspace({ name: 'Agency' });
    const client = await createWorkspace({ name: 'Client', managedById: agency.id, requireApproval: true });
    const other = await createWorkspace({ name: 'Other', managedById: (await createWorkspace()).id });
    await createSandboxConnection(client.id);
    await createSandboxConnection(client.id, { behaviour: 'expired' });
    const soon = await createSandboxConnection(client.id);
    await db.connection.update({ where: { id: soon.id }, data: { tokenExpiresAt: new Date(Date.now() + 86_400_000) } });
    const conn = await createSandboxConnection(client.id, { platform: 'twitter' });
    const owner = await memberOf(agency.id, 'owner');
    await owner(client.id).posts.create({ content: 'pending', connectionIds: [conn.id], scheduledAt: inMinutes(60) });

    const list = (await owner().app.clients()).data;
    expect(list.map((c) => c.id)).toEqual([client.id]);
    expect(list[0]).toMatchObject({ name: 'Client', health: { valid: 2, expiring_soon: 1, expired: 1, unknown: 0 }, pendingApprovals: 1 });
    expect((await listClientSummaries(other.managedById!)).map((c) => c.id)).toEqual([other.id]);
    await expect((await memberOf(agency.id, 'member'))().app.clients()).rejects.toThrow(/workspaces:manage/);
  });
});
