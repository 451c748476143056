// One attempt of each delivery a `webhooks.deliver` job carries (an event's endpoints, sent
// side by side, or one delivery).
//
//   claim   — one statement marks the attempts in flight (attemptStartedAt), only for pending
//             deliveries that are due and not already in flight: a duplicate job sends nothing.
//   send    — the stored bytes, signed with the endpoint's current secret, through the guarded
//             client (URL rules again, resolved address checked and pinned, no redirects),
//             10 s to answer.
//   record  — the outcome, the endpoint's counters and, on a failure, the next attempt
//             (+10 s, then +1 min; three in all) or the end; at the 20th consecutive failure
//             the endpoint pauses. Written only while the claim is still this attempt's.
//             Successes from every attempt in the process are written together: one statement
//             per flush, not per delivery (server/shared/coalesce.ts).
//
// A crash between claim and record leaves attemptStartedAt behind: once it is older than
// ATTEMPT_CLAIM_MS the sweep queues the delivery again, same id, same attempt number.
import type { Readable } from 'node:stream';
import { db } from '@/server/db/client';
import { sqlRows } from '@/server/db/sql';
import { Prisma } from '@/server/generated/prisma/client';
import { coalesce } from '@/server/shared/coalesce';
import { HEADERS, WEBHOOK_USER_AGENT } from '@/server/shared/headers';
import { OutboundFailedError, OutboundRefusedError } from '@/server/outbound';
import { cancelDeliveryJobs, enqueueDeliveryJobs } from './delivery-jobs';
import { ATTEMPT_CLAIM_MS, AUTO_PAUSE_THRESHOLD, failPendingDeliveries, notifyAutoPause, PAUSED_ERROR } from './pause';
import { openSecret, signPayload } from './secrets';
import { webhookTransport, type WebhookTransport } from './transport';
import { log, withLogContext } from '@/server/observability/log';

export const MAX_ATTEMPTS = 3;
/** Wait after the 1st and the 2nd failed attempt. */
export const RETRY_DELAYS_MS = [10_000, 60_000] as const;
/** A job may run this much before its time (clock skew between app and database) and still count as due. */
const DUE_TOLERANCE_MS = 1_000;
/** Bytes of a response read at most (enough to keep the connection reusable for small answers). */
export const RESPONSE_READ_CAP = 64 * 1024;
/** Characters of a failed response's body kept in `error`. */
const ERROR_EXCERPT_CHARS = 200;
const MAX_ERROR_CHARS = 1_000;

export type AttemptOutcome = 'delivered' | 'retrying' | 'failed' | 'not_due' | 'skipped';

interface Claimed {
  id: string;
  event: string;
  payload: string;
  attempt: number;
  endpointId: string;
  requestId: string | null;
  url: string;
  active: boolean;
  secretSealed: string;
  startedAt: Date;
}

interface SendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

async function claim(deliveryIds: readonly string[], startedAt: Date): Promise<Claimed[]> {
  const rows = await sqlRows<Omit<Claimed, 'startedAt'>>(Prisma.sql`
    UPDATE "WebhookDelivery" d SET "attemptStartedAt" = ${startedAt}
    FROM "WebhookEndpoint" e
    WHERE d."id" = ANY(${deliveryIds}::uuid[]) AND e."id" = d."endpointId" AND d."status" = 'pending'
      AND d."nextAttemptAt" <= ${new Date(startedAt.getTime() + DUE_TOLERANCE_MS)}
      AND (d."attemptStartedAt" IS NULL OR d."attemptStartedAt" < ${new Date(startedAt.getTime() - ATTEMPT_CLAIM_MS)})
    RETURNING d."id", d."event", d."payload", d."attempt", d."endpointId", d."requestId", e."url", e."active", e."secretSealed"`);
  return rows.map((row) => ({ ...row, startedAt }));
}

/** Reads at most RESPONSE_READ_CAP bytes and returns the start as text; the rest is dropped. */
async function readExcerpt(body: Readable): Promise<string> {
  const parts: Buffer[] = [];
  let read = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (read < 4 * ERROR_EXCERPT_CHARS) parts.push(chunk);
      read += chunk.length;
      if (read >= RESPONSE_READ_CAP) break;
    }
  } catch {
    // A body cut off after the status arrived does not change the outcome.
  } finally {
    body.destroy();
  }
  return Buffer.concat(parts).toString('utf8').replace(/\s+/g, ' ').trim().slice(0, ERROR_EXCERPT_CHARS);
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof OutboundRefusedError) return `Refused before sending: ${error.reason}`;
  if (error instanceof OutboundFailedError) {
    return error.code === 'timeout' ? `The receiver did not answer within ${timeoutMs / 1000} s` : error.reason;
  }
  return error instanceof Error ? error.message : String(error);
}

