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
// never both execute, whichever process they land on. Each claim has its own id (a new one
// on takeover), and releasing or completing a claim names that id: an owner that lost its
// claim can never undo or overwrite its successor's.
//
// When the database goes away mid-request (docs/decisions.md → Idempotency), the release or
// completion that follows fails too. It is then retried in the background until the
// database answers (settleLater), and a new claim of the same key in this process first
// settles it, so the client's retry with the same key is neither blocked nor run twice.
import { createHash, randomUUID } from 'node:crypto';
import { db } from '@/server/db/client';
import { isDatabaseUnavailable } from '@/server/db/unavailable';
import { env } from '@/server/config/env';
import { AppError } from '@/server/errors/app-error';
import { Prisma } from '@/server/generated/prisma/client';
import { log } from '@/server/observability/log';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/**
 * How long an in-flight claim holds its key when nothing releases it (its process died).
 * Longer than any request may run: importing ten media URLs alone may take four minutes.
 * A database outage does not wait for it: the live process settles its claims itself.
 */
export const IN_FLIGHT_LEASE_MS = 5 * 60_000;

export type Claim = { kind: 'execute'; recordId: string; workspaceId: string; key: string } | { kind: 'replay'; statusCode: number; body: unknown };
export type ExecuteClaim = Extract<Claim, { kind: 'execute' }>;

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

/**
 * Visible ASCII and spaces. Node's HTTP parser already refuses most control bytes in a
 * header (400, empty body), but lets a tab and bytes 0x80–0xFF through (read as Latin-1);
 * a key is an opaque token, so those are refused here rather than stored as mojibake.
 */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]+$/;

export function validateIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new AppError('VALIDATION_FAILED', `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`, { field: 'Idempotency-Key' });
  }
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new AppError('VALIDATION_FAILED', 'Idempotency-Key may contain only visible ASCII characters and spaces', { field: 'Idempotency-Key' });
  }
}

export async function claimIdempotencyKey(opts: { workspaceId: string; key: string; fingerprint: string }): Promise<Claim> {
  validateIdempotencyKey(opts.key);
  await settlePending(opts.workspaceId, opts.key);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + env.idempotencyTtlHours() * 3_600_000);
  const leaseCutoff = new Date(now.getTime() - IN_FLIGHT_LEASE_MS);
  const recordId = randomUUID();

  // One statement claims the key: insert, or take over an expired record / abandoned claim
  // (with this claim's id). RETURNING yields a row only when this request now owns the key.
  let claimed: { id: string }[];
  try {
    claimed = await db.$queryRaw<{ id: string }[]>(Prisma.sql`
      INSERT INTO "IdempotencyRecord" ("id", "workspaceId", "key", "fingerprint", "state", "createdAt", "expiresAt")
      VALUES (${recordId}::uuid, ${opts.workspaceId}::uuid, ${opts.key}, ${opts.fingerprint}, 'in_flight', ${now}, ${expiresAt})
      ON CONFLICT ("workspaceId", "key") DO UPDATE
        SET "id" = EXCLUDED."id", "fingerprint" = EXCLUDED."fingerprint", "state" = 'in_flight', "statusCode" = NULL, "body" = NULL,
            "createdAt" = EXCLUDED."createdAt", "expiresAt" = EXCLUDED."expiresAt"
        WHERE "IdempotencyRecord"."expiresAt" <= ${now}
           OR ("IdempotencyRecord"."state" = 'in_flight' AND "IdempotencyRecord"."createdAt" < ${leaseCutoff}
               AND "IdempotencyRecord"."fingerprint" = EXCLUDED."fingerprint")
      RETURNING "id"`);
  } catch (err) {
    // The connection may have dropped after the claim committed: give it back once the
    // database answers, or the client's retry would wait out the lease.
    if (isDatabaseUnavailable(err)) settleLater(opts.workspaceId, opts.key, () => deleteClaim(recordId));
    throw err;
  }
  if (claimed[0]) return { kind: 'execute', recordId: claimed[0].id, workspaceId: opts.workspaceId, key: opts.key };

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
    throw new AppError('IDEMPOTENCY_IN_FLIGHT', 'A request with this Idempotency-Key is still running; retry with the same key to get its result', {
      field: 'Idempotency-Key',
    });
  }
  return { kind: 'replay', statusCode: existing.statusCode ?? 200, body: existing.body };
}

