// Background upkeep of the delivery log (cron jobs):
//   sweep — queues again every pending delivery that is overdue with no attempt in flight:
//           its job was lost (queue unreachable after commit, process killed mid-attempt).
//           Same delivery, same id, same attempt count.
//   prune — deletes finished deliveries older than DELIVERY_RETENTION_DAYS, always keeping
//           the newest KEEP_PER_ENDPOINT of every endpoint.
import { db } from '@/server/db/client';
import { enqueueDeliveryJobs } from './delivery-jobs';
import { ATTEMPT_CLAIM_MS } from './pause';
import { webhookTransport } from './transport';
import { log } from '@/server/observability/log';

/** An attempt normally starts within a second of its time; one this late lost its job. */
export const SWEEP_GRACE_MS = 30_000;
const SWEEP_BATCH = 1_000;

export const DELIVERY_RETENTION_DAYS = 30;
export const KEEP_PER_ENDPOINT = 50;
const PRUNE_BATCH = 5_000;

/** Returns how many deliveries were queued again. */
export async function sweepDeliveries(): Promise<number> {
  const now = webhookTransport().now().getTime();
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "WebhookDelivery"
    WHERE "status" = 'pending' AND "nextAttemptAt" <= ${new Date(now - SWEEP_GRACE_MS)}
      AND ("attemptStartedAt" IS NULL OR "attemptStartedAt" < ${new Date(now - ATTEMPT_CLAIM_MS)})
    ORDER BY "nextAttemptAt"
    LIMIT ${SWEEP_BATCH}`;
  if (rows.length) log.warn('webhooks', `${rows.length} overdue deliveries had no job; queued again`);
  await enqueueDeliveryJobs(rows.map((r) => [r.id]));
  return rows.length;
}

/** Returns how many deliveries were deleted. */
export async function pruneDeliveries(): Promise<number> {
  const cutoff = new Date(webhookTransport().now().getTime() - DELIVERY_RETENTION_DAYS * 86_400_000);
  let total = 0;
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM "WebhookDelivery" WHERE "id" IN (
        SELECT d."id" FROM "WebhookDelivery" d
        WHERE d."createdAt" < ${cutoff} AND d."status" <> 'pending'
          AND EXISTS (
            SELECT 1 FROM "WebhookDelivery" n
            WHERE n."endpointId" = d."endpointId" AND (n."createdAt", n."id") > (d."createdAt", d."id")
            OFFSET ${KEEP_PER_ENDPOINT - 1}
          )
        LIMIT ${PRUNE_BATCH}
      )`;
    total += deleted;
    if (deleted < PRUNE_BATCH) return total;
  }
}
