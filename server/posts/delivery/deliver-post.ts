// Delivery of a post to every target, concurrently. Used by POST /posts/{id}/publish and by
// the scheduled-delivery job alike.
//
// Never twice: before a platform is called, the target is claimed (status publishing,
// attempts + 1, attemptStartedAt) in its own committed statement. The post itself is claimed
// with a lease (delivery-lease.ts) that its owner renews while calls are in flight. When the
// owner dies the lease lapses and any instance takes the delivery over: a target found
// `publishing` was interrupted mid-call, so the new owner first asks its network what happened
// (settle.ts: published if the network has it, delivered again if it says it has not, failed
// as unconfirmed for a person otherwise), then delivers the targets still `pending`. What an
// attempt sends is written with its claim (attemptIntent), and what an adapter learns before
// the creating call (a container, an upload session) as it learns it (attemptCheckpoint), so
// a crash at any instant leaves enough to ask. Outcomes are recorded only on a target still
// `publishing`, so a late answer from a presumed-dead owner changes nothing.
import { db, type Tx } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { kickOutboxDrain } from '@/server/events';
import { outboxInsertSql } from '@/server/events/record-event';
import { isUuid } from '@/server/shared/schemas';
import { heldByPausedQueueSql } from '@/server/queue/posting-queue';
import { Prisma } from '@/server/generated/prisma/client';
import type { Connection, Post, PostTarget } from '@/server/generated/prisma/client';
import type { Platform } from '@/server/shared/platforms';
import { parseStoredSettings } from '@/server/platforms/catalogue';
import { OutboundFailedError } from '@/server/outbound';
import { answerMayBeLost, PlatformError, TokenExpiredError } from '@/server/platforms/publisher';
import { publisherFor } from '@/server/platforms/registry';
import { connectionTokens } from './connection-tokens';
import { openToken, sealValue } from '@/server/connections/token-sealing';
import { lockPost } from '../lock-post';
import { holdLease, INSTANCE_ID, leaseSeconds } from './lease';
import { recordOutcome, TARGET_CHANGED } from './record-outcome';
import { sandboxReceipts } from './sandbox-receipts';
import { settleInterrupted, settleLostAnswer } from './settle';
import { deliverFirstComments } from './first-comments';
import { deliverThreadParts } from './thread-parts';
import { hasUnconfirmedTargetSql, refuseUnconfirmedResend } from './unconfirmed';
import { findPostRow, getPost } from '../read-posts';
import { approvalAllowsDeliverySql, isApprovalBlocking, PUBLISHABLE_STATUSES, RETRYABLE_STATUSES } from '../post-rules';
import type { StoredMedia } from '../post-inputs';
import { log } from '@/server/observability/log';

/** `retry`: a published-in-part or failed post delivers its failed targets again. */
export type DeliveryMode = 'manual' | 'scheduled' | 'retry';

type ClaimedPost = Post & { previousStatus?: string };

/**
 * Moves the post to publishing in one statement when it may go: a publishable status, no
 * approval blocking it, and (for the scheduled job) still the version and time the job was
 * queued for. Anything else takes the slow path, which explains the refusal or resumes an
 * interrupted delivery.
 */
async function claimPost({ workspaceId, postId, mode = 'manual', expectedVersion, targetIds }: DeliverPostOptions): Promise<ClaimedPost | null> {
  if (!isUuid(postId)) throw new AppError('POST_NOT_FOUND', 'No post with that id in this workspace', { field: 'id' });
  const statuses = mode === 'scheduled' ? ['scheduled'] : mode === 'retry' ? [...RETRYABLE_STATUSES] : [...PUBLISHABLE_STATUSES];
  const rows = await db.$queryRaw<ClaimedPost[]>`
    WITH old AS (
      SELECT "id", "status" FROM "Post"
      WHERE "id" = ${postId}::uuid ${workspaceId ? Prisma.sql`AND "workspaceId" = ${workspaceId}::uuid` : Prisma.empty}
      FOR UPDATE
    )
    UPDATE "Post" p SET "status" = 'publishing', "scheduleVersion" = p."scheduleVersion" + 1, "updatedAt" = now(),
      "deliveryOwner" = ${INSTANCE_ID}, "deliveryLeaseUntil" = now() + make_interval(secs => ${leaseSeconds()})
    FROM old
    WHERE p."id" = old."id" AND old."status" IN (${Prisma.join(statuses)}) AND ${approvalAllowsDeliverySql(Prisma.sql`p."approvalStatus"`)}
      ${expectedVersion !== undefined ? Prisma.sql`AND p."scheduleVersion" = ${expectedVersion} AND (p."scheduledAt" IS NULL OR p."scheduledAt" <= now() + interval '1 second')` : Prisma.empty}
      ${mode === 'scheduled' ? Prisma.sql`AND NOT ${heldByPausedQueueSql(Prisma.sql`p`)}` : Prisma.empty}
      ${
        // Publishing a failed post sends its failed accounts again: never one nobody knows the fate of.
        mode === 'manual'
          ? Prisma.sql`AND NOT (old."status" IN ('failed', 'partial_published') AND ${hasUnconfirmedTargetSql(Prisma.sql`p."id"`)})`
          : Prisma.empty
      }
    RETURNING p.*, old."status" AS "previousStatus"`;
  const claimed = rows[0];
  if (claimed) {
    // Publishing a failed post again retries its failed targets.
    if (claimed.previousStatus === 'failed' || claimed.previousStatus === 'partial_published')
      await db.postTarget.updateMany({
        where: { postId, status: 'failed', ...(targetIds ? { id: { in: [...targetIds] } } : {}) },
        data: { status: 'pending', error: null },
      });
    return claimed;
  }
  return claimSlowPath(workspaceId, postId, mode);
}

