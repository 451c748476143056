// An account Herald could not settle after an interruption (DELIVERY_UNCONFIRMED), over HTTP:
// never sent again by accident (TARGET_UNCONFIRMED until the caller says it did not go out),
// sent again when they do, or marked published by a member who saw it on the network.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { deliverPost } from '@/server/posts/delivery/deliver-post';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { eventsOf } from '@/server/testing/posts-fixtures';
import { usePublicApi } from '@/server/testing/public-api';

const api = usePublicApi();
beforeEach(() => {
  vi.stubEnv('SANDBOX_LATENCY_MS', '5');
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** A Slack post cut off mid-call and taken over: Slack cannot be asked, so it is left unconfirmed. */
async function unconfirmedPost() {
  const w = await createWorkspaceWithKey();
  const slack = await createSandboxConnection(w.workspace.id, { platform: 'slack' });
  const post = await db.post.create({
    data: {
      workspaceId: w.workspace.id,
      content: 'Team lunch on Friday',
      mediaUrls: [],
      platforms: ['slack'],
      connectionIds: [slack.id],
      status: 'publishing',
      deliveryOwner: 'dead-host/1/00000000',
      deliveryLeaseUntil: new Date(Date.now() - 60_000),
      targets: {
        create: {
          connectionId: slack.id,
          platform: 'slack',
          status: 'publishing',
          attempts: 1,
          attemptStartedAt: new Date(Date.now() - 5 * 60_000),
          attemptIntent: { content: 'Team lunch on Friday', mediaUrls: [], settings: {} },
        },
      },
    },
    include: { targets: true },
  });
  await deliverPost({ workspaceId: null, postId: post.id, mode: 'scheduled' });
  const target = await db.postTarget.findUniqueOrThrow({ where: { id: post.targets[0]!.id } });
  expect(target).toMatchObject({ status: 'failed', settlement: expect.stringContaining('Slack cannot be asked') });
  return { ...w, post, target };
}

describe('an account whose publish could not be confirmed', () => {
  it('is not sent again by a retry or a publish; sent on its own, it goes once more', async () => {
    const u = await unconfirmedPost();
    for (const path of [`/posts/${u.post.id}/retry`, `/posts/${u.post.id}/publish`]) {
      const refused = await api('POST', path, { key: u.secret });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error: { code: 'TARGET_UNCONFIRMED' } });
    }
    expect((await db.postTarget.findUniqueOrThrow({ where: { id: u.target.id } })).attempts).toBe(1);
    const sent = await api('POST', `/posts/${u.post.id}/targets/${u.target.id}/resend`, { key: u.secret });
    expect(sent.status).toBe(201);
    expect(sent.body.data.targets[0]).toMatchObject({ status: 'published', attempts: 2 });
  });

  it('a member who saw it on the network marks it published with its address', async () => {
    const u = await unconfirmedPost();
    const bad = await api('POST', `/posts/${u.post.id}/targets/${u.target.id}/published`, { key: u.secret, body: { permalink: 'http://insecure.example/p' } });
    expect(bad.status).toBe(400);
    const marked = await api('POST', `/posts/${u.post.id}/targets/${u.target.id}/published`, {
      key: u.secret,
      body: { permalink: 'https://demo-team.slack.com/archives/C123/p1700000000000100' },
    });
    expect(marked.status).toBe(200);
    expect(marked.body.data).toMatchObject({ status: 'published' });
    expect(marked.body.data.targets[0]).toMatchObject({
      status: 'published',
      permalink: 'https://demo-team.slack.com/archives/C123/p1700000000000100',
      confirmedAt: expect.any(String),
      settlement: expect.stringContaining('Marked as published by'),
    });
    const published = (await eventsOf(u.post.id)).filter((e) => e.type === 'post.published');
    expect(published).toHaveLength(1);
    expect(published[0]!.data).toMatchObject({ postedId: null, confirmedAt: expect.any(String) });
    // Only once, and only for an unconfirmed account.
    const again = await api('POST', `/posts/${u.post.id}/targets/${u.target.id}/published`, {
      key: u.secret,
      body: { permalink: 'https://demo-team.slack.com/archives/C123/p1700000000000100' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: 'POST_NOT_EDITABLE' } });
  });
});
