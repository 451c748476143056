import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { usePublicApi } from '@/server/testing/public-api';
import { eventsOf, inMinutes, publishingWorkspace } from '@/server/testing/posts-fixtures';

const api = usePublicApi();
beforeAll(() => {
  vi.stubEnv('SANDBOX_LATENCY_MS', '5');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

async function draft(w: Awaited<ReturnType<typeof publishingWorkspace>>, body: Record<string, unknown> = {}) {
  const res = await api('POST', '/posts', { key: w.secret, body: { content: 'Draft', connectionIds: [w.ok.linkedin.id], ...body } });
  expect(res.status).toBe(201);
  return res.body.data;
}

describe('PATCH /posts/{id}', () => {
  it('changes only the sent fields', async () => {
    const w = await publishingWorkspace();
    const p = await draft(w, { platformSettings: { linkedin: { visibility: 'PUBLIC' } } });
    const res = await api('PATCH', `/posts/${p.id}`, { key: w.secret, body: { content: 'Edited' } });
    expect(res.status).toBe(200);
    expect(res.body.warnings).toEqual([]);
    expect(res.body.data).toMatchObject({
      content: 'Edited',
      status: 'draft',
      connectionIds: p.connectionIds,
      platformSettings: { linkedin: { visibility: 'PUBLIC' } },
    });
    expect(res.body.data.targets).toHaveLength(1);
  });

  it('turns a draft given scheduledAt into a scheduled post and emits post.scheduled', async () => {
    const w = await publishingWorkspace();
    const p = await draft(w);
    const at = inMinutes(20);
    const res = await api('PATCH', `/posts/${p.id}`, { key: w.secret, body: { scheduledAt: at } });
    expect(res.body.data).toMatchObject({ status: 'scheduled', scheduledAt: at });
    expect((await eventsOf(p.id)).map((e) => e.type)).toEqual(['post.scheduled']);
  });

  it('reschedules with another post.scheduled, and unschedules with null', async () => {
    const w = await publishingWorkspace();
    const p = await draft(w, { scheduledAt: inMinutes(20) });
    const later = inMinutes(90);
    await api('PATCH', `/posts/${p.id}`, { key: w.secret, body: { scheduledAt: later } });
    const events = await eventsOf(p.id);
    expect(events.map((e) => e.type)).toEqual(['post.scheduled', 'post.scheduled']);
    expect(events[1]!.data.scheduledAt).toBe(later);
    // An edit that does not touch the time is not a reschedule.
    await api('PATCH', `/posts/${p.id}`, { key: w.secret, body: { content: 'new words' } });
    expect((await eventsOf(p.id)).length).toBe(2);
    const back = await api('PATCH', `/posts/${p.id}`, { key: w.secret, body: { scheduledAt: null } });
    expect(back.body.data).toMatchObject({ status: 'draft', scheduledAt: null });
  });

  it('applies the approval rule when a draft is scheduled', async () => {
    const w = await publishingWorkspace({ requireApproval: true });
    const p = await draft(w);
    const res = await api('PATCH', `/posts/${p.id}`, { key: w.secret, body: { scheduledAt: inMinutes(5) } });
    expect(res.body.data.approvalStatus).toBe('pending');
    expect(res.body.warnings.map((x) => x.code)).toEqual(['APPROVAL_REQUIRED']);
    expect((await eventsOf(p.id)).map((e) => e.type)).toEqual(['post.scheduled', 'post.approval_required']);
  });

  it('replaces targets when connectionIds change, and re-checks platform limits', async () => {
    const w = await publishingWorkspace();
    const p = await draft(w, { content: 'y'.repeat(300) });
    const refused = await api('PATCH', `/posts/${p.id}`, { key: w.secret, body: { connectionIds: [w.ok.twitter.id] } });
    expect(refused.body.error.code).toBe('CONTENT_TOO_LONG');
    const res = await api('PATCH', `/posts/${p.id}`, { key: w.secret, body: { connectionIds: [w.ok.facebook.id, w.ok.threads.id], content: 'fits' } });
    expect(res.status).toBe(200);
    expect(res.body.data.platforms).toEqual(['facebook', 'threads']);
    expect(res.body.data.targets.map((t) => t.connectionId)).toEqual([w.ok.facebook.id, w.ok.threads.id]);
  });

  it('refuses edits and cancels of publishing, published, partially published and cancelled posts', async () => {
    const w = await publishingWorkspace();
    for (const status of ['publishing', 'published', 'partial_published', 'cancelled']) {
      const p = await draft(w);
      await db.post.update({ where: { id: p.id }, data: { status } });
      const patch = await api('PATCH', `/posts/${p.id}`, { key: w.secret, body: { content: 'no' } });
      expect(patch.status, status).toBe(409);
      expect(patch.body.error.code).toBe('POST_NOT_EDITABLE');
      expect((await api('DELETE', `/posts/${p.id}`, { key: w.secret })).body.error.code).toBe('POST_NOT_EDITABLE');
    }
  });

  it('answers POST_NOT_FOUND for unknown ids', async () => {
    const w = await publishingWorkspace();
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await api('PATCH', `/posts/${id}`, { key: w.secret, body: { content: 'x' } });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('POST_NOT_FOUND');
    }
  });
});

describe('DELETE /posts/{id}', () => {
  it('cancels, keeps the row and answers 200 with the post', async () => {
    const w = await publishingWorkspace();
    const p = await draft(w, { scheduledAt: inMinutes(30) });
    const res = await api('DELETE', `/posts/${p.id}`, { key: w.secret });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: { id: p.id, status: 'cancelled' }, warnings: [] });
    expect(res.body.data.targets[0]).toMatchObject({ status: 'pending', attempts: 0 });
    expect((await api('GET', `/posts/${p.id}`, { key: w.secret })).body.data.status).toBe('cancelled');
  });
});
