// The Inngest adapter's sending side: what goes out, and that no caller ever waits on or
// fails because of Inngest.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from './definition';
import { createInngestJobs } from './inngest-jobs';
import { runJob } from './run-job';
import { currentRequestId, withLogContext } from '@/server/observability/log';
import type { JobEventData } from './inngest-events';

const definitions = [defineJob({ name: 'test.publish', schema: z.object({ postId: z.string() }), handler: async () => undefined })] as const;

type Sent = { name: string; data: unknown; id?: string };

function fakeSender(behaviour: 'ok' | 'reject' | 'hang' = 'ok') {
  const sent: Sent[] = [];
  const batches: number[] = [];
  return {
    sent,
    batches,
    send: (async (event: Sent | Sent[]) => {
      sent.push(...(Array.isArray(event) ? event : [event]));
      batches.push(Array.isArray(event) ? event.length : 1);
      if (behaviour === 'reject') throw new Error('no event key');
      if (behaviour === 'hang') await new Promise(() => undefined);
      return { ids: ['x'] };
    }) as never,
  };
}

describe('Inngest jobs adapter', () => {
  it('sends herald/<job> with the payload, key, enqueue id and runAt', async () => {
    const sender = fakeSender();
    const jobs = createInngestJobs(sender, { definitions });
    const runAt = new Date('2030-01-01T09:00:00Z');
    await jobs.enqueue('test.publish', { postId: 'p1' }, { runAt, key: 'post:p1:publish' });
    expect(sender.sent).toHaveLength(1);
    const event = sender.sent[0]!;
    const data = event.data as JobEventData;
    expect(event.name).toBe('herald/test.publish');
    expect(data).toMatchObject({ payload: { postId: 'p1' }, key: 'post:p1:publish', runAt: '2030-01-01T09:00:00.000Z' });
    expect(event.id).toBe(data.enqueueId);
  });

  it('carries the enqueuing request id for the run’s log lines; the run strips it before validating', async () => {
    const sender = fakeSender();
    const jobs = createInngestJobs(sender, { definitions });
    await withLogContext({ requestId: 'req-77' }, () => jobs.enqueue('test.publish', { postId: 'p2' }));
    const data = sender.sent[0]!.data as JobEventData;
    expect(data.payload).toEqual({ postId: 'p2', _requestId: 'req-77' });
    let seen: { payload?: unknown; requestId?: string } = {};
    const strict = defineJob({
      name: 'test.strict',
      schema: z.strictObject({ postId: z.string() }),
      handler: async (payload) => void (seen = { payload, requestId: currentRequestId() }),
    });
    await runJob(strict, data.payload, { attempt: 1, maxAttempts: 1, signal: new AbortController().signal });
    expect(seen).toEqual({ payload: { postId: 'p2' }, requestId: 'req-77' });
  });

  it('gives keyless jobs a unique key so they never supersede each other', async () => {
    const sender = fakeSender();
    const jobs = createInngestJobs(sender, { definitions });
    await jobs.enqueue('test.publish', { postId: 'a' });
    await jobs.enqueue('test.publish', { postId: 'b' });
    const [a, b] = sender.sent.map((e) => e.data as JobEventData);
    expect(a!.key).not.toBe(b!.key);
    expect(a!.runAt).toBeNull();
  });

  it('sends a batch as one request, each event with its own id and key', async () => {
    const sender = fakeSender();
    const jobs = createInngestJobs(sender, { definitions });
    await jobs.enqueueMany('test.publish', [{ payload: { postId: 'a' }, key: 'k:a' }, { payload: { postId: 'b' } }]);
    expect(sender.batches).toEqual([2]);
    const [a, b] = sender.sent.map((e) => e.data as JobEventData);
    expect(a).toMatchObject({ payload: { postId: 'a' }, key: 'k:a' });
    expect(b!.key).toMatch(/^once:/);
    expect(sender.sent[0]!.id).not.toBe(sender.sent[1]!.id);
  });

  it('cancels by sending herald/job.cancel with the key', async () => {
    const sender = fakeSender();
    await createInngestJobs(sender, { definitions }).cancel('post:p1:publish');
    expect(sender.sent).toEqual([{ name: 'herald/job.cancel', data: { key: 'post:p1:publish' } }]);
  });

  it('logs instead of throwing when the send fails', async () => {
    const failures: string[] = [];
    const jobs = createInngestJobs(fakeSender('reject'), {
      definitions,
      onSendFailure: (error) => failures.push(String(error)),
    });
    await expect(jobs.enqueue('test.publish', { postId: 'p1' })).resolves.toBeUndefined();
    expect(failures).toEqual(['Error: no event key']);
  });

  it('stops waiting after the send timeout', async () => {
    const failures: string[] = [];
    const jobs = createInngestJobs(fakeSender('hang'), {
      definitions,
      sendTimeoutMs: 100,
      onSendFailure: (error) => failures.push(String(error)),
    });
    const started = Date.now();
    await jobs.enqueue('test.publish', { postId: 'p1' });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(failures[0]).toContain('did not accept the event within 100 ms');
  });

  it('still rejects an invalid payload (a programming error)', async () => {
    const jobs = createInngestJobs(fakeSender(), { definitions });
    // @ts-expect-error -- wrong payload type
    await expect(jobs.enqueue('test.publish', { postId: 1 })).rejects.toThrow();
  });

  it('does not hang against a real client with no Inngest server', async () => {
    const { Inngest } = await import('inngest');
    const client = new Inngest({ id: 'herald-test', isDev: true, baseUrl: 'http://127.0.0.1:9' });
    const failures: unknown[] = [];
    const jobs = createInngestJobs(client, { definitions, sendTimeoutMs: 500, onSendFailure: (e) => failures.push(e) });
    const started = Date.now();
    await jobs.enqueue('test.publish', { postId: 'p1' });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(failures).toHaveLength(1);
  });
});
