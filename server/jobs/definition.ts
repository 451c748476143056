// What a background job is, independent of where it runs. The same definition (and so the
// same handler code) runs on the local graphile-worker runner and on Inngest.
import type { z } from 'zod';

export interface JobContext {
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the runner shuts down; long handlers should stop early and throw. */
  signal: AbortSignal;
}

/**
 * What the rest of Herald knows about a job: its name, payload, retries and schedule — no
 * handler. Domain code enqueues against these (server/jobs/catalogue.ts); the handlers are
 * bound in one composition root (server/runtime/job-handlers.ts), so the port never imports
 * the code that uses it.
 */
export interface JobSpec<Name extends string = string, Schema extends z.ZodType = z.ZodType> {
  /** Also the Inngest event suffix (`herald/<name>`) and the graphile-worker task identifier. */
  name: Name;
  schema: Schema;
  /** Retries after the first failure (default DEFAULT_RETRIES). Backoff is exponential on both adapters. */
  retries?: number;
  /** Five-field cron pattern (UTC); the job then also runs on that schedule with payload `{}`. */
  cron?: string;
}

export type JobHandler<Schema extends z.ZodType = z.ZodType> = (payload: z.output<Schema>, ctx: JobContext) => Promise<void>;

/** A spec with its handler: what the runners run. */
export interface JobDefinition<Name extends string = string, Schema extends z.ZodType = z.ZodType> extends JobSpec<Name, Schema> {
  /** A plain async function: it calls services and throws to ask for a retry. */
  handler: JobHandler<Schema>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list mixes payload types
export type AnyJobSpec = JobSpec<string, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list mixes payload types
export type AnyJobDefinition = JobDefinition<string, any>;

/** One handler per job of the catalogue: a missing or extra name is a type error. */
export type JobHandlers<Specs extends readonly AnyJobSpec[]> = {
  [S in Specs[number] as S['name']]: JobHandler<S['schema']>;
};

/** Joins each spec with its handler (the composition root's only job). */
export function bindHandlers<const Specs extends readonly AnyJobSpec[]>(specs: Specs, handlers: JobHandlers<Specs>): AnyJobDefinition[] {
  const byName = handlers as unknown as Record<string, JobHandler>;
  return specs.map((spec) => {
    const handler = byName[spec.name];
    if (!handler) throw new Error(`No handler for job "${spec.name}"`);
    return { ...spec, handler };
  });
}

/** Inngest's own default, used on the local runner too so both behave alike. */
export const DEFAULT_RETRIES = 4;

/** Keeps the literal name and the schema type, so the catalogue can type `enqueue`. */
export function defineJobSpec<const Name extends string, Schema extends z.ZodType>(spec: JobSpec<Name, Schema>): JobSpec<Name, Schema> {
  return spec;
}

/** A runnable job in one piece (tests, and jobs private to a runner). */
export function defineJob<const Name extends string, Schema extends z.ZodType>(definition: JobDefinition<Name, Schema>): JobDefinition<Name, Schema> {
  return definition;
}

export function maxAttemptsOf(definition: AnyJobSpec): number {
  return (definition.retries ?? DEFAULT_RETRIES) + 1;
}

/** The payload a cron run gets: the schema must accept `{}` for a job that has a cron. */
export const CRON_PAYLOAD = {};

export type JobNameOf<Defs extends readonly AnyJobSpec[]> = Defs[number]['name'];
export type JobPayloadOf<Defs extends readonly AnyJobSpec[], Name extends JobNameOf<Defs>> = z.input<Extract<Defs[number], { name: Name }>['schema']>;

export interface EnqueueOptions {
  /** Run no earlier than this. */
  runAt?: Date;
  /**
   * Identifies the pending job: enqueueing again with the same key replaces it (payload and
   * runAt), which is how a rescheduled post moves its publish job. Also what `cancel` takes.
   */
  key?: string;
}

/** The port all background work goes through; see server/jobs/index.ts for the adapters. */
/** One job of an enqueueMany batch. */
export interface EnqueueItem<Payload> extends EnqueueOptions {
  payload: Payload;
}

export interface JobsPort<Defs extends readonly AnyJobSpec[]> {
  enqueue<Name extends JobNameOf<Defs>>(name: Name, payload: JobPayloadOf<Defs, Name>, opts?: EnqueueOptions): Promise<void>;
  /**
   * Several jobs of one kind in one round trip (a fan-out). Same semantics as calling enqueue
   * for each; keys within one batch must differ.
   */
  enqueueMany<Name extends JobNameOf<Defs>>(name: Name, jobs: readonly EnqueueItem<JobPayloadOf<Defs, Name>>[]): Promise<void>;
  /** Drops the pending job with this key; a run already in progress finishes. */
  cancel(key: string): Promise<void>;
}

/** Looks a definition up by name; unknown names are a programming error. */
export function findDefinition<Defs extends readonly AnyJobSpec[]>(definitions: Defs, name: string): Defs[number] {
  const definition = definitions.find((d) => d.name === name);
  if (!definition) throw new Error(`Unknown job "${name}"`);
  return definition;
}
