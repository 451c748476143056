// The generated Inngest functions, run through @inngest/test (no Inngest server).
// Every sleep must be mocked in the engine's constructor `steps`, or execute() never returns.
import { InngestTestEngine } from '@inngest/test';
import { Inngest } from 'inngest';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '@/server/jobs/definition';
import { jobEventName, JOB_CANCEL_EVENT, type JobEventData } from '@/server/jobs/inngest-events';
import { jobCatalogue } from '@/server/jobs/catalogue';
import { createJobFunction, functions } from './functions';

const client = new Inngest({ id: 'herald-test' });
const calls: Array<{ payload: unknown; attempt: number }> = [];
let failWith: Error | undefined;

const publishJob = defineJob({
  name: 'test.publish',
  schema: z.object({ postId: z.string() }),
  retries: 2,
  handler: async (payload, ctx) => {
    calls.push({ payload, attempt: ctx.attempt });
    if (failWith) throw failWith;
  },
});

const sweepJob = defineJob({
  name: 'test.sweep',
  schema: z.object({}),
  cron: '*/5 * * * *',
  handler: async (payload, ctx) => {
    calls.push({ payload, attempt: ctx.attempt });
  },
});

function jobEvent(payload: unknown, extra: Partial<JobEventData> = {}) {
  const data: JobEventData = { payload, key: 'post:1:publish', enqueueId: 'e-1', runAt: null, ...extra };
  return { name: jobEventName('test.publish'), data };
}

beforeEach(() => {
  calls.length = 0;
  failWith = undefined;
});

describe('generated job functions', () => {
  it('runs the handler with the event payload', async () => {
    const t = new InngestTestEngine({ function: createJobFunction(client, publishJob), events: [jobEvent({ postId: 'p1' })] });
    const { error, ctx } = await t.execute();
    expect(error).toBeUndefined();
    expect(calls).toEqual([{ payload: { postId: 'p1' }, attempt: 1 }]);
    expect(ctx.step.sleepUntil).not.toHaveBeenCalled();
  });

  it('sleeps until runAt before running', async () => {
    const runAt = '2030-01-01T09:00:00.000Z';
    const t = new InngestTestEngine({
      function: createJobFunction(client, publishJob),
      events: [jobEvent({ postId: 'p2' }, { runAt })],
      steps: [{ id: 'wait-for-run-at', handler: () => undefined }],
    });
    const { error, ctx } = await t.execute();
    expect(error).toBeUndefined();
    expect(ctx.step.sleepUntil).toHaveBeenCalledWith('wait-for-run-at', runAt);
    expect(calls).toEqual([{ payload: { postId: 'p2' }, attempt: 1 }]);
  });

  it('surfaces a handler failure so Inngest retries it', async () => {
    failWith = new Error('platform is down');
    const t = new InngestTestEngine({ function: createJobFunction(client, publishJob), events: [jobEvent({ postId: 'p3' })] });
    const { error } = await t.execute();
    expect(calls).toHaveLength(1);
    expect(JSON.stringify(error)).toContain('platform is down');
  });

  it('does not run the handler on an invalid payload', async () => {
    const t = new InngestTestEngine({ function: createJobFunction(client, publishJob), events: [jobEvent({ postId: 42 })] });
    const { error } = await t.execute();
    expect(calls).toHaveLength(0);
    expect(JSON.stringify(error)).toContain('Invalid payload for job');
  });

  it('runs a cron job with the empty payload', async () => {
    const t = new InngestTestEngine({
      function: createJobFunction(client, sweepJob),
      events: [{ name: 'inngest/scheduled.timer', data: { cron: '*/5 * * * *' } }],
    });
    const { error } = await t.execute();
    expect(error).toBeUndefined();
    expect(calls).toEqual([{ payload: {}, attempt: 1 }]);
  });

  it('declares triggers, retries and the cancellation rules', () => {
    const fn = createJobFunction(client, sweepJob);
    expect(fn.opts.triggers).toEqual([{ event: 'herald/test.sweep' }, { cron: '*/5 * * * *' }]);
    expect(fn.opts.retries).toBe(4);
    expect(fn.opts.cancelOn).toEqual([
      {
        event: 'herald/test.sweep',
        if: 'async.data.key == event.data.key && async.data.enqueueId != event.data.enqueueId',
      },
      { event: JOB_CANCEL_EVENT, if: 'async.data.key == event.data.key' },
    ]);
    expect(createJobFunction(client, publishJob).opts.retries).toBe(2);
  });
});

describe('the app functions', () => {
  it('has one function per registry job, outbox.drain on a one-minute cron', () => {
    expect(functions.map((f) => f.opts.name)).toEqual(jobCatalogue.map((d) => d.name));
    const drain = functions.find((f) => f.opts.name === 'outbox.drain')!;
    expect(drain.id()).toBe('outbox-drain');
    expect(drain.opts.triggers).toEqual([{ event: 'herald/outbox.drain' }, { cron: '* * * * *' }]);
  });
});
