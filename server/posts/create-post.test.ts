import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { createWorkspace, createSandboxConnection } from '@/server/testing/fixtures';
import { usePublicApi } from '@/server/testing/public-api';
import { eventsOf, inMinutes, publishingWorkspace, readyMedia } from '@/server/testing/posts-fixtures';

const api = usePublicApi();
beforeAll(() => {
  vi.stubEnv('SANDBOX_LATENCY_MS', '5');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe('POST /posts', () => {
  it('creates a draft with one pending target per connection and derived platforms', async () => {
    const w = await publishingWorkspace();
    const res = await api('POST', '/posts', { key: w.secret, body: { content: 'Hello', connectionIds: [w.ok.linkedin.id, w.ok.twitter.id] } });
    expect(res.status).toBe(201);
    expect(res.body.warnings).toEqual([]);
    const post = res.body.data;
    expect(post).toMatchObject({
      content: 'Hello',
      status: 'draft',
      approvalStatus: 'none',
      scheduledAt: null,
      publishedAt: null,
      platforms: ['linkedin', 'twitter'],
      connectionIds: [w.ok.linkedin.id, w.ok.twitter.id],
      platformPostIds: null,
      error: null,
      variants: null,
      mediaUrls: [],
    });
    expect(post.targets).toHaveLength(2);
    for (const t of post.targets) expect(t).toMatchObject({ status: 'pending', attempts: 0, postedId: null, permalink: null, error: null, publishedAt: null });
    expect(await eventsOf(post.id)).toEqual([]);
  });

  it('schedules a post with scheduledAt and emits post.scheduled', async () => {
    const w = await publishingWorkspace();
    const at = inMinutes(30);
    const res = await api('POST', '/posts', { key: w.secret, body: { content: 'Later', connectionIds: [w.ok.facebook.id], scheduledAt: at } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'scheduled', scheduledAt: at, approvalStatus: 'none' });
    expect(await eventsOf(res.body.data.id)).toEqual([
      { type: 'post.scheduled', data: { postId: res.body.data.id, scheduledAt: at, platforms: ['facebook'] } },
    ]);
  });

  it('moves a scheduledAt up to 5 minutes in the past to now, with a warning', async () => {
    const w = await publishingWorkspace();
    const res = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(-4) } });
    expect(res.status).toBe(201);
    expect(res.body.warnings).toEqual([{ code: 'SCHEDULED_TIME_COERCED', message: expect.any(String) }]);
    expect(Math.abs(new Date(res.body.data.scheduledAt!).getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('refuses a scheduledAt more than 5 minutes in the past', async () => {
    const w = await publishingWorkspace();
    const res = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(-6) } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'SCHEDULED_TIME_IN_PAST', field: 'scheduledAt' });
  });

  it('enforces content and connection counts through the schema', async () => {
    const w = await publishingWorkspace();
    expect((await api('POST', '/posts', { key: w.secret, body: { content: '', connectionIds: [w.ok.linkedin.id] } })).status).toBe(400);
    expect((await api('POST', '/posts', { key: w.secret, body: { content: 'x'.repeat(10_001), connectionIds: [w.ok.facebook.id] } })).body.statusCode).toBe(
      400,
    );
    expect((await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [] } })).status).toBe(400);
    const many = Array.from({ length: 21 }, () => w.ok.linkedin.id);
    expect((await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: many } })).status).toBe(400);
    expect((await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.linkedin.id], colour: 'red' } })).body.message).toEqual([
      'colour is not allowed',
    ]);
  });

  it('refuses connections of another workspace (CONNECTION_NOT_FOUND) and expired ones (CONNECTION_EXPIRED)', async () => {
    const w = await publishingWorkspace();
    const other = await createWorkspace();
    const foreign = await createSandboxConnection(other.id);
    const nf = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.linkedin.id, foreign.id] } });
    expect(nf.status).toBe(404);
    expect(nf.body.error).toMatchObject({ code: 'CONNECTION_NOT_FOUND', field: 'connectionIds[1]' });
    const ex = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.expired.id] } });
    expect(ex.status).toBe(409);
    expect(ex.body.error.code).toBe('CONNECTION_EXPIRED');
    await db.connection.update({ where: { id: w.ok.threads.id }, data: { status: 'inactive' } });
    expect((await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.threads.id] } })).body.error.code).toBe(
      'CONNECTION_EXPIRED',
    );
  });

  it('queues a scheduled post for approval when the workspace requires it', async () => {
    const w = await publishingWorkspace({ requireApproval: true });
    const res = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(10) } });
    expect(res.body.data.approvalStatus).toBe('pending');
    expect(res.body.warnings).toEqual([{ code: 'APPROVAL_REQUIRED', message: expect.any(String) }]);
    expect((await eventsOf(res.body.data.id)).map((e) => e.type)).toEqual(['post.scheduled', 'post.approval_required']);
    // A draft is not queued: nothing is going out yet.
    const draft = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.linkedin.id] } });
    expect(draft.body.data.approvalStatus).toBe('none');
  });

  it('queues a scheduled post for approval when requireApproval is true', async () => {
    const w = await publishingWorkspace();
    const res = await api('POST', '/posts', {
      key: w.secret,
      body: { content: 'x', connectionIds: [w.ok.linkedin.id], scheduledAt: inMinutes(10), requireApproval: true },
    });
    expect(res.body.data.approvalStatus).toBe('pending');
    expect(res.body.warnings.map((x) => x.code)).toEqual(['APPROVAL_REQUIRED']);
  });

  it('accepts only the contract platformSettings keys with their types, for targeted platforms', async () => {
    const w = await publishingWorkspace();
    const img = await readyMedia(w.workspace.id);
    const ok = await api('POST', '/posts', {
      key: w.secret,
      body: {
        content: 'x',
        connectionIds: [w.ok.linkedin.id, w.ok.instagram.id, w.ok.twitter.id, w.ok.facebook.id],
        mediaIds: [img.id],
        platformSettings: {
          linkedin: { visibility: 'CONNECTIONS' },
          instagram: { videoType: 'reel', shareToFeed: true, firstComment: 'hi' },
          twitter: { replyTo: '1234567890' },
          facebook: { firstComment: 'first' },
        },
      },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.platformSettings?.linkedin).toEqual({ visibility: 'CONNECTIONS' });

    const cases: [unknown, string][] = [
      [{ facebook: { firstComent: 'typo' } }, 'platformSettings.facebook.firstComent'],
      [{ linkedin: { visibility: 'FRIENDS' } }, 'platformSettings.linkedin.visibility'],
      [{ linkedin: { constructor: 'x' } }, 'platformSettings.linkedin.constructor'],
      [{ instagram: { videoType: 'clip' } }, 'platformSettings.instagram.videoType'],
      [{ instagram: { shareToFeed: 'yes' } }, 'platformSettings.instagram.shareToFeed'],
      [{ threads: {} }, 'platformSettings.threads'],
      [{ myspace: {} }, 'platformSettings.myspace'],
      [{ linkedin: 'PUBLIC' }, 'platformSettings.linkedin'],
    ];
    for (const [platformSettings, field] of cases) {
      const res = await api('POST', '/posts', {
        key: w.secret,
        body: { content: 'x', connectionIds: [w.ok.linkedin.id, w.ok.facebook.id, w.ok.instagram.id], mediaIds: [img.id], platformSettings },
      });
      expect(res.status, field).toBe(400);
      expect(res.body.error, field).toMatchObject({ code: 'PLATFORM_SETTING_UNKNOWN', field });
    }
  });

  it('uses mediaIds of this workspace that are completed', async () => {
    const w = await publishingWorkspace();
    const img = await readyMedia(w.workspace.id);
    const res = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.instagram.id], mediaIds: [img.id] } });
    expect(res.status).toBe(201);
    expect(res.body.data.mediaUrls).toEqual([img.url]);

    const foreign = await readyMedia((await createWorkspace()).id);
    const nf = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.linkedin.id], mediaIds: [foreign.id] } });
    expect(nf.status).toBe(404);
    expect(nf.body.error).toMatchObject({ code: 'MEDIA_NOT_FOUND', field: 'mediaIds[0]' });

    const pending = await db.mediaAsset.update({ where: { id: (await readyMedia(w.workspace.id)).id }, data: { status: 'awaiting_upload' } });
    const nr = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.linkedin.id], mediaIds: [pending.id] } });
    expect(nr.status).toBe(409);
    expect(nr.body.error.code).toBe('MEDIA_NOT_READY');
  });

  it('requires media for instagram (MEDIA_REQUIRED)', async () => {
    const w = await publishingWorkspace();
    const res = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.instagram.id] } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('MEDIA_REQUIRED');
    expect(res.body.error.message).toContain('Instagram');
  });

  it('checks platform character limits per target, using the variant when there is one', async () => {
    const w = await publishingWorkspace();
    const long = 'a'.repeat(281);
    const tw = await api('POST', '/posts', { key: w.secret, body: { content: long, connectionIds: [w.ok.twitter.id] } });
    expect(tw.status).toBe(400);
    expect(tw.body.error).toMatchObject({ code: 'CONTENT_TOO_LONG', field: 'content' });
    expect(tw.body.error.message).toMatch(/X \(Twitter\).*280.*281/);
    // The same text is fine for LinkedIn, and a twitter variant makes the post valid.
    const ok = await api('POST', '/posts', {
      key: w.secret,
      body: { content: long, connectionIds: [w.ok.twitter.id, w.ok.linkedin.id], variants: { twitter: { content: 'short' } } },
    });
    expect(ok.status).toBe(201);
    // A too-long variant is named by its path.
    const v = await api('POST', '/posts', {
      key: w.secret,
      body: { content: 'ok', connectionIds: [w.ok.threads.id], variants: { threads: { content: 'b'.repeat(501) } } },
    });
    expect(v.body.error).toMatchObject({ code: 'CONTENT_TOO_LONG', field: 'variants.threads.content' });
    // A variant for a platform the post does not target is refused.
    const stray = await api('POST', '/posts', {
      key: w.secret,
      body: { content: 'ok', connectionIds: [w.ok.linkedin.id], variants: { tiktok: { content: 'x' } } },
    });
    expect(stray.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'variants.tiktok' });
  });

  it('weighs URLs as 23 characters on X', async () => {
    const w = await publishingWorkspace();
    const text = `${'a'.repeat(250)} https://example.com/${'x'.repeat(100)}`; // 250 + 1 + 23 = 274
    expect((await api('POST', '/posts', { key: w.secret, body: { content: text, connectionIds: [w.ok.twitter.id] } })).status).toBe(201);
  });

  it('checks media counts and video limits per platform', async () => {
    const w = await publishingWorkspace();
    const images = await Promise.all(Array.from({ length: 5 }, () => readyMedia(w.workspace.id)));
    const five = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.twitter.id], mediaIds: images.map((i) => i.id) } });
    expect(five.status).toBe(400);
    expect(five.body.error.code).toBe('MEDIA_COUNT_EXCEEDED');
    expect(five.body.error.message).toMatch(/X \(Twitter\) allows at most 4 images/);

    const long = await readyMedia(w.workspace.id, { kind: 'video', durationMs: 200_000 });
    const tooLong = await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.twitter.id], mediaIds: [long.id] } });
    expect(tooLong.body.error.code).toBe('MEDIA_TOO_LONG');
    expect(tooLong.body.error.message).toContain('140 seconds');
    expect((await api('POST', '/posts', { key: w.secret, body: { content: 'x', connectionIds: [w.ok.linkedin.id], mediaIds: [long.id] } })).status).toBe(201);
  });

  it('keeps one workspace from reading another workspace’s posts', async () => {
    const a = await publishingWorkspace();
    const b = await publishingWorkspace();
    const post = await api('POST', '/posts', { key: a.secret, body: { content: 'mine', connectionIds: [a.ok.linkedin.id] } });
    expect((await api('GET', `/posts/${post.body.data.id}`, { key: b.secret })).body.error.code).toBe('POST_NOT_FOUND');
    expect((await api('GET', '/posts', { key: b.secret })).body.total).toBe(0);
    expect((await api('PATCH', `/posts/${post.body.data.id}`, { key: b.secret, body: { content: 'theirs' } })).status).toBe(404);
    expect((await api('POST', `/posts/${post.body.data.id}/publish`, { key: b.secret })).status).toBe(404);
  });
});
