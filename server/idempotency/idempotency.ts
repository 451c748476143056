// Idempotency-Key handling for every write (REST, tRPC, tool endpoint — it runs as a
// procedure middleware, so all three get it). Rules (docs/decisions.md):
// - at most 255 characters, else 400 VALIDATION_FAILED;
// - scoped to the acting workspace; the "same request" is the same procedure with the
//   same input (sha256 fingerprint);
// - the first successful response (status + body) is stored and replayed for 24 hours;
// - same key, different request → 422 IDEMPOTENCY_KEY_CONFLICT;
// - same key while the first request still runs → 409 IDEMPOTENCY_IN_FLIGHT;
// - a request that fails releases its key, so the client may retry with the same key;
// - an in-flight claim older than IN_FLIGHT_LEASE_MS is treated as abandoned (the process
//   died mid-request) and may be taken over.
// The claim is a row insert guarded by a unique index, so two concurrent duplicates can
// never both execute, whichever process they land on.
import { createHash } from 'node:crypto';
import { db } from '@/server/db/client';
import { env } from '@/server/config/env';
import { AppError } from '@/server/errors/app-error';
import { Prisma } from '@/server/generated/prisma/client';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const IN_FLIGHT_LEASE_MS = 5 * 60_000;

export type Claim =
  | { kind: 'execute'; recordId: string }
  | { kind: 'replay'; statusCode: number; body: unknown };

/** Stable JSON: object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
function canonical(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

export function fingerprint(operation: string, input: unknown): string {
  return createHash('sha256').update(operation).update('\n').update(canonical(input)).digest('hex');
}

export function validateIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new AppError('VALIDATION_FAILED', `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`, { field: 'Idempotency-Key' });
  }
}

export async function claimIdempotencyKey(opts: { workspaceId: string; key: string; fingerprint: string }): Promise<Claim> {
  validateIdempotencyKey(opts.key);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + env.idempotencyTtlHours() * 3_600_000);
  const leaseCutoff = new Date(now.getTime() - IN_FLIGHT_LEASE_MS);

  // One statement claims the key: insert, or take over an expired record / abandoned claim.
  // RETURNING yields a row only when this request now owns the key.
  const claimed = await db.$queryRaw<{ id: string }[]>(Prisma.sql`
    INSERT INTO "IdempotencyRecord" ("id", "workspaceId", "key", "fingerprint", "state", "createdAt", "expiresAt")
    VALUES (gen_random_uuid(), ${opts.workspaceId}::uuid, ${opts.key}, ${opts.fingerprint}, 'in_flight', ${now}, ${expiresAt})
    ON CONFLICT ("workspaceId", "key") DO UPDATE
      SET "fingerprint" = EXCLUDED."fingerprint", "state" = 'in_flight', "statusCode" = NULL, "body" = NULL,
          "createdAt" = EXCLUDED."createdAt", "expiresAt" = EXCLUDED."expiresAt"
      WHERE "IdempotencyRecord"."expiresAt" <= ${now}
         OR ("IdempotencyRecord"."state" = 'in_flight' AND "IdempotencyRecord"."createdAt" < ${leaseCutoff}
             AND "IdempotencyRecord"."fingerprint" = EXCLUDED."fingerprint")
    RETURNING "id"`);
  if (claimed[0]) return { kind: 'execute', recordId: claimed[0].id };

  const existing = await db.idempotencyRecord.findUnique({
    where: { workspaceId_key: { workspaceId: opts.workspaceId, key: opts.key } },
  });
  if (!existing) {
    // Released between our insert and read (the first request failed): claim again.
    return claimIdempotencyKey(opts);
  }
  if (existing.fingerprint !== opts.fingerprint) {
    throw new AppError('IDEMPOTENCY_KEY_CONFLICT', 'This Idempotency-Key was already used with a different request', { field: 'Idempotency-Key' });
  }
  if (existing.state !== 'completed') {
    throw new AppError('IDEMPOTENCY_IN_FLIGHT', 'A request with this Idempotency-Key is still running; retry with the same key to get its result', { field: 'Idempotency-Key' });
  }
  return { kind: 'replay', statusCode: existing.statusCode ?? 200, body: existing.body };
}

export async function completeIdempotencyKey(recordId: string, statusCode: number, body: unknown): Promise<void> {
  await db.idempotencyRecord.update({
    where: { id: recordId },
    data: { state: 'completed', statusCode, body: body === undefined ? Prisma.JsonNull : (body as Prisma.InputJsonValue) },
  });
}

export async function releaseIdempotencyKey(recordId: string): Promise<void> {
  await db.idempotencyRecord.deleteMany({ where: { id: recordId, state: 'in_flight' } });
}

/** Housekeeping (run by a job): forget expired keys. */
export async function purgeExpiredIdempotencyRecords(): Promise<number> {
  const { count } = await db.idempotencyRecord.deleteMany({ where: { expiresAt: { lte: new Date() } } });
  return count;
}
