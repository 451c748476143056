// The one place a job's payload is validated and its handler called, whichever adapter runs it.
import { currentRequestId, withLogContext } from '@/server/observability/log';
import type { AnyJobDefinition, JobContext } from './definition';

/** Thrown for a payload the schema rejects: retrying cannot help, so adapters do not retry it. */
export class InvalidJobPayloadError extends Error {
  readonly name = 'InvalidJobPayloadError';
}

/**
 * The id of the request that queued a job rides in its stored payload under this field, for
 * the job's log lines only: runners strip it before the payload is validated, so job schemas
 * stay strict and handlers never see it.
 */
export const REQUEST_ID_FIELD = '_requestId';

/** The payload a runner stores: the enqueuing request's id added when there is one. */
export function withEnqueuingRequest(payload: unknown): unknown {
  const requestId = currentRequestId();
  if (!requestId || !payload || typeof payload !== 'object' || Array.isArray(payload)) return payload;
  return { ...(payload as Record<string, unknown>), [REQUEST_ID_FIELD]: requestId };
}

function splitRequestId(payload: unknown): { payload: unknown; requestId?: string } {
  if (!payload || typeof payload !== 'object' || !(REQUEST_ID_FIELD in payload)) return { payload };
  const { [REQUEST_ID_FIELD]: requestId, ...rest } = payload as Record<string, unknown>;
  return { payload: rest, requestId: typeof requestId === 'string' ? requestId : undefined };
}

export async function runJob(definition: AnyJobDefinition, stored: unknown, ctx: JobContext): Promise<void> {
  const { payload, requestId } = splitRequestId(stored);
  const parsed = definition.schema.safeParse(payload ?? {});
  if (!parsed.success) {
    throw new InvalidJobPayloadError(`Invalid payload for job "${definition.name}": ${parsed.error.message}`);
  }
  // Every line the job logs names it; work that comes from an event names the request too.
  await withLogContext({ job: `${definition.name}#${ctx.attempt}`, ...(requestId ? { requestId } : {}) }, () => definition.handler(parsed.data, ctx));
}
