// A paused endpoint (active false) receives nothing: no new deliveries are created for it, and
// its pending retries are recorded as failed with the text `Endpoint is paused`. It pauses by
// itself after AUTO_PAUSE_THRESHOLD consecutive failed attempts (and the workspace gets an
// in-app notification), or when PATCH sets active false. PATCH active true resumes it.
import type { Tx } from '@/server/db/client';
import { writeNotification } from '@/server/notifications/notifications';

export const AUTO_PAUSE_THRESHOLD = 20;
export const PAUSED_ERROR = 'Endpoint is paused';

/** A claim older than this belongs to an attempt cut off by a crash (an attempt takes at most ~10 s). */
export const ATTEMPT_CLAIM_MS = 30_000;

/**
 * Records the endpoint's pending deliveries as failed (`Endpoint is paused`) and returns their
 * ids, whose jobs the caller cancels after commit. A delivery whose attempt is in flight right
 * now is left to record its own outcome; seeing the endpoint paused, it schedules no retry.
 */
export async function failPendingDeliveries(tx: Tx, endpointId: string, at: Date): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    UPDATE "WebhookDelivery" SET "status" = 'failed', "error" = ${PAUSED_ERROR}, "nextAttemptAt" = NULL, "failedAt" = ${at}, "attemptStartedAt" = NULL
    WHERE "endpointId" = ${endpointId}::uuid AND "status" = 'pending'
      AND ("attemptStartedAt" IS NULL OR "attemptStartedAt" < ${new Date(at.getTime() - ATTEMPT_CLAIM_MS)})
    RETURNING "id"`;
  return rows.map((r) => r.id);
}

/** The in-app notice of an automatic pause, written in the pausing transaction. */
export async function notifyAutoPause(tx: Tx, endpoint: { id: string; workspaceId: string; name: string; url: string }): Promise<void> {
  await writeNotification(
    tx,
    endpoint.workspaceId,
    'webhook.paused',
    `Webhook endpoint “${endpoint.name}” was paused`,
    `${AUTO_PAUSE_THRESHOLD} deliveries in a row to ${endpoint.url} failed, so Herald stopped sending to it. Fix the receiver, then resume the endpoint (and recover what it missed).`,
    { endpointId: endpoint.id, url: endpoint.url },
  );
}