async function storeResponse(recordId: string, statusCode: number, body: unknown): Promise<void> {
  await db.idempotencyRecord.updateMany({
    where: { id: recordId, state: 'in_flight' },
    data: { state: 'completed', statusCode, body: body === undefined ? Prisma.JsonNull : (body as Prisma.InputJsonValue) },
  });
}

async function deleteClaim(recordId: string): Promise<void> {
  await db.idempotencyRecord.deleteMany({ where: { id: recordId, state: 'in_flight' } });
}

/**
 * Stores the successful response for replay. The work is done whatever happens here: if the
 * database cannot be reached, the response is stored later (and the client still gets it).
 */
export async function completeIdempotencyKey(claim: ExecuteClaim, statusCode: number, body: unknown): Promise<void> {
  try {
    await storeResponse(claim.recordId, statusCode, body);
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    settleLater(claim.workspaceId, claim.key, () => storeResponse(claim.recordId, statusCode, body));
  }
}

/** Gives the key back after a failed request, so the client may retry with it. */
export async function releaseIdempotencyKey(claim: ExecuteClaim): Promise<void> {
  try {
    await deleteClaim(claim.recordId);
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    settleLater(claim.workspaceId, claim.key, () => deleteClaim(claim.recordId));
  }
}

// ── Settling claims the database could not take at the time ──
// One pending step per key in this process: a release, or storing a response. Retried with
// backoff until the database answers; pointless after the lease (the claim may be taken over
// by then, and its own id keeps the step from touching the successor), so it stops there.

interface PendingStep {
  run: () => Promise<void>;
  done: boolean;
}

const globalForPending = globalThis as unknown as { heraldIdempotencyPending?: Map<string, PendingStep> };
const pending = (globalForPending.heraldIdempotencyPending ??= new Map<string, PendingStep>());
const pendingKey = (workspaceId: string, key: string) => `${workspaceId}\u0000${key}`;
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 5_000;

function settleLater(workspaceId: string, key: string, run: () => Promise<void>): void {
  const id = pendingKey(workspaceId, key);
  const step: PendingStep = { run, done: false };
  pending.set(id, step);
  const giveUpAt = Date.now() + IN_FLIGHT_LEASE_MS;
  const attempt = async (delay: number): Promise<void> => {
    if (step.done) return;
    try {
      await step.run();
      finish(id, step);
    } catch (err) {
      if (!isDatabaseUnavailable(err) || Date.now() + delay > giveUpAt) {
        finish(id, step);
        log.warn('idempotency', `could not settle a claim of key "${key}"`, err);
        return;
      }
      setTimeout(() => void attempt(Math.min(delay * 2, RETRY_MAX_MS)), delay).unref();
    }
  };
  setTimeout(() => void attempt(RETRY_FIRST_MS), RETRY_FIRST_MS).unref();
}

function finish(id: string, step: PendingStep): void {
  step.done = true;
  if (pending.get(id) === step) pending.delete(id);
}

/** Settles a pending step of this key now, if there is one (best effort). */
async function settlePending(workspaceId: string, key: string): Promise<void> {
  const id = pendingKey(workspaceId, key);
  const step = pending.get(id);
  if (!step || step.done) return;
  try {
    await step.run();
    finish(id, step);
  } catch {
    // Still unreachable: the claim below fails the same way and answers 503.
  }
}

/** Steps still waiting for the database (tests and the chaos script read it). */
export function pendingIdempotencySteps(): number {
  return [...pending.values()].filter((s) => !s.done).length;
}

/** Housekeeping (run by a job): forget expired keys. */
export async function purgeExpiredIdempotencyRecords(): Promise<number> {
  const { count } = await db.idempotencyRecord.deleteMany({ where: { expiresAt: { lte: new Date() } } });
  return count;
}
