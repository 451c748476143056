// The one place a job's payload is validated and its handler called, whichever adapter runs it.
import { withLogContext } from '@/server/observability/log';
import type { AnyJobDefinition, JobContext } from './definition';

/** Thrown for a payload the schema rejects: retrying cannot help, so adapters do not retry it. */
export class InvalidJobPayloadError extends Error {
  readonly name = 'InvalidJobPayloadError';
}

export async function runJob(definition: AnyJobDefinition, payload: unknown, ctx: JobContext): Promise<void> {
  const parsed = definition.schema.safeParse(payload ?? {});
  if (!parsed.success) {
    throw new InvalidJobPayloadError(`Invalid payload for job "${definition.name}": ${parsed.error.message}`);
  }
  // Every line the job logs names it; work that comes from an event names the request too.
  await withLogContext({ job: `${definition.name}#${ctx.attempt}` }, () => definition.handler(parsed.data, ctx));
}
