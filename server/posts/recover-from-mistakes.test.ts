// What the staff app offers after a mistake or a failure, as services: a cancelled post
// restored to a draft, one failed account retried on its own, and each attempt's outcome
// and time read back from the post's outcome events.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { drainOutbox } from '@/server/events/drain-outbox';
import { usePublicApi } from '@/server/testing/public-api';
import { inMinutes, publishingWorkspace } from '@/server/testing/posts-fixtures';
import { cancelPost, restorePost } from './cancel-post';
import { deliveryHistory } from './delivery-history';
import { retryFailedTargets } from './delivery/deliver-post';
import { explainFailure } from './failure-guidance';

const api = usePublicApi();
beforeAll(() => vi.stubEnv('SANDBOX_LATENCY_MS', '5'));
afterAll(() => vi.unstubAllEnvs());

describe('restorePost', () => {
  it('brings a cancelled post back as a draft: not scheduled, out of the approval queue, nothing else lost', async () => {
    const w = await publishingWorkspace();
    const created = await api('POST', '/posts', {
      key: w.secret,
      body: { content: 'Back again', connectionIds: [w.ok.linkedin.id, w.ok.facebook.id], scheduledAt: inMinutes(60), requireApproval: true },
    });
    const id = created.body.data.id as string;
    await cancelPost(w.workspace.id, id);
    const restored = await restorePost(w.workspace.id, id);
    expect(restored).toMatchObject({ status: 'draft', scheduledAt: null, approvalStatus: 'none', content: 'Back again' });
    expect(restored.connectionIds.sort()).toEqual([w.ok.linkedin.id, w.ok.facebook.id].sort());
    // Only a cancelled post can be restored, and only in its own workspace.
    await expect(restorePost(w.workspace.id, id)).rejects.toMatchObject({ code: 'POST_NOT_EDITABLE' });
    const other = await publishingWorkspace();
    await expect(restorePost(other.workspace.id, id)).rejects.toMatchObject({ code: 'POST_NOT_FOUND' });
  });
});

describe('retrying one account, and the attempts on record', () => {
  it('retries only the account asked for, and the history shows every attempt with its time and the network’s words', async () => {
    const w = await publishingWorkspace();
    const created = await api('POST', '/posts', {
      key: w.secret,
      body: { content: 'Hiring', connectionIds: [w.ok.facebook.id, w.rejects.id, w.ok.twitter.id] },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    // X revokes the account's access between scheduling and publishing.
    await db.connection.update({ where: { id: w.ok.twitter.id }, data: { sandboxBehavior: 'expired' } });
    const published = await api('POST', `/posts/${id}/publish`, { key: w.secret });
    const targets = published.body.data.targets as { id: string; connectionId: string; status: string }[];
    const rejected = targets.find((t) => t.connectionId === w.rejects.id)!;
    const expired = targets.find((t) => t.connectionId === w.ok.twitter.id)!;
    expect([rejected.status, expired.status]).toEqual(['failed', 'failed']);

    // A target that did not fail cannot be retried; another post's neither.
    const landed = targets.find((t) => t.connectionId === w.ok.facebook.id)!;
    await expect(retryFailedTargets(w.workspace.id, id, [landed.id])).rejects.toMatchObject({ code: 'POST_NOT_EDITABLE' });

    await db.connection.update({ where: { id: w.rejects.id }, data: { sandboxBehavior: 'ok' } });
    const after = await retryFailedTargets(w.workspace.id, id, [rejected.id]);
    const byId = new Map(after.targets.map((t) => [t.id, t]));
    expect(byId.get(rejected.id)).toMatchObject({ status: 'published', attempts: 2 });
    // The other failed account was left alone.
    expect(byId.get(expired.id)).toMatchObject({ status: 'failed', attempts: 1 });
    expect(after.status).toBe('partial_published');

    const history = await deliveryHistory(w.workspace.id, id);
    const ofRejected = history.filter((a) => a.targetId === rejected.id);
    expect(ofRejected.map((a) => a.outcome)).toEqual(['failed', 'published']);
    expect(ofRejected[0]).toMatchObject({ code: 'PLATFORM_ERROR', message: expect.stringContaining('DUPLICATE_POST') });
    expect(new Date(ofRejected[1]!.at).getTime()).toBeGreaterThanOrEqual(new Date(ofRejected[0]!.at).getTime());
    expect(history.find((a) => a.targetId === expired.id)).toMatchObject({ outcome: 'failed', code: 'CONNECTION_EXPIRED' });
    // Another workspace reads nothing of it.
    const other = await publishingWorkspace();
    expect(await deliveryHistory(other.workspace.id, id)).toEqual([]);
    // Draining changes nothing: the history is the events, dispatched or not.
    await drainOutbox({ consumers: [] });
    expect(await deliveryHistory(w.workspace.id, id)).toHaveLength(history.length);
  });
});

describe('explainFailure', () => {
  it('says what the common failures mean and what to do, and nothing for the rest', () => {
    expect(explainFailure('CONNECTION_EXPIRED', 'Error validating access token: Session has expired')?.action).toBe('reconnect');
    expect(explainFailure('PLATFORM_ERROR', 'Content is a duplicate of urn:li:share:1 (422 DUPLICATE_POST)')?.action).toBe('edit');
    expect(explainFailure('PLATFORM_ERROR', 'The image aspect ratio is not supported')?.explanation).toMatch(/media/);
    expect(explainFailure('PLATFORM_ERROR', '(#4) Application request limit reached: too many requests')?.action).toBe('wait');
    expect(explainFailure('DELIVERY_INTERRUPTED', 'Interrupted')?.action).toBe('retry');
    expect(explainFailure('PLATFORM_ERROR', 'Something odd')).toBeNull();
  });
});
