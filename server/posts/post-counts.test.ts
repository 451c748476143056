// The counters behind GET /posts `total` agree with a direct count after every kind of change.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { listPosts } from '@/server/posts/read-posts';
import { inMinutes, publishingWorkspace } from '@/server/testing/posts-fixtures';
import { usePublicApi } from '@/server/testing/public-api';

const api = usePublicApi();
beforeAll(() => {
  vi.stubEnv('SANDBOX_LATENCY_MS', '5');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

const STATUSES = [undefined, 'draft', 'scheduled', 'published', 'partial_published', 'failed', 'cancelled'] as const;
const PLATFORMS = [undefined, 'linkedin', 'twitter', 'facebook'] as const;

async function expectCountersMatch(workspaceId: string) {
  for (const status of STATUSES) {
    for (const platform of PLATFORMS) {
      const direct = await db.post.count({ where: { workspaceId, ...(status ? { status } : {}), ...(platform ? { platforms: { has: platform } } : {}) } });
      const { total } = await listPosts(workspaceId, { page: 1, limit: 1, status, platform });
      expect(total, `${status ?? 'any'}/${platform ?? 'any'}`).toBe(direct);
    }
  }
}

describe('post counters', () => {
  it('follow creates, edits, cancels, publishes and deletes', async () => {
    const w = await publishingWorkspace();
    const key = { key: w.secret };
    const ids: string[] = [];
    for (const connectionIds of [[w.ok.linkedin.id], [w.ok.twitter.id, w.ok.linkedin.id], [w.rejects.id], [w.ok.facebook.id]]) {
      ids.push((await api('POST', '/posts', { ...key, body: { content: 'c', connectionIds } })).body.data.id);
    }
    await expectCountersMatch(w.workspace.id);

    await api('PATCH', `/posts/${ids[0]}`, { ...key, body: { scheduledAt: inMinutes(30) } });
    await api('PATCH', `/posts/${ids[0]}`, { ...key, body: { connectionIds: [w.ok.facebook.id, w.ok.twitter.id] } });
    await api('PATCH', `/posts/${ids[3]}`, { ...key, body: { content: 'only the text' } });
    await api('DELETE', `/posts/${ids[3]}`, key);
    await api('POST', `/posts/${ids[1]}/publish`, key);
    await api('POST', `/posts/${ids[2]}/publish`, key);
    await expectCountersMatch(w.workspace.id);

    // Bulk statements (one trigger run for many rows) and deletes count too.
    await db.post.updateMany({ where: { workspaceId: w.workspace.id, status: 'cancelled' }, data: { status: 'draft' } });
    await db.postTarget.deleteMany({ where: { postId: ids[2] } });
    await db.post.delete({ where: { id: ids[2] } });
    await expectCountersMatch(w.workspace.id);
  });

  it('never counts another workspace’s posts', async () => {
    const a = await publishingWorkspace();
    const b = await publishingWorkspace();
    await api('POST', '/posts', { key: a.secret, body: { content: 'a', connectionIds: [a.ok.linkedin.id] } });
    expect((await listPosts(b.workspace.id, { page: 1, limit: 50 })).total).toBe(0);
  });
});