/**
 * Why a manual publish or a retry of the post cannot start, or null when it can: the rule
 * of the claim above, for a post read without a lock.
 */
function deliveryRefusal(post: { status: string; approvalStatus: string }, mode: 'manual' | 'retry'): AppError | null {
  if (post.status === 'publishing') return new AppError('POST_NOT_EDITABLE', 'The post is already publishing');
  if (isApprovalBlocking(post.approvalStatus)) return new AppError('APPROVAL_REQUIRED', 'The post is waiting for approval: a member approves it in the app');
  const statuses: readonly string[] = mode === 'retry' ? RETRYABLE_STATUSES : PUBLISHABLE_STATUSES;
  if (statuses.includes(post.status)) return null;
  if (mode === 'retry') return new AppError('POST_NOT_EDITABLE', `A ${post.status.replace('_', ' ')} post has no failed targets to retry`);
  return new AppError('POST_NOT_EDITABLE', `A ${post.status.replace('_', ' ')} post cannot be published`);
}

/** Whether publishing (or retrying) the post would start now, without touching it (run before a call is staged). */
export async function checkDelivery(
  workspaceId: string,
  postId: string,
  mode: 'manual' | 'retry',
  opts: { confirmNotPublished?: boolean } = {},
): Promise<void> {
  const post = await findPostRow(workspaceId, postId);
  const refusal = deliveryRefusal(post, mode);
  if (refusal) throw refusal;
  if (mode === 'retry' || post.status === 'failed' || post.status === 'partial_published') await refuseUnconfirmedResend(postId, opts);
}

async function claimSlowPath(workspaceId: string | null, postId: string, mode: DeliveryMode): Promise<ClaimedPost | null> {
  const post = await db.$transaction(async (tx) => {
    const post = await lockPost(tx, workspaceId, postId);
    if (post.status === 'publishing') {
      const [lease] = await tx.$queryRaw<{ live: boolean }[]>`
        SELECT coalesce("deliveryLeaseUntil" > now(), false) AS live FROM "Post" WHERE "id" = ${post.id}::uuid`;
      if (lease?.live) {
        // Another delivery (here or on another instance) is alive: leave it alone.
        if (mode === 'manual') throw new AppError('POST_NOT_EDITABLE', 'The post is already publishing');
        return null;
      }
      await takeOver(tx, post);
      return post;
    }
    // The scheduled job found the post changed (rescheduled, cancelled, approval pending): nothing to do.
    if (mode === 'scheduled') return null;
    const refusal = deliveryRefusal(post, mode);
    if (refusal) throw refusal;
    // The claim left alone a failed post with an account nobody knows the fate of.
    if (mode === 'manual') await refuseUnconfirmedResend(post.id, {});
    throw new AppError('POST_NOT_EDITABLE', 'The post changed meanwhile; call again');
  });
  if (post) void kickOutboxDrain();
  return post;
}

/**
 * Takes over a delivery whose owner's lease lapsed: this instance becomes the owner. The
 * targets its predecessor was calling a platform for stay `publishing`: the delivery settles
 * them by asking their networks (settle.ts) before anything else, outside this transaction.
 */
