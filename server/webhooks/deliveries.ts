// Deliveries: the fan-out of domain events (an outbox consumer), the delivery log, redelivery,
// the test ping and recovery after an outage. Every delivery row is created before its job is
// queued, and the job only after the row committed.
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { isDomainEventType, type DomainEventType } from '@/server/events/catalogue';
import type { OutboxConsumer } from '@/server/events/consumers';
import type { WebhookEndpoint } from '@/server/generated/prisma/client';
import { isUuid } from '@/server/shared/schemas';
import { enqueueDeliveryJobs } from './delivery-jobs';
import { endpointNotFound, findEndpoint } from './endpoints';
import { eventData, PING_EVENT, serializeEnvelope } from './envelope';
import { webhookTransport } from './transport';
import { toDeliveryDto } from './webhook-dto';
import type { RecoverResultDto, WebhookDeliveryDto } from './webhooks.schemas';

export const PING_MESSAGE = 'A test delivery from Herald: this endpoint is reachable.';
/** Deliveries re-queued by one recover call; the answer says how many are left for the next. */
export const RECOVER_BATCH = 1_000;

/**
 * The outbox consumer: one delivery per active endpoint of the workspace subscribed to the
 * event, written in the drain's transaction (so they exist exactly when the event is marked
 * dispatched), and one job per event, carrying its deliveries, once that transaction
 * committed. Each body is serialised once for all of its endpoints. The whole batch costs one
 * statement: the endpoints are matched and the rows inserted by the same INSERT … SELECT.
 */
export const fanOutToWebhooks: OutboxConsumer = async (events, { tx, afterCommit }) => {
  const relevant = events.filter((event) => isDomainEventType(event.type));
  if (relevant.length === 0) return;
  const payloads = relevant.map((event) => serializeEnvelope(event.type, new Date(event.createdAt), eventData(event.type as DomainEventType, event.data)));
  const now = webhookTransport().now();
  // An endpoint that already has this event (a drain repeated after a crash) is skipped, and
  // only the rows written here get a job.
  const rows = await tx.$queryRaw<{ id: string; eventId: string }[]>`
    INSERT INTO "WebhookDelivery" ("id", "endpointId", "event", "payload", "eventId", "nextAttemptAt", "requestId")
    SELECT gen_random_uuid(), e."id", ev."type", ev."payload", ev."id", ${now}, ev."requestId"
    FROM unnest(${relevant.map((e) => e.id)}::uuid[], ${relevant.map((e) => e.workspaceId)}::uuid[], ${relevant.map((e) => e.type)}::text[],
                ${payloads}::text[], ${relevant.map((e) => e.requestId)}::text[]) WITH ORDINALITY AS ev("id", "workspaceId", "type", "payload", "requestId", "n")
    JOIN "WebhookEndpoint" e ON e."workspaceId" = ev."workspaceId" AND e."active" AND ev."type" = ANY(e."events")
    ORDER BY ev."n", e."createdAt", e."id"
    ON CONFLICT ("endpointId", "eventId") DO NOTHING
    RETURNING "id", "eventId"`;
  if (rows.length === 0) return;
  const byEvent = new Map<string, string[]>();
  for (const row of rows) {
    const ids = byEvent.get(row.eventId);
    if (ids) ids.push(row.id);
    else byEvent.set(row.eventId, [row.id]);
  }
  afterCommit(() => enqueueDeliveryJobs([...byEvent.values()]));
};

export function assertActive(endpoint: Pick<WebhookEndpoint, 'active'>): void {
  if (!endpoint.active) {
    throw new AppError('VALIDATION_FAILED', 'The endpoint is paused and receives nothing: resume it (PATCH active true) first', { field: 'id', status: 409 });
  }
}

/** A new delivery of `payload` to the endpoint, queued at once. */
async function queueDelivery(endpointId: string, event: string, payload: string, resendOf: string | null): Promise<WebhookDeliveryDto> {
  const row = await db.webhookDelivery.create({ data: { endpointId, event, payload, resendOf, nextAttemptAt: webhookTransport().now() } });
  await enqueueDeliveryJobs([[row.id]]);
  return toDeliveryDto(row);
}

