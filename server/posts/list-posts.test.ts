import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { inMinutes, publishingWorkspace } from '@/server/testing/posts-fixtures';
import { usePublicApi } from '@/server/testing/public-api';

const api = usePublicApi();
beforeAll(() => {
  vi.stubEnv('SANDBOX_LATENCY_MS', '5');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe('GET /posts', () => {
  it('answers arrays for list columns a writer left NULL (a create that omits mediaUrls)', async () => {
    const w = await publishingWorkspace();
    const row = await db.post.create({
      data: { workspaceId: w.workspace.id, content: 'no media field', platforms: ['linkedin'], connectionIds: [w.ok.linkedin.id], status: 'draft' },
    });
    await db.$executeRaw`UPDATE "Post" SET "mediaUrls" = NULL WHERE "id" = ${row.id}::uuid`;
    const list = await api('GET', '/posts', { key: w.secret });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data[0]).toMatchObject({ id: row.id, mediaUrls: [] });
    const one = await api('GET', `/posts/${row.id}`, { key: w.secret });
    expect(one.status, one.text).toBe(200);
    expect(one.body.data.mediaUrls).toEqual([]);
  });

  it('lists newest first, paginated, without targets, with filters', async () => {
    const w = await publishingWorkspace();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const body = { content: `post ${i}`, connectionIds: [i % 2 ? w.ok.twitter.id : w.ok.linkedin.id], ...(i >= 3 ? { scheduledAt: inMinutes(10 * i) } : {}) };
      const res = await api('POST', '/posts', { key: w.secret, body });
      ids.push(res.body.data.id);
    }
    const all = await api('GET', '/posts', { key: w.secret });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, limit: 50, total: 5 });
    expect(all.body.data.map((p) => p.id)).toEqual([...ids].reverse());
    expect('targets' in all.body.data[0]!).toBe(false);

    const page2 = await api('GET', '/posts?page=2&limit=2', { key: w.secret });
    expect(page2.body).toMatchObject({ page: 2, limit: 2, total: 5 });
    expect(page2.body.data.map((p) => p.id)).toEqual([ids[2], ids[1]]);

    expect((await api('GET', '/posts?status=scheduled', { key: w.secret })).body.total).toBe(2);
    expect((await api('GET', '/posts?platform=twitter', { key: w.secret })).body.data.map((p) => p.id)).toEqual([ids[3], ids[1]]);
    const window = await api('GET', `/posts?from=${encodeURIComponent(inMinutes(35))}&to=${encodeURIComponent(inMinutes(45))}`, { key: w.secret });
    expect(window.body.data.map((p) => p.id)).toEqual([ids[4]]);
  });

  it('validates the query', async () => {
    const w = await publishingWorkspace();
    for (const q of ['page=0', 'limit=0', 'limit=201', 'status=done', 'platform=myspace', 'from=yesterday']) {
      const res = await api('GET', `/posts?${q}`, { key: w.secret });
      expect(res.status, q).toBe(400);
      expect(res.body.statusCode, q).toBe(400);
    }
    expect((await api('GET', '/posts?limit=200', { key: w.secret })).status).toBe(200);
  });

  it('shows the delivery log at GET /posts/{id}/targets', async () => {
    const w = await publishingWorkspace();
    const created = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.linkedin.id, w.rejects.id] } });
    await api('POST', `/posts/${created.body.data.id}/publish`, { key: w.secret });
    const res = await api('GET', `/posts/${created.body.data.id}/targets`, { key: w.secret });
    expect(res.status).toBe(200);
    expect(res.body.data.map((t) => t.status)).toEqual(['published', 'failed']);
    expect(await db.postTarget.count({ where: { postId: created.body.data.id } })).toBe(2);
  });

  it('requires posts:read', async () => {
    const w = await publishingWorkspace();
    const { createKey } = await import('@/server/testing/fixtures');
    const writeOnly = await createKey(w.workspace.id, { scopes: ['posts:write'] });
    expect((await api('GET', '/posts', { key: writeOnly.secret })).body.error.code).toBe('SCOPE_MISSING');
    const readOnly = await createKey(w.workspace.id, { scopes: ['posts:read'] });
    expect((await api('POST', '/posts', { key: readOnly.secret, body: { content: 'x', connectionIds: [w.ok.linkedin.id] } })).body.error.code).toBe(
      'SCOPE_MISSING',
    );
  });
});
