// Settling attempts that were cut off (the process died, or lost its lease, while a platform
// was being called; or the call's answer was lost to a deadline or a dropped connection after
// its request may have arrived): instead of failing them as "may or may not have been
// published", Herald asks each network what happened (server/platforms/reconcile.ts, each
// network's class in the catalogue): the delivery that takes a post over does so before it
// delivers anything else, and an attempt whose answer was lost does so at once:
//   found   → the target is published with the post the network has, `confirmedAt` and the
//             evidence; its post.published event says so (confirmedAt);
//   absent  → the network says it is not there: the target goes back to pending and is
//             delivered once more in this delivery, with the same key;
//   unknown → the network cannot be asked, or did not answer in time: failed as
//             DELIVERY_UNCONFIRMED with what Herald knows (what was sent, when, what the
//             network said), for a person to decide.
// Exactly one outcome event per target, as for any attempt: outcomes are written only while the
// target is still `publishing` in the interrupted attempt.
import { db } from '@/server/db/client';
import { openValue } from '@/server/connections/token-sealing';
import { outboxInsertSql } from '@/server/events/record-event';
import { Prisma } from '@/server/generated/prisma/client';
import type { Connection, PostTarget } from '@/server/generated/prisma/client';
import { log } from '@/server/observability/log';
import { catalogueEntry } from '@/server/platforms/catalogue';
import type { AttemptIntent, Reconciled } from '@/server/platforms/reconcile';
import { reconcilerFor } from '@/server/platforms/reconcilers';
import type { Platform } from '@/server/shared/platforms';
import { connectionTokens, publishableConnection } from './connection-tokens';
import { recordOutcome, TARGET_CHANGED } from './record-outcome';
import { sandboxReceipts } from './sandbox-receipts';

/** The code of the post.failed event for an interrupted attempt Herald could not settle. */
export const UNCONFIRMED_CODE = 'DELIVERY_UNCONFIRMED';

/** How long one network may take to answer before the attempt is left to a person. */
export const SETTLE_TIMEOUT_MS = 20_000;

/**
 * "Not there" is believed only of an attempt older than this: a younger one's request may still
 * be on its way (its owner stalled rather than died) and land after a second send. A network
 * accepts a post within seconds of the request; uploads, which take longer, are asked about
 * through their session or status. A lease lapses at least 20 s after the last renewal.
 */
export const ABSENT_TRUSTED_AFTER_MS = 15_000;

export interface SettleCounts {
  found: number;
  retried: number;
  unconfirmed: number;
  /** The network said it does not have a post that was already the one resend. */
  failed: number;
}

/** What a person reads on a target Herald could not settle. */
export function unconfirmedMessage(platform: Platform, evidence: string, startedAt: Date | null): string {
  const when = startedAt ? ` at ${startedAt.toISOString()}` : '';
  return `Delivery was cut off while ${catalogueEntry(platform).label} was being called${when}, and Herald could not confirm what happened: ${evidence}. Check the account, then mark the post as published there or send it again.`;
}

function intentOf(target: PostTarget): AttemptIntent {
  const intent = (target.attemptIntent ?? {}) as { content?: string; mediaUrls?: string[]; settings?: Record<string, unknown> };
  const sealed = target.attemptCheckpoint ? openValue(target.attemptCheckpoint) : null;
  return {
    idempotencyKey: target.id,
    content: intent.content ?? '',
    mediaUrls: intent.mediaUrls ?? [],
    settings: intent.settings ?? {},
    startedAt: target.attemptStartedAt ?? target.updatedAt,
    checkpoint: sealed ? (JSON.parse(sealed) as Record<string, string>) : undefined,
  };
}

async function ask(target: PostTarget, connection: Connection): Promise<Reconciled> {
  if (!target.attemptIntent && reconcilerFor({ provider: connection.provider, platform: connection.platform as Platform }))
    return { outcome: 'unknown', evidence: 'the attempt began before Herald recorded what it sends' };
  return askNetwork(connection, intentOf(target));
}

