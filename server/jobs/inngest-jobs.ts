// The Inngest adapter of the jobs port: enqueueing sends an event, Inngest calls back into
// /api/inngest (inngest/functions.ts) to run it.
//
// A send goes to Inngest over the network. A user action must never wait on it or fail
// because of it, so each send is raced against a short timeout and failures are logged.
import { randomUUID } from 'node:crypto';
import type { Inngest } from 'inngest';
import { findDefinition, type AnyJobSpec, type EnqueueOptions, type JobsPort } from './definition';
import { jobEventName, JOB_CANCEL_EVENT, type JobCancelData, type JobEventData } from './inngest-events';
import { log } from '@/server/observability/log';
import { withEnqueuingRequest } from './run-job';

export interface InngestJobsOptions<Defs extends readonly AnyJobSpec[]> {
  definitions: Defs;
  /** How long a send may take before the caller moves on (the send itself is not abandoned). */
  sendTimeoutMs?: number;
  onSendFailure?: (error: unknown, eventName: string) => void;
}

type Sender = Pick<Inngest.Any, 'send'>;

const DEFAULT_SEND_TIMEOUT_MS = 1_500;

export function createInngestJobs<Defs extends readonly AnyJobSpec[]>(client: Sender, options: InngestJobsOptions<Defs>): JobsPort<Defs> {
  const timeoutMs = options.sendTimeoutMs ?? DEFAULT_SEND_TIMEOUT_MS;
  const onFailure = options.onSendFailure ?? ((error: unknown, eventName: string) => log.error('jobs', `could not send ${eventName} to Inngest`, error));

  async function send(name: string, data: JobEventData | JobCancelData, id?: string): Promise<void> {
    await sendAll(name, [{ data, id }]);
  }

  /** One request for several events of one name. */
  async function sendAll(name: string, events: { data: JobEventData | JobCancelData; id?: string }[]): Promise<void> {
    const payload = events.map(({ data, id }) => ({ name, data, ...(id ? { id } : {}) }));
    const sending = client.send(payload.length === 1 ? payload[0]! : payload);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
      timer.unref();
    });
    try {
      const outcome = await Promise.race([sending, timedOut]);
      if (outcome === 'timeout') {
        // Still report a late failure, but nobody waits for it.
        sending.catch((error: unknown) => onFailure(error, name));
        onFailure(new Error(`Inngest did not accept the event within ${timeoutMs} ms`), name);
      }
    } catch (error) {
      onFailure(error, name);
    } finally {
      clearTimeout(timer);
    }
  }

  function eventOf(payload: unknown, opts: EnqueueOptions): { data: JobEventData; id: string } {
    const enqueueId = randomUUID();
    const data: JobEventData = {
      payload: withEnqueuingRequest(payload),
      key: opts.key ?? `once:${enqueueId}`,
      enqueueId,
      runAt: opts.runAt ? opts.runAt.toISOString() : null,
    };
    // The event id makes a retried send idempotent on Inngest's side.
    return { data, id: enqueueId };
  }

  return {
    async enqueue(name, payload, opts: EnqueueOptions = {}) {
      // A bad payload is a programming error: fail loudly at the caller, not later in a run.
      findDefinition(options.definitions, name).schema.parse(payload);
      const event = eventOf(payload, opts);
      await send(jobEventName(name), event.data, event.id);
    },
    async enqueueMany(name, items) {
      if (items.length === 0) return;
      const definition = findDefinition(options.definitions, name);
      for (const item of items) definition.schema.parse(item.payload);
      await sendAll(
        jobEventName(name),
        items.map(({ payload, ...opts }) => eventOf(payload, opts)),
      );
    },
    async cancel(key) {
      await send(JOB_CANCEL_EVENT, { key });
    },
  };
}