async function send(delivery: Claimed, transport: WebhookTransport): Promise<SendResult> {
  try {
    const signature = signPayload(openSecret(delivery.secretSealed), delivery.payload);
    const response = await transport.stream(delivery.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': WEBHOOK_USER_AGENT,
        [HEADERS.signature]: signature,
        [HEADERS.event]: delivery.event,
        [HEADERS.delivery]: delivery.id,
      },
      body: delivery.payload,
      timeoutMs: transport.timeoutMs,
      // The body is read (capped) here; a large answer is not a reason to fail a 2xx.
      maxBytes: Number.MAX_SAFE_INTEGER,
    });
    const status = response.status;
    const excerpt = await readExcerpt(response.body);
    if (status >= 200 && status < 300) return { ok: true, statusCode: status, error: null };
    if (status >= 300 && status < 400) {
      return {
        ok: false,
        statusCode: status,
        error: `The receiver answered ${status}; redirects are not followed${response.headers.get('location') ? ` (Location: ${response.headers.get('location')})` : ''}`,
      };
    }
    return { ok: false, statusCode: status, error: `The receiver answered ${status}${excerpt ? `: ${excerpt}` : ''}` };
  } catch (error) {
    return { ok: false, statusCode: null, error: describeFailure(error, transport.timeoutMs) };
  }
}

class StaleClaim extends Error {}

/** PostgreSQL's answer to two transactions that each wait for the other: retrying one succeeds. */
const DEADLOCK = '40P01';

interface Success {
  delivery: Claimed;
  statusCode: number | null;
  at: Date;
}

/**
 * Records successes: the deliveries delivered, their endpoints' counters reset, in one
 * statement for every success that arrived while the previous write was in flight. Resolves
 * per success with whether the claim was still its own. Rows are written in id order, so two
 * instances writing at once rarely wait on each other; when they deadlock, the one PostgreSQL
 * aborts tries again.
 */
const recordSuccesses = coalesce<Success, boolean>(
  async (items) => {
    const sorted = [...items].sort((a, b) => (a.delivery.id < b.delivery.id ? -1 : 1));
    const statement = Prisma.sql`
    WITH input AS (
      SELECT * FROM unnest(${sorted.map((s) => s.delivery.id)}::uuid[], ${sorted.map((s) => s.statusCode)}::int[],
                           ${sorted.map((s) => s.delivery.startedAt.toISOString())}::timestamp(3)[], ${sorted.map((s) => s.at.toISOString())}::timestamp(3)[])
        AS i("id", "statusCode", "startedAt", "at")
    ), d AS (
      UPDATE "WebhookDelivery" w SET "status" = 'delivered', "attempt" = w."attempt" + 1, "statusCode" = i."statusCode", "error" = NULL,
        "nextAttemptAt" = NULL, "deliveredAt" = i."at", "lastAttemptAt" = i."at", "attemptStartedAt" = NULL
      FROM input i
      WHERE w."id" = i."id" AND w."status" = 'pending' AND w."attemptStartedAt" = i."startedAt"
      RETURNING w."id", w."endpointId", i."at"
    ), e AS (
      UPDATE "WebhookEndpoint" e SET "consecutiveFailures" = 0, "lastDeliveryAt" = GREATEST(e."lastDeliveryAt", m."at")
      FROM (SELECT "endpointId", max("at") AS "at" FROM d GROUP BY "endpointId") m
      WHERE e."id" = m."endpointId"
    )
    SELECT "id" FROM d`;
    for (let attempt = 1; ; attempt++) {
      try {
        const written = new Set((await sqlRows<{ id: string }>(statement)).map((r) => r.id));
        return items.map((s) => written.has(s.delivery.id));
      } catch (error) {
        if ((error as { code?: string }).code !== DEADLOCK || attempt >= 3) throw error;
      }
    }
  },
  { maxBatch: 500 },
);

async function recordSuccess(delivery: Claimed, result: SendResult, at: Date): Promise<AttemptOutcome> {
  return (await recordSuccesses({ delivery, statusCode: result.statusCode, at })) ? 'delivered' : 'skipped';
}

