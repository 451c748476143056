// The client review link (Herald extension): POST /workspaces/{id}/review-url, the page data,
// approve and reject through the same approval services as members, revocation, throttling.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { useClientLinkApi } from '@/server/testing/client-link-api';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { eventsOf, inMinutes, readyMedia } from '@/server/testing/posts-fixtures';

const { api, raw } = useClientLinkApi();
afterEach(() => vi.unstubAllEnvs());

async function clientWithPendingPosts() {
  const agency = await createWorkspaceWithKey();
  const clientId = (await api('POST', '/workspaces', { key: agency.secret, body: { name: 'Client Co' } })).body.data.id;
  const key = (await api('POST', `/workspaces/${clientId}/api-keys`, { key: agency.secret, body: { name: 'client' } })).body.data.secret;
  const linkedin = await createSandboxConnection(clientId, { platform: 'linkedin' });
  const twitter = await createSandboxConnection(clientId, { platform: 'twitter' });
  const media = await readyMedia(clientId);
  const create = (content: string, extra: Record<string, unknown> = {}) =>
    api('POST', '/posts', {
      key,
      body: { content, connectionIds: [linkedin.id, twitter.id], scheduledAt: inMinutes(60), requireApproval: true, mediaIds: [media.id], ...extra },
    });
  const first = (await create('Spring launch: our new menu', { variants: { twitter: { content: 'Spring menu is here 🌱' } } })).body.data;
  const second = (await create('Behind the scenes at the bakery')).body.data;
  const notPending = (await api('POST', '/posts', { key, body: { content: 'No approval needed', connectionIds: [linkedin.id] } })).body.data;
  const link = await api('POST', `/workspaces/${clientId}/review-url`, { key: agency.secret, body: { brand: { name: 'Northwind' } } });
  expect(link.status).toBe(201);
  return { agency, clientId, key, first, second, notPending, linkedin, media, token: link.body.data.url.split('/').at(-1)! };
}

describe('POST /workspaces/{id}/review-url', () => {
  it('answers like connect-url, with a /review/ link; same rules on the body, scope and header', async () => {
    const { agency, clientId } = await clientWithPendingPosts();
    const res = await api('POST', `/workspaces/${clientId}/review-url`, { key: agency.secret, body: { expiresInDays: 30, rotate: true } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: { url: expect.stringMatching(/\/review\/[A-Za-z0-9_-]{43}$/), expiresAt: expect.any(String), rotated: true },
      warnings: [],
    });
    expect((await api('POST', `/workspaces/${clientId}/review-url`, { key: agency.secret, body: { expiresInDays: 91 } })).status).toBe(400);
    const other = await createWorkspaceWithKey();
    expect((await api('POST', `/workspaces/${clientId}/review-url`, { key: other.secret, body: {} })).body.error.code).toBe('WORKSPACE_NOT_FOUND');
  });
});

describe('GET /public/review/{token}', () => {
  it('lists the posts awaiting approval with a preview per platform, media and schedule', async () => {
    const { clientId, first, second, linkedin, media, token } = await clientWithPendingPosts();
    const res = await raw('GET', `/public/review/${token}`);
    expect(res.status).toBe(200);
    expect(res.body.data.workspace).toEqual({ id: clientId, name: 'Client Co', timeZone: 'UTC' });
    expect(res.body.data.brand).toEqual({ name: 'Northwind', logoUrl: null });
    expect(res.body.data.posts.map((p: { id: string }) => p.id)).toEqual([first.id, second.id]);
    const [post] = res.body.data.posts;
    expect(post).toMatchObject({ approvalStatus: 'pending', status: 'scheduled', scheduledAt: first.scheduledAt, media: [{ url: media.url, kind: 'image' }] });
    expect(post.previews).toEqual([
      {
        platform: 'linkedin',
        account: { displayName: linkedin.displayName, accountName: linkedin.accountName, avatarUrl: null },
        content: 'Spring launch: our new menu',
      },
      expect.objectContaining({ platform: 'twitter', content: 'Spring menu is here 🌱' }),
    ]);
  });
});