/**
 * Asks the account's network whether it has what an attempt sent (the network's reconciler,
 * within SETTLE_TIMEOUT_MS): found, absent, or unknown with the evidence. Read only. Used for a
 * target and for a thread's part alike.
 */
export async function askNetwork(connection: Connection, intent: AttemptIntent): Promise<Reconciled> {
  const platform = connection.platform as Platform;
  const reconciler = reconcilerFor({ provider: connection.provider, platform });
  if (!reconciler) {
    const capability = catalogueEntry(platform).reconcile;
    return { outcome: 'unknown', evidence: 'none' in capability ? capability.none : 'Herald has no way to ask this network yet' };
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Reconciled>((resolve) => {
    timer = setTimeout(
      () => resolve({ outcome: 'unknown', evidence: `${catalogueEntry(platform).label} did not answer within ${SETTLE_TIMEOUT_MS / 1000} s` }),
      SETTLE_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([
      reconciler.reconcile(publishableConnection(connection), intent, { tokens: connectionTokens, now: new Date(), sandbox: sandboxReceipts }),
      timeout,
    ]);
  } catch (error) {
    return { outcome: 'unknown', evidence: `asking the network failed: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    clearTimeout(timer);
  }
}

/** The target is still `publishing` in the attempt that was interrupted: only then may its outcome be written. */
const stillInterrupted = (target: PostTarget) => Prisma.sql`"id" = ${target.id}::uuid AND "status" = 'publishing' AND "attempts" = ${target.attempts}`;

/** What becomes of an attempt the network says it does not have. */
type OnAbsent =
  /** Pending again: the caller delivers it once more, with the same key. */
  | { resend: true }
  /** Failed with this message: the attempt was already the one resend. */
  | { resend: false; message: string };

/**
 * Asks the network about one attempt still `publishing` and writes what it says: published
 * (found), pending again or failed (absent, as `onAbsent` says), or failed as unconfirmed.
 */
async function settleAttempt(
  post: { id: string; workspaceId: string },
  target: PostTarget,
  connection: Connection,
  onAbsent: OnAbsent = { resend: true },
): Promise<keyof SettleCounts> {
  const platform = connection.platform as Platform;
  const checkedAt = new Date();
  let verdict = await ask(target, connection);
  if (verdict.outcome === 'found') {
    await recordOutcome({
      target: Prisma.sql`UPDATE "PostTarget" SET "status" = 'published', "postedId" = ${verdict.result.postedId}, "permalink" = ${verdict.result.permalink}, "error" = NULL,
        "publishedAt" = COALESCE("attemptStartedAt", ${checkedAt}), "confirmedAt" = ${checkedAt}, "settlement" = ${verdict.evidence}, "updatedAt" = now()
        WHERE ${stillInterrupted(target)} RETURNING "publishedAt"`,
      connection: Prisma.sql`UPDATE "Connection" SET "lastSuccessfulPostAt" = ${checkedAt}, "updatedAt" = now() WHERE "id" = ${connection.id}::uuid AND ${TARGET_CHANGED}`,
      events: [
        outboxInsertSql(
          {
            workspaceId: post.workspaceId,
            type: 'post.published',
            data: {
              postId: post.id,
              targetId: target.id,
              platform,
              connectionId: connection.id,
              postedId: verdict.result.postedId,
              permalink: verdict.result.permalink,
              publishedAt: (target.attemptStartedAt ?? checkedAt).toISOString(),
              confirmedAt: checkedAt.toISOString(),
            },
          },
          TARGET_CHANGED,
        ),
      ],
    });
    return 'found';
  }
  const age = checkedAt.getTime() - (target.attemptStartedAt ?? checkedAt).getTime();
  // A network that keys posts by the target answers a resend with the post it has: "not
  // there" needs no waiting for a request that may still land.
  const keyed = 'idempotent' in catalogueEntry(platform).reconcile;
  if (verdict.outcome === 'absent' && !keyed && age < ABSENT_TRUSTED_AFTER_MS) {
    verdict = { outcome: 'unknown', evidence: `${verdict.evidence}, ${Math.round(age / 1000)} s after the attempt began: its request may still land` };
  }
  if (verdict.outcome === 'absent' && onAbsent.resend) {
    // Delivered again by the caller, with the same key (the target's id).
    await db.$executeRaw`UPDATE "PostTarget" SET "status" = 'pending', "settlement" = ${verdict.evidence}, "updatedAt" = now() WHERE ${stillInterrupted(target)}`;
    return 'retried';
  }
  // Confirmed absent after the one resend: a plain failure (a retry needs no confirmation, so
  // no `settlement`), its message saying what the network answered when asked.
  const absent = verdict.outcome === 'absent';
  const message =
    absent && !onAbsent.resend
      ? `${onAbsent.message} ${catalogueEntry(platform).label}, asked, does not have the post: ${verdict.evidence}.`
      : unconfirmedMessage(platform, verdict.evidence, target.attemptStartedAt);
  const code = absent ? 'PLATFORM_ERROR' : UNCONFIRMED_CODE;
  await recordOutcome({
    target: Prisma.sql`UPDATE "PostTarget" SET "status" = 'failed', "error" = ${message}, "confirmedAt" = NULL, "settlement" = ${absent ? null : verdict.evidence}, "updatedAt" = now()
      WHERE ${stillInterrupted(target)} RETURNING 1`,
    connection: Prisma.sql`SELECT 1 WHERE ${TARGET_CHANGED}`,
    events: [
      outboxInsertSql(
        {
          workspaceId: post.workspaceId,
          type: 'post.failed',
          data: { postId: post.id, targetId: target.id, platform, error: { code, message }, failedAt: checkedAt.toISOString() },
        },
        TARGET_CHANGED,
      ),
    ],
  });
  return absent ? 'failed' : 'unconfirmed';
}

/**
 * A platform call whose answer was lost after its request may have reached the network (a
 * deadline, a dropped connection: `answerMayBeLost`): the attempt is settled by asking, as an
 * interrupted one is. `resend` false for an attempt that was itself the resend: a network that
 * says it does not have the post then gets a plain failure with the call's own error, so a
 * network that keeps losing answers cannot hold a delivery in a loop.
 */
export async function settleLostAnswer(
  post: { id: string; workspaceId: string },
  target: PostTarget,
  connection: Connection,
  lost: { error: string; resend: boolean },
): Promise<keyof SettleCounts> {
  const outcome = await settleAttempt(post, target, connection, lost.resend ? { resend: true } : { resend: false, message: lost.error });
  log.warn('publishing', `the answer to target ${target.id} was lost (${lost.error}); settled by asking the network: ${outcome}`, undefined, {
    postId: post.id,
    targetId: target.id,
    platform: connection.platform,
    settled: outcome,
  });
  return outcome;
}

/**
 * Settles every target of the post left `publishing` by an attempt that was cut off. Called by
 * the delivery that took the post over, holding its lease, before it delivers anything else.
 */
export async function settleInterrupted(post: { id: string; workspaceId: string }): Promise<SettleCounts & { resent: Set<string> }> {
  const counts = { found: 0, retried: 0, unconfirmed: 0, failed: 0, resent: new Set<string>() };
  const targets = await db.postTarget.findMany({ where: { postId: post.id, status: 'publishing' } });
  if (!targets.length) return counts;
  const connections = new Map(
    (await db.connection.findMany({ where: { id: { in: [...new Set(targets.map((t) => t.connectionId))] } } })).map((c) => [c.id, c]),
  );
  const outcomes = await Promise.all(targets.map((t) => settleAttempt(post, t, connections.get(t.connectionId)!)));
  outcomes.forEach((o, i) => {
    counts[o] += 1;
    if (o === 'retried') counts.resent.add(targets[i]!.id);
  });
  log.warn('publishing', `settled ${targets.length} interrupted target(s) of post ${post.id} by asking the networks`, undefined, {
    postId: post.id,
    found: counts.found,
    retried: counts.retried,
    unconfirmed: counts.unconfirmed,
  });
  return counts;
}
