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

export interface JobDefinition<Name extends string = string, Schema extends z.ZodType = z.ZodType> {
  /** Also the Inngest event suffix (`herald/<name>`) and the graphile-worker task identifier. */
  name: Name;
  schema: Schema;
  /** A plain async function: it calls services and throws to ask for a retry. */
  handler: (payload: z.output<Schema>, ctx: JobContext) => Promise<void>;
  /** Retries after the first failure (default DEFAULT_RETRIES). Backoff is exponential on both adapters. */
  retries?: number;
  /** Five-field cron pattern (UTC); the job then also runs on that schedule with payload `{}`. */
  cron?: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list mixes payload types
export type AnyJobDefinition = JobDefinition<string, any>;

/** Inngest's own default, used on the local runner too so both behave alike. */
export const DEFAULT_RETRIES = 4;

/** Keeps the literal name and the schema type, so the registry can type `enqueue`. */
export function defineJob<const Name extends string, Schema extends z.ZodType>(
  definition: JobDefinition<Name, Schema>,
): JobDefinition<Name, Schema> {
  return definition;
}

export function maxAttemptsOf(definition: AnyJobDefinition): number {
  return (definition.retries ?? DEFAULT_RETRIES) + 1;
}

/** The payload a cron run gets: the schema must accept `{}` for a job that has a cron. */
export const CRON_PAYLOAD = {};

export type JobNameOf<Defs extends readonly AnyJobDefinition[]> = Defs[number]['name'];
export type JobPayloadOf<Defs extends readonly AnyJobDefinition[], Name extends JobNameOf<Defs>> = z.input<
  Extract<Defs[number], { name: Name }>['schema']
>;

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
export interface JobsPort<Defs extends readonly AnyJobDefinition[]> {
  enqueue<Name extends JobNameOf<Defs>>(name: Name, payload: JobPayloadOf<Defs, Name>, opts?: EnqueueOptions): Promise<void>;
  /** Drops the pending job with this key; a run already in progress finishes. */
  cancel(key: string): Promise<void>;
}

/** Looks a definition up by name; unknown names are a programming error. */
export function findDefinition<Defs extends readonly AnyJobDefinition[]>(definitions: Defs, name: string): Defs[number] {
  const definition = definitions.find((d) => d.name === name);
  if (!definition) throw new Error(`Unknown job "${name}"`);
  return definition;
}