async function recordFailure(delivery: Claimed, result: SendResult, at: Date): Promise<AttemptOutcome> {
  const attempt = delivery.attempt + 1;
  let cancelled: string[] = [];
  let nextAttemptAt: Date | null = null;
  try {
    await db.$transaction(async (tx) => {
      // Endpoint first, then the delivery: the order every writer of both follows.
      const [endpoint] = await tx.$queryRaw<{ active: boolean; wasActive: boolean; workspaceId: string; name: string; url: string }[]>`
        WITH old AS (SELECT "id", "active" FROM "WebhookEndpoint" WHERE "id" = ${delivery.endpointId}::uuid FOR NO KEY UPDATE)
        UPDATE "WebhookEndpoint" e SET
          "consecutiveFailures" = e."consecutiveFailures" + 1,
          "active" = e."active" AND e."consecutiveFailures" + 1 < ${AUTO_PAUSE_THRESHOLD},
          "updatedAt" = CASE WHEN e."active" AND e."consecutiveFailures" + 1 >= ${AUTO_PAUSE_THRESHOLD} THEN ${at} ELSE e."updatedAt" END
        FROM old WHERE e."id" = old."id"
        RETURNING e."active", old."active" AS "wasActive", e."workspaceId", e."name", e."url"`;
      if (!endpoint) throw new StaleClaim(); // deleted meanwhile
      nextAttemptAt = attempt < MAX_ATTEMPTS && endpoint.active ? new Date(at.getTime() + RETRY_DELAYS_MS[attempt - 1]!) : null;
      const changed = await tx.$executeRaw`
        UPDATE "WebhookDelivery" SET "attempt" = ${attempt}, "statusCode" = ${result.statusCode}, "error" = ${result.error?.slice(0, MAX_ERROR_CHARS) ?? null},
          "lastAttemptAt" = ${at}, "attemptStartedAt" = NULL,
          "status" = ${nextAttemptAt ? 'pending' : 'failed'}, "nextAttemptAt" = ${nextAttemptAt}, "failedAt" = ${nextAttemptAt ? null : at}
        WHERE "id" = ${delivery.id}::uuid AND "status" = 'pending' AND "attemptStartedAt" = ${delivery.startedAt}`;
      if (!changed) throw new StaleClaim();
      if (endpoint.wasActive && !endpoint.active) {
        cancelled = await failPendingDeliveries(tx, delivery.endpointId, at);
        await notifyAutoPause(tx, { id: delivery.endpointId, workspaceId: endpoint.workspaceId, name: endpoint.name, url: endpoint.url });
      }
    });
  } catch (error) {
    if (error instanceof StaleClaim) return 'skipped';
    throw error;
  }
  if (nextAttemptAt) await enqueueDeliveryJobs([[delivery.id]], nextAttemptAt);
  await cancelDeliveryJobs(cancelled);
  return nextAttemptAt ? 'retrying' : 'failed';
}

/**
 * A delivery the claim did not take: not pending, in flight elsewhere, or not yet due. A job
 * that ran before its time (clock skew) puts its delivery back rather than leave it to the sweep.
 */
async function settleUnclaimed(deliveryIds: readonly string[], startedAt: Date): Promise<Map<string, AttemptOutcome>> {
  const outcomes = new Map<string, AttemptOutcome>();
  const rows = await db.webhookDelivery.findMany({
    where: { id: { in: [...deliveryIds] } },
    select: { id: true, status: true, nextAttemptAt: true, attemptStartedAt: true },
  });
  for (const row of rows) {
    if (row.status === 'pending' && !row.attemptStartedAt && row.nextAttemptAt && row.nextAttemptAt.getTime() > startedAt.getTime() + DUE_TOLERANCE_MS) {
      await enqueueDeliveryJobs([[row.id]], row.nextAttemptAt);
      outcomes.set(row.id, 'not_due');
    }
  }
  return outcomes;
}

async function attemptClaimed(delivery: Claimed, transport: WebhookTransport): Promise<AttemptOutcome> {
  return withLogContext({ requestId: delivery.requestId ?? undefined }, async () => {
    const result = await send(delivery, transport);
    const at = transport.now();
    if (result.ok) return recordSuccess(delivery, result, at);
    const outcome = await recordFailure(delivery, result, at);
    log.warn('webhooks', `delivery attempt ${delivery.attempt + 1} failed (${outcome})`, undefined, {
      deliveryId: delivery.id,
      endpointId: delivery.endpointId,
      event: delivery.event,
    });
    return outcome;
  });
}

/**
 * Attempts each delivery that is due and not in flight elsewhere, side by side; returns what
 * happened to each, in the order given.
 */
export async function attemptDeliveries(deliveryIds: readonly string[]): Promise<AttemptOutcome[]> {
  const transport = webhookTransport();
  const startedAt = transport.now();
  const claimed = await claim(deliveryIds, startedAt);
  const outcomes =
    claimed.length < deliveryIds.length
      ? await settleUnclaimed(
          deliveryIds.filter((id) => !claimed.some((c) => c.id === id)),
          startedAt,
        )
      : new Map<string, AttemptOutcome>();
  const paused = claimed.filter((d) => !d.active).map((d) => d.id);
  if (paused.length) {
    // Paused after the job was queued: recorded as failed by the pause, unless it was in flight then.
    await db.webhookDelivery.updateMany({
      where: { id: { in: paused }, status: 'pending', attemptStartedAt: startedAt },
      data: { status: 'failed', error: PAUSED_ERROR, nextAttemptAt: null, failedAt: startedAt, attemptStartedAt: null },
    });
    for (const id of paused) outcomes.set(id, 'failed');
  }
  await Promise.all(
    claimed
      .filter((d) => d.active)
      .map(async (d) => {
        outcomes.set(d.id, await attemptClaimed(d, transport));
      }),
  );
  return deliveryIds.map((id) => outcomes.get(id) ?? 'skipped');
}

/** Attempts one delivery if it is due and not in flight elsewhere; returns what happened. */
export async function attemptDelivery(deliveryId: string): Promise<AttemptOutcome> {
  const [outcome] = await attemptDeliveries([deliveryId]);
  return outcome!;
}