async function takeOver(tx: Tx, post: Post & { targets: PostTarget[] }): Promise<void> {
  await tx.$executeRaw`
    UPDATE "Post" SET "deliveryOwner" = ${INSTANCE_ID}, "deliveryLeaseUntil" = now() + make_interval(secs => ${leaseSeconds()}), "updatedAt" = now()
    WHERE "id" = ${post.id}::uuid`;
  const interrupted = post.targets.filter((t) => t.status === 'publishing').length;
  if (interrupted)
    log.warn(
      'publishing',
      `took over post ${post.id} from ${post.deliveryOwner ?? 'an unknown owner'}; ${interrupted} interrupted target(s) to settle`,
      undefined,
      {
        postId: post.id,
      },
    );
}

type DeliveryPost = { id: string; workspaceId: string; content: string; variants: unknown; media: unknown; platformSettings: unknown };

/**
 * Claims every pending target of the post in one statement (status publishing, attempts + 1,
 * attemptStartedAt), committed before any platform is called. Only one runner can claim a
 * target, ever.
 */
async function claimTargets(postId: string): Promise<PostTarget[]> {
  // The attempt's intent rides with its claim: what this target sends (its variant, media and
  // settings), so an attempt cut off at any instant can be asked about.
  return db.$queryRaw<PostTarget[]>`
    UPDATE "PostTarget" t SET "status" = 'publishing', "attempts" = t."attempts" + 1, "attemptStartedAt" = now(), "updatedAt" = now(),
      "attemptCheckpoint" = NULL, "confirmedAt" = NULL,
      "attemptIntent" = jsonb_build_object(
        'content', COALESCE(t."trackedContent", p."variants" -> t."platform" ->> 'content', p."content"),
        'mediaUrls', to_jsonb(p."mediaUrls"),
        'settings', COALESCE(p."platformSettings" -> t."platform", '{}'::jsonb))
    FROM "Post" p
    WHERE t."postId" = ${postId}::uuid AND p."id" = t."postId" AND t."status" = 'pending'
    RETURNING t.*`;
}

/**
 * Where an adapter records what it learns before the creating call, for this attempt only,
 * sealed (an upload session's address is as good as a key to it), before it goes on.
 */
function checkpointOf(target: PostTarget): (values: Record<string, string>) => Promise<void> {
  let known: Record<string, string> = {};
  return async (values) => {
    known = { ...known, ...values };
    await db.$executeRaw`UPDATE "PostTarget" SET "attemptCheckpoint" = ${sealValue(JSON.stringify(known))}
      WHERE "id" = ${target.id}::uuid AND "status" = 'publishing' AND "attempts" = ${target.attempts}`;
  };
}

/**
 * One attempt of one target. Returns 'again' when its answer was lost and the network, asked,
 * says it does not have the post: the target is pending and is sent once more.
 * `mayResend` is false for an attempt that was itself that one more send.
 */