describe('approving and rejecting on the review link', () => {
  it('runs the approval services: post.approved names the link; a rejection keeps the comment; the API sees both', async () => {
    const { key, first, second, notPending, token } = await clientWithPendingPosts();
    const linkId = (await db.clientLink.findFirstOrThrow({ where: { kind: 'review', revokedAt: null, workspace: { posts: { some: { id: first.id } } } } })).id;

    const approved = await raw('POST', `/public/review/${token}/posts/${first.id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toEqual({ data: { id: first.id, approvalStatus: 'approved', status: 'scheduled' }, warnings: [] });
    expect((await eventsOf(first.id)).filter((e) => e.type === 'post.approved')).toEqual([
      { type: 'post.approved', data: { postId: first.id, approvedBy: `review-link:${linkId}` } },
    ]);
    expect((await db.post.findUniqueOrThrow({ where: { id: first.id } })).approvedBy).toBe(linkId);

    const noComment = await raw('POST', `/public/review/${token}/posts/${second.id}/reject`, { body: {} });
    expect(noComment.status).toBe(400);
    const rejected = await raw('POST', `/public/review/${token}/posts/${second.id}/reject`, { body: { comment: 'Please use the new logo' } });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.approvalStatus).toBe('rejected');
    expect(await db.post.findUniqueOrThrow({ where: { id: second.id } })).toMatchObject({ rejectedBy: linkId, rejectionReason: 'Please use the new logo' });

    expect((await api('GET', `/posts/${first.id}`, { key })).body.data.approvalStatus).toBe('approved');
    expect((await api('GET', `/posts/${second.id}`, { key })).body.data.approvalStatus).toBe('rejected');
    // Decided posts leave the page; a decided or unrelated post cannot be decided again.
    expect((await raw('GET', `/public/review/${token}`)).body.data.posts).toEqual([]);
    const again = await raw('POST', `/public/review/${token}/posts/${first.id}/approve`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('POST_NOT_EDITABLE');
    expect((await raw('POST', `/public/review/${token}/posts/${notPending.id}/approve`)).body.error.code).toBe('POST_NOT_EDITABLE');
  });

  it("tells the agency that sent the link what the client decided, in the decision's transaction", async () => {
    const { agency, clientId, first, second, token } = await clientWithPendingPosts();
    await raw('POST', `/public/review/${token}/posts/${first.id}/approve`);
    await raw('POST', `/public/review/${token}/posts/${second.id}/reject`, { body: { comment: 'Please use the new logo' } });
    const notices = await db.notification.findMany({ where: { workspaceId: agency.workspace.id }, orderBy: { createdAt: 'asc' } });
    expect(notices.map((n) => [n.kind, n.title])).toEqual([
      ['client.approved', 'Client Co approved a post'],
      ['client.rejected', 'Client Co sent a post back'],
    ]);
    expect(notices[1]!.body).toContain('Please use the new logo');
    expect(notices[0]!.data).toMatchObject({ postId: first.id, clientWorkspaceId: clientId });
    // The client's own workspace is not told of its own acts.
    expect(await db.notification.count({ where: { workspaceId: clientId, kind: { startsWith: 'client.' } } })).toBe(0);
  });

  it('cannot reach posts of another workspace', async () => {
    const mine = await clientWithPendingPosts();
    const theirs = await clientWithPendingPosts();
    const res = await raw('POST', `/public/review/${mine.token}/posts/${theirs.first.id}/approve`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('POST_NOT_FOUND');
    expect((await raw('POST', `/public/review/${mine.token}/posts/not-a-uuid/approve`)).body.error.code).toBe('POST_NOT_FOUND');
    expect((await db.post.findUniqueOrThrow({ where: { id: theirs.first.id } })).approvalStatus).toBe('pending');
  });

  it('is revoked by rotation and by detach, and answers 410 once expired', async () => {
    const { agency, clientId, first, token } = await clientWithPendingPosts();
    const rotated = (await api('POST', `/workspaces/${clientId}/review-url`, { key: agency.secret, body: { rotate: true } })).body.data.url.split('/').at(-1)!;
    for (const call of [raw('GET', `/public/review/${token}`), raw('POST', `/public/review/${token}/posts/${first.id}/approve`)]) {
      const res = await call;
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('CONNECT_TOKEN_INVALID');
    }
    await db.clientLink.updateMany({ where: { workspaceId: clientId, revokedAt: null }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect((await raw('GET', `/public/review/${rotated}`)).body.error.code).toBe('CONNECT_TOKEN_EXPIRED');
    await db.clientLink.updateMany({ where: { workspaceId: clientId, revokedAt: null }, data: { expiresAt: new Date(Date.now() + 86_400_000) } });
    expect((await raw('GET', `/public/review/${rotated}`)).status).toBe(200);
    await api('DELETE', `/workspaces/${clientId}`, { key: agency.secret });
    expect((await raw('POST', `/public/review/${rotated}/posts/${first.id}/approve`)).body.error.code).toBe('CONNECT_TOKEN_INVALID');
    expect((await db.post.findUniqueOrThrow({ where: { id: first.id } })).approvalStatus).toBe('pending');
  });

  it('is rate limited per link and per address', async () => {
    vi.stubEnv('CLIENT_LINK_RATE_LIMIT_PER_MINUTE', '3');
    const { token } = await clientWithPendingPosts();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await raw('GET', `/public/review/${token}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });
});