/** The log, newest first. */
export async function listDeliveries(workspaceId: string, endpointId: string, limit: number): Promise<WebhookDeliveryDto[]> {
  await findEndpoint(workspaceId, endpointId);
  const rows = await db.webhookDelivery.findMany({ where: { endpointId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit });
  return rows.map(toDeliveryDto);
}

/** Sends a past delivery again as a new delivery (new id), with its stored bytes. */
export async function redeliver(workspaceId: string, endpointId: string, deliveryId: string): Promise<WebhookDeliveryDto> {
  const { endpoint, original } = await checkRedeliver(workspaceId, endpointId, deliveryId);
  return queueDelivery(endpoint.id, original.event, original.payload, original.id);
}

/** What a redelivery needs: the endpoint, active, and the delivery on it (also run before a call is staged). */
export async function checkRedeliver(workspaceId: string, endpointId: string, deliveryId: string) {
  const endpoint = await findEndpoint(workspaceId, endpointId);
  const original = isUuid(deliveryId) ? await db.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId } }) : null;
  if (!original) throw new AppError('WEBHOOK_DELIVERY_NOT_FOUND', 'No delivery with that id on this endpoint', { field: 'deliveryId' });
  assertActive(endpoint);
  return { endpoint, original };
}

/** A signed `ping` with `{ endpointId, message }`, logged like any delivery. */
export async function sendTestPing(workspaceId: string, endpointId: string): Promise<WebhookDeliveryDto> {
  const endpoint = await findEndpoint(workspaceId, endpointId);
  assertActive(endpoint);
  const payload = serializeEnvelope(PING_EVENT, webhookTransport().now(), { endpointId: endpoint.id, message: PING_MESSAGE });
  return queueDelivery(endpoint.id, PING_EVENT, payload, null);
}

/**
 * After an outage: every delivery of the endpoint that ended failed at or after `since`, and
 * was not sent again already (by redeliver or an earlier recover), is sent again as a new
 * delivery with its stored bytes — oldest first, RECOVER_BATCH per call.
 */
export async function recoverDeliveries(workspaceId: string, endpointId: string, since: Date): Promise<RecoverResultDto> {
  await findEndpoint(workspaceId, endpointId);
  const now = webhookTransport().now();
  const { ids, eligible } = await db.$transaction(async (tx) => {
    // One recovery per endpoint at a time, so two calls never copy the same delivery.
    const [endpoint] = await tx.$queryRaw<{ active: boolean }[]>`
      SELECT "active" FROM "WebhookEndpoint" WHERE "id" = ${endpointId}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR NO KEY UPDATE`;
    if (!endpoint) throw endpointNotFound();
    assertActive(endpoint);
    const [{ n }] = await tx.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "WebhookDelivery" d
      WHERE d."endpointId" = ${endpointId}::uuid AND d."status" = 'failed' AND d."failedAt" >= ${since}
        AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" r WHERE r."resendOf" = d."id")`;
    const inserted = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO "WebhookDelivery" ("id", "endpointId", "event", "payload", "resendOf", "nextAttemptAt")
      SELECT gen_random_uuid(), d."endpointId", d."event", d."payload", d."id", ${now}
      FROM (
        SELECT * FROM "WebhookDelivery" d
        WHERE d."endpointId" = ${endpointId}::uuid AND d."status" = 'failed' AND d."failedAt" >= ${since}
          AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" r WHERE r."resendOf" = d."id")
        ORDER BY d."failedAt", d."id"
        LIMIT ${RECOVER_BATCH}
      ) d
      RETURNING "id"`;
    return { ids: inserted.map((r) => r.id), eligible: n ?? 0 };
  });
  await enqueueDeliveryJobs(ids.map((id) => [id]));
  return { requeued: ids.length, remaining: eligible - ids.length };
}