async function attemptTarget(post: DeliveryPost, target: PostTarget, connection: Connection, mayResend: boolean): Promise<'done' | 'again'> {
  const platform = connection.platform as Platform;
  const variants = (post.variants ?? {}) as Partial<Record<Platform, { content: string }>>;
  const storedSettings = ((post.platformSettings ?? {}) as Partial<Record<Platform, unknown>>)[platform];
  const media = post.media as StoredMedia[];

  try {
    // Validated when the post was written; parsed again so the adapter gets its platform's type.
    const settings = parseStoredSettings(platform, storedSettings);
    // Tokens a platform grants on the way are stored through connectionTokens at once.
    const result = await publisherFor({ provider: connection.provider, platform }).publish(
      { ...connection, platform, accessToken: openToken(connection.accessToken), platformData: (connection.platformData ?? {}) as Record<string, unknown> },
      {
        content: target.trackedContent ?? variants[platform]?.content ?? post.content,
        mediaUrls: media.map((m) => m.url),
        mediaKinds: media.map((m) => m.kind),
        settings,
        idempotencyKey: target.id,
      },
      { tokens: connectionTokens, checkpoint: checkpointOf(target), sandbox: sandboxReceipts },
    );
    const publishedAt = new Date();
    await recordOutcome({
      target: Prisma.sql`UPDATE "PostTarget" SET "status" = 'published', "postedId" = ${result.postedId}, "permalink" = ${result.permalink}, "error" = NULL, "publishedAt" = ${publishedAt}, "updatedAt" = now() WHERE "id" = ${target.id}::uuid AND "status" = 'publishing' AND "attempts" = ${target.attempts} RETURNING 1`,
      connection: Prisma.sql`UPDATE "Connection" SET "lastSuccessfulPostAt" = ${publishedAt}, "updatedAt" = now() WHERE "id" = ${connection.id}::uuid AND ${TARGET_CHANGED}`,
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
              postedId: result.postedId,
              permalink: result.permalink,
              publishedAt: publishedAt.toISOString(),
              confirmedAt: null,
            },
          },
          TARGET_CHANGED,
        ),
      ],
    });
    return 'done';
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (answerMayBeLost(err)) {
      const settled = await settleLostAnswer(post, target, connection, { error: message, resend: mayResend });
      return settled === 'retried' ? 'again' : 'done';
    }
    const expired = err instanceof TokenExpiredError;
    // A network that could not be reached (nothing sent) failed as a platform does; anything
    // else is Herald's own fault, logged for an engineer.
    const platformFault = err instanceof PlatformError || err instanceof OutboundFailedError;
    const code = expired ? 'CONNECTION_EXPIRED' : platformFault ? 'PLATFORM_ERROR' : 'DELIVERY_ERROR';
    if (!platformFault) log.error('publishing', `unexpected error delivering target ${target.id}`, err, { targetId: target.id });
    const failedAt = new Date();
    const events = [
      outboxInsertSql(
        {
          workspaceId: post.workspaceId,
          type: 'post.failed',
          data: { postId: post.id, targetId: target.id, platform, error: { code, message }, failedAt: failedAt.toISOString() },
        },
        TARGET_CHANGED,
      ),
    ];
    if (expired && connection.status === 'active') {
      events.push(
        outboxInsertSql(
          { workspaceId: post.workspaceId, type: 'connection.error', data: { connectionId: connection.id, platform, reason: message } },
          TARGET_CHANGED,
        ),
      );
    }
    await recordOutcome({
      target: Prisma.sql`UPDATE "PostTarget" SET "status" = 'failed', "error" = ${message}, "updatedAt" = now() WHERE "id" = ${target.id}::uuid AND "status" = 'publishing' AND "attempts" = ${target.attempts} RETURNING 1`,
      connection: Prisma.sql`UPDATE "Connection" SET "lastError" = ${message}, "lastErrorAt" = ${failedAt}, "status" = ${expired ? 'inactive' : connection.status}, "updatedAt" = now() WHERE "id" = ${connection.id}::uuid AND ${TARGET_CHANGED}`,
      events,
    });
    return 'done';
  }
}

/**
 * Claims the post's pending targets and attempts each, concurrently. Returns how many went
 * back to pending because their answer was lost and the network said it has not the post.
 */
async function deliverPending(post: DeliveryPost, resent: ReadonlySet<string>): Promise<number> {
  const claimed = await claimTargets(post.id);
  if (!claimed.length) return 0;
  const connections = await db.connection.findMany({ where: { id: { in: [...new Set(claimed.map((t) => t.connectionId))] } } });
  const byId = new Map(connections.map((c) => [c.id, c]));
  // allSettled: every attempt finishes (and records its outcome) even if another one throws.
  const results = await Promise.allSettled(claimed.map((t) => attemptTarget(post, t, byId.get(t.connectionId)!, !resent.has(t.id))));
  void kickOutboxDrain();
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  // A target whose outcome could not be written stays `publishing`: the lease lapses and a
  // takeover settles it by asking the network.
  if (failure) throw failure.reason;
  return results.filter((r) => r.status === 'fulfilled' && r.value === 'again').length;
}

async function pendingTargetIds(postId: string): Promise<string[]> {
  return (await db.postTarget.findMany({ where: { postId, status: 'pending' }, select: { id: true } })).map((t) => t.id);
}

/**
 * Final status from the targets, in one statement: all landed → published, some →
 * partial_published, none → failed; publishedAt is the first landing. Does nothing while a
 * target is still open.
 */
async function finishPost(postId: string): Promise<void> {
  await db.$executeRaw`
    UPDATE "Post" p SET
      "status" = CASE WHEN s.landed = s.total THEN 'published' WHEN s.landed > 0 THEN 'partial_published' ELSE 'failed' END,
      "publishedAt" = s.first,
      "deliveryOwner" = NULL,
      "deliveryLeaseUntil" = NULL,
      "updatedAt" = now()
    FROM (
      SELECT count(*) AS total,
             -- A thread counts as landed once every part is posted.
             count(*) FILTER (WHERE "status" = 'published' AND NOT EXISTS (
               SELECT 1 FROM "PostThreadPart" x WHERE x."targetId" = t."id" AND x."status" <> 'posted')) AS landed,
             count(*) FILTER (WHERE "status" IN ('pending', 'publishing')) AS open,
             min("publishedAt") FILTER (WHERE "status" = 'published') AS first
      FROM "PostTarget" t WHERE t."postId" = ${postId}::uuid
    ) s
    WHERE p."id" = ${postId}::uuid AND p."status" = 'publishing' AND s.open = 0`;
}

