// Built-in workflows over REST, run by the real local job runner: repurpose-post makes drafts
// fitted to each platform through the post rules, weekly-digest summarises outcomes, and each
// run ends with its workflow.run.* event.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { closeJobs, startLocalRunner, type LocalRunner } from '@/server/jobs';
import { PLATFORM_CATALOGUE } from '@/server/platforms/catalogue';
import { runnableJobs } from '@/server/runtime/job-handlers';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { collectConversations } from '@/server/inbox/collect-conversations';
import { testDatabaseUrl } from '@/server/testing/per-file-database';
import { publishingWorkspace } from '@/server/testing/posts-fixtures';
import { usePublicApi } from '@/server/testing/public-api';
import { fitText } from './fit-text';
import { executeRun } from './workflows';

const api = usePublicApi();
let runner: LocalRunner;
beforeAll(async () => {
  vi.stubEnv('SANDBOX_LATENCY_MS', '5');
  runner = await startLocalRunner({ connectionString: testDatabaseUrl(), definitions: runnableJobs, concurrency: 4, pollIntervalMs: 100 });
});
afterAll(async () => {
  await runner.stop();
  await closeJobs();
  vi.unstubAllEnvs();
});

async function finished(secret: string, runId: string) {
  for (let i = 0; i < 150; i++) {
    const res = await api('GET', `/workflows/runs/${runId}`, { key: secret });
    if (res.body.data.status === 'completed' || res.body.data.status === 'failed') return res.body.data;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('run did not finish');
}

async function publishedPost(w: Awaited<ReturnType<typeof publishingWorkspace>>, content: string) {
  const created = await api('POST', '/posts', { key: w.secret, body: { content, connectionIds: [w.ok.linkedin.id] } });
  const published = await api('POST', `/posts/${created.body.data.id}/publish`, { key: w.secret, body: {} });
  expect(published.body.data.status).toBe('published');
  return created.body.data.id as string;
}

describe('fitText', () => {
  it('shortens at a word boundary to the platform’s own count', () => {
    const x = PLATFORM_CATALOGUE.twitter.text;
    const long = 'word '.repeat(100).trim();
    const fitted = fitText(long, x);
    expect(fitted.shortened).toBe(true);
    expect(x.count(fitted.text)).toBeLessThanOrEqual(x.maxChars);
    expect(fitted.text.endsWith('word…')).toBe(true);
    // URLs count 23 on X whatever their length, so a text of long URLs may fit as it is.
    expect(fitText('short', x)).toEqual({ text: 'short', shortened: false });
    expect(x.count(fitText('x'.repeat(1000), x).text)).toBeLessThanOrEqual(x.maxChars);
  });
});

describe('workflows', () => {
  it('lists the built-in workflows with their inputs', async () => {
    const { secret } = await createWorkspaceWithKey();
    const res = await api('GET', '/workflows', { key: secret });
    expect(res.body.data.map((w) => w.id)).toEqual(['repurpose-post', 'weekly-digest', 'draft-replies']);
    expect(res.body.data[0]!.inputs.find((i) => i.name === 'postId')?.required).toBe(true);
  });

  it('draft-replies drafts a saved reply on every waiting review in the range, marked as the workflow’s, once however often it runs', async () => {
    const w = await createWorkspaceWithKey();
    const location = await createSandboxConnection(w.workspace.id, { platform: 'google_business' });
    await db.connection.update({ where: { id: location.id }, data: { createdAt: new Date(Date.now() - 4 * 3_600_000) } });
    await collectConversations(location.id);
    const saved = await db.savedReply.create({
      data: { workspaceId: w.workspace.id, title: 'Sorry', text: 'Sorry {name}, that is not us at our best. Write to us at hello@herald.example?' },
    });
    const refused = await api('POST', '/workflows/draft-replies/runs', { key: w.secret, body: { savedReplyId: randomUUID() } });
    expect(refused.body.error?.code).toBe('SAVED_REPLY_NOT_FOUND');

    const start = await api('POST', '/workflows/draft-replies/runs', { key: w.secret, body: { savedReplyId: saved.id, kind: 'review', maxRating: 2 } });
    expect(start.status).toBe(201);
    const run = await finished(w.secret, start.body.data.runId);
    expect(run.status).toBe('completed');
    const tom = await db.inboxItem.findFirstOrThrow({ where: { connectionId: location.id, kind: 'review', rating: 1 } });
    expect(run.summary).toMatchObject({ savedReplyId: saved.id, drafts: [{ itemId: tom.id }], skipped: [] });
    const item = await api('GET', `/inbox/${tom.id}`, { key: w.secret });
    expect(item.body.data.drafts).toEqual([
      expect.objectContaining({
        text: 'Sorry Tom, that is not us at our best. Write to us at hello@herald.example?',
        status: 'pending',
        authoredBy: { name: 'Workflow “Draft replies”', userId: null, assistant: true },
      }),
    ]);
    // Nothing went out: the review still waits, and a second run drafts nothing more.
    expect((await db.inboxItem.findUniqueOrThrow({ where: { id: tom.id } })).repliedAt).toBeNull();
    const again = await finished(
      w.secret,
      (await api('POST', '/workflows/draft-replies/runs', { key: w.secret, body: { savedReplyId: saved.id, kind: 'review', maxRating: 2 } })).body.data.runId,
    );
    expect(again.summary).toMatchObject({ drafts: [] });
    expect(await db.inboxDraft.count({ where: { itemId: tom.id } })).toBe(1);
  });

  it('repurpose-post drafts for the other accounts, fitted to each, skipping what a platform refuses', async () => {
    const w = await publishingWorkspace();
    const text = `${'Our biggest launch yet, with every detail you asked for. '.repeat(6)}Read more.`;
    const postId = await publishedPost(w, text);
    const start = await api('POST', '/workflows/repurpose-post/runs', { key: w.secret, body: { postId } });
    expect(start.status).toBe(201);
    expect(start.body.data).toMatchObject({ workflowId: 'repurpose-post', status: 'queued', input: { postId } });
    const run = await finished(w.secret, start.body.data.runId);
    expect(run.status).toBe('completed');
    const summary = run.summary as {
      drafts: Array<{ postId: string; platform: string; shortened: boolean }>;
      skipped: Array<{ platform: string; code: string }>;
    };
    const x = summary.drafts.find((d) => d.platform === 'twitter')!;
    expect(x.shortened).toBe(true);
    const xDraft = await api('GET', `/posts/${x.postId}`, { key: w.secret });
    expect(xDraft.body.data.status).toBe('draft');
    expect(PLATFORM_CATALOGUE.twitter.text.count(xDraft.body.data.content)).toBeLessThanOrEqual(280);
    expect(summary.drafts.find((d) => d.platform === 'facebook')!.shortened).toBe(false);
    // Instagram and TikTok need media; the source post has none.
    expect(summary.skipped.map((s) => [s.platform, s.code])).toEqual(expect.arrayContaining([['instagram', 'MEDIA_REQUIRED']]));
    // The expired account is skipped too, with the post rules' own code.
    expect(summary.skipped.some((s) => s.code === 'CONNECTION_EXPIRED')).toBe(true);
    const events = await db.outboxEvent.findMany({ where: { workspaceId: w.workspace.id, type: 'workflow.run.completed' } });
    expect(events.map((e) => (e.data as { runId: string }).runId)).toContain(run.runId);
  });

  it('never repeats work when its job runs again, even after an interruption', async () => {
    const w = await publishingWorkspace();
    const postId = await publishedPost(w, 'Short and sweet');
    const start = await api('POST', '/workflows/repurpose-post/runs', { key: w.secret, body: { postId, connectionIds: [w.ok.facebook.id, w.ok.threads.id] } });
    const run = await finished(w.secret, start.body.data.runId);
    await executeRun(run.runId); // a duplicated job: the run is finished
    expect(await db.post.count({ where: { workspaceId: w.workspace.id } })).toBe(3);

    // An interrupted run: one draft made before the crash is in its progress.
    const again = await db.workflowRun.create({
      data: {
        workspaceId: w.workspace.id,
        workflowId: 'repurpose-post',
        status: 'running',
        input: { postId, connectionIds: [w.ok.facebook.id, w.ok.threads.id] },
        progress: { drafts: [{ postId: randomUUID(), connectionId: w.ok.facebook.id, platform: 'facebook', shortened: false }], skipped: [] },
      },
    });
    await executeRun(again.id);
    expect(await db.post.count({ where: { workspaceId: w.workspace.id } })).toBe(4);
  });

  it('weekly-digest summarises outcomes, failures verbatim, nulls where Herald has no reading', async () => {
    const w = await publishingWorkspace();
    await publishedPost(w, 'went out');
    const failing = await api('POST', '/posts', { key: w.secret, body: { content: 'will fail', connectionIds: [w.rejects.id] } });
    await api('POST', `/posts/${failing.body.data.id}/publish`, { key: w.secret, body: {} });
    const start = await api('POST', '/workflows/weekly-digest/runs', { key: w.secret, body: { days: 7 } });
    const run = await finished(w.secret, start.body.data.runId);
    const summary = run.summary as Record<string, any>;
    expect(summary.posts).toEqual({ total: 2, byStatus: { published: 1, failed: 1 } });
    expect(summary.targets.linkedin).toEqual({ published: 1, failed: 1, pending: 0 });
    expect(summary.failures).toHaveLength(1);
    expect(summary.failures[0].error).toEqual(expect.any(String));
    expect(summary.topPosts).toEqual([{ postId: expect.any(String), publishedAt: expect.any(String), engagement: null }]);

    // Once a platform reports engagement, the post leads the list with its reading.
    const engaging = await publishedPost(w, 'went out and was liked');
    await db.postTarget.updateMany({ where: { postId: engaging }, data: { engagement: 42, engagementCollectedAt: new Date() } });
    const again = await finished(w.secret, (await api('POST', '/workflows/weekly-digest/runs', { key: w.secret, body: { days: 7 } })).body.data.runId);
    const top = (again.summary as Record<string, any>).topPosts;
    expect(top.map((p: { postId: string; engagement: number | null }) => [p.postId === engaging, p.engagement])).toEqual([
      [true, 42],
      [false, null],
    ]);
  });

  it('refuses bad input with the documented codes and keeps workspaces apart', async () => {
    const w = await publishingWorkspace();
    const other = await createWorkspaceWithKey();
    const draft = await api('POST', '/posts', { key: w.secret, body: { content: 'draft', connectionIds: [w.ok.linkedin.id] } });
    const unknown = await api('POST', '/workflows/nope/runs', { key: w.secret, body: {} });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'WORKFLOW_NOT_FOUND']);
    const noPost = await api('POST', '/workflows/repurpose-post/runs', { key: w.secret, body: {} });
    expect([noPost.status, noPost.body.error.field]).toEqual([400, 'postId']);
    const notPublished = await api('POST', '/workflows/repurpose-post/runs', { key: w.secret, body: { postId: draft.body.data.id } });
    expect(notPublished.body.error.message).toMatch(/published post/);
    const stray = await api('POST', '/workflows/weekly-digest/runs', { key: w.secret, body: { postId: draft.body.data.id } });
    expect([stray.status, stray.body.error.field]).toEqual([400, 'postId']);
    const foreign = await api('POST', '/workflows/repurpose-post/runs', { key: other.secret, body: { postId: draft.body.data.id } });
    expect(foreign.body.error.code).toBe('POST_NOT_FOUND');
    const digest = await api('POST', '/workflows/weekly-digest/runs', { key: w.secret, body: {} });
    expect((await api('GET', `/workflows/runs/${digest.body.data.runId}`, { key: other.secret })).status).toBe(404);
    expect((await api('GET', '/workflows/runs', { key: other.secret })).body.data).toEqual([]);
    const noScope = await createWorkspaceWithKey({ scopes: ['posts:read'] });
    expect((await api('GET', '/workflows', { key: noScope.secret })).body.error.code).toBe('SCOPE_MISSING');
  });
});