export interface DeliverPostOptions {
  postId: string;
  /** Scopes the lookup; null for the background jobs, which know the post is their own. */
  workspaceId: string | null;
  /** `manual` (POST /posts/{id}/publish) explains refusals; `scheduled` does nothing instead. */
  mode?: DeliveryMode;
  /** The scheduled job's version check: a rescheduled or changed post is left alone. */
  expectedVersion?: number;
  /** A retry of these failed targets only (the app's "Retry this account"); every failed one otherwise. */
  targetIds?: readonly string[];
}

/**
 * Publishes now and returns after every target was attempted. Returns false when there was
 * nothing to do (a scheduled job that found the post changed, or a delivery alive elsewhere).
 */
export async function deliverPost(options: DeliverPostOptions): Promise<boolean> {
  const post = await claimPost(options);
  if (!post) return false;
  const release = holdLease(post.id);
  try {
    // Attempts a dead owner left mid-call are settled by asking their networks first; those
    // the network says it has not are pending again and go out below.
    // Each is sent once more at most: a target settled back to pending here, or by a lost
    // answer in the first round, is not sent a third time.
    const { resent } = await settleInterrupted(post);
    const again = await deliverPending(post, resent);
    if (again) await deliverPending(post, new Set(await pendingTargetIds(post.id)));
    // A thread's later parts, from the first not posted on each account where part 1 landed;
    // parts that failed are sent again only when a person asked (a retry, a failed post published again).
    const resendFailedParts = options.mode === 'retry' || post.previousStatus === 'failed' || post.previousStatus === 'partial_published';
    await deliverThreadParts(post, { retryFailed: resendFailedParts, targetIds: options.targetIds });
    // Under the same lease: a first comment cut off by a crash is settled by the next owner.
    await deliverFirstComments(post, { retryFailed: options.mode === 'retry', targetIds: options.targetIds });
    await finishPost(post.id);
    return true;
  } finally {
    release();
  }
}

/** POST /posts/{id}/publish: deliver now, then answer with the post and its targets. */
export async function publishPostNow(workspaceId: string, postId: string) {
  // The claim refuses to send an account nobody knows the fate of again (TARGET_UNCONFIRMED).
  await deliverPost({ workspaceId, postId, mode: 'manual' });
  return getPost(workspaceId, postId);
}

/**
 * Retry the failed targets of a failed or partly published post: they go back to pending and
 * are delivered now, under the same claims and lease as any delivery; targets that already
 * landed are left alone, and the post settles from all its targets again.
 */
export async function retryFailedTargets(workspaceId: string, postId: string, targetIds?: readonly string[], opts: { confirmNotPublished?: boolean } = {}) {
  const row = await findPostRow(workspaceId, postId);
  // Nothing failed but first comments: those are posted again, the posts left alone. A thread
  // stopped at a failed part is delivered again from that part, under the delivery's lease.
  const failedTargets = await db.postTarget.count({ where: { postId, status: 'failed', ...(targetIds ? { id: { in: [...targetIds] } } : {}) } });
  const failedThreads = await db.postTarget.count({
    where: { postId, status: 'published', threadParts: { some: { status: 'failed' } }, ...(targetIds ? { id: { in: [...targetIds] } } : {}) },
  });
  if (failedTargets === 0 && failedThreads === 0) {
    const where = { postId, status: 'published', firstCommentStatus: 'failed', ...(targetIds ? { id: { in: [...targetIds] } } : {}) };
    const failedComments = await db.postTarget.count({ where });
    if (failedComments > 0 && (!targetIds || failedComments === new Set(targetIds).size)) {
      await deliverFirstComments(row, { retryFailed: true, targetIds });
      return getPost(workspaceId, postId);
    }
  }
  await refuseUnconfirmedResend(postId, { targetIds, confirmNotPublished: opts.confirmNotPublished });
  if (targetIds) {
    // Only failed targets (or stopped threads) of this post: anything else has nothing to retry.
    const failed = await db.postTarget.count({
      where: {
        postId,
        id: { in: [...targetIds] },
        post: { workspaceId },
        OR: [{ status: 'failed' }, { status: 'published', threadParts: { some: { status: 'failed' } } }],
      },
    });
    if (failed !== new Set(targetIds).size)
      throw new AppError('POST_NOT_EDITABLE', 'Only an account whose delivery failed can be retried', { field: 'targetIds' });
  }
  await deliverPost({ workspaceId, postId, mode: 'retry', targetIds });
  return getPost(workspaceId, postId);
}
