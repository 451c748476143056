// Delivery of a post to every target, concurrently. Used by POST /posts/{id}/publish and by
// the scheduled-delivery job alike.
//
// Never twice: before a platform is called, the target is claimed (status publishing,
// attempts + 1, attemptStartedAt) in its own committed statement. A retry or a restart
// resumes only targets still `pending`; a target found `publishing` was interrupted mid-call,
// so whether the platform got it is unknown: it is marked failed with an explanation rather
// than risk a duplicate post.
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { kickOutboxDrain } from '@/server/events';
import { outboxInsertSql } from '@/server/events/record-event';
import { isUuid } from '@/server/http/schemas';
import { Prisma } from '@/server/generated/prisma/client';
import type { Connection, Post, PostTarget } from '@/server/generated/prisma/client';
import type { Platform } from '@/server/connections/connections.schemas';
import { PlatformError, TokenExpiredError } from '@/server/platforms/publisher';
import { publisherFor } from '@/server/platforms/registry';
import { lockPost } from '@/server/posts/lock-post';
import { getPost } from '@/server/posts/read-posts';
import { isApprovalBlocking, PUBLISHABLE_STATUSES } from '@/server/posts/post-rules';
import type { StoredMedia } from '@/server/posts/post-inputs';

export const INTERRUPTED_ERROR = 'Delivery was interrupted while the platform was being called; the post may or may not have been published. Check the account before publishing again.';

type Mode = 'manual' | 'scheduled';

/** Longer than any platform call may take (adapters time out well before). */
const INTERRUPTED_AFTER_MS = 3 * 60_000;

type ClaimedPost = Post & { previousStatus?: string };

/**
 * Moves the post to publishing in one statement when it may go: a publishable status, no
 * approval blocking it, and (for the scheduled job) still the version and time the job was
 * queued for. Anything else takes the slow path, which explains the refusal or resumes an
 * interrupted delivery.
 */
async function claimPost(workspaceId: string | null, postId: string, mode: Mode, expectedVersion?: number): Promise<ClaimedPost | null> {
  if (!isUuid(postId)) throw new AppError('POST_NOT_FOUND', 'No post with that id in this workspace', { field: 'id' });
  const statuses = mode === 'scheduled' ? ['scheduled'] : [...PUBLISHABLE_STATUSES];
  const rows = await db.$queryRaw<ClaimedPost[]>`
    WITH old AS (
      SELECT "id", "status" FROM "Post"
      WHERE "id" = ${postId}::uuid ${workspaceId ? Prisma.sql`AND "workspaceId" = ${workspaceId}::uuid` : Prisma.empty}
      FOR UPDATE
    )
    UPDATE "Post" p SET "status" = 'publishing', "scheduleVersion" = p."scheduleVersion" + 1, "updatedAt" = now()
    FROM old
    WHERE p."id" = old."id" AND old."status" IN (${Prisma.join(statuses)}) AND p."approvalStatus" NOT IN ('pending', 'rejected')
      ${expectedVersion !== undefined ? Prisma.sql`AND p."scheduleVersion" = ${expectedVersion} AND (p."scheduledAt" IS NULL OR p."scheduledAt" <= now() + interval '1 second')` : Prisma.empty}
    RETURNING p.*, old."status" AS "previousStatus"`;
  const claimed = rows[0];
  if (claimed) {
    // Publishing a failed post again retries its failed targets.
    if (claimed.previousStatus === 'failed') await db.postTarget.updateMany({ where: { postId, status: 'failed' }, data: { status: 'pending', error: null } });
    return claimed;
  }
  return claimSlowPath(workspaceId, postId, mode);
}

async function claimSlowPath(workspaceId: string | null, postId: string, mode: Mode): Promise<ClaimedPost | null> {
  return db.$transaction(async (tx) => {
    const post = await lockPost(tx, workspaceId, postId);
    if (post.status === 'publishing') {
      if (mode === 'manual') throw new AppError('POST_NOT_EDITABLE', 'The post is already publishing');
      // Resuming after a crash or a retry: a claim older than any platform call can take was
      // interrupted; a fresher one may still be running elsewhere, so try again later.
      const cutoff = new Date(Date.now() - INTERRUPTED_AFTER_MS);
      const inFlight = post.targets.filter((t) => t.status === 'publishing');
      if (inFlight.some((t) => t.attemptStartedAt && t.attemptStartedAt > cutoff)) {
        throw new Error(`post ${post.id} has a target attempt in progress; retrying later`);
      }
      if (inFlight.length) await tx.postTarget.updateMany({ where: { postId: post.id, status: 'publishing' }, data: { status: 'failed', error: INTERRUPTED_ERROR } });
      return post;
    }
    // The scheduled job found the post changed (rescheduled, cancelled, approval pending): nothing to do.
    if (mode === 'scheduled') return null;
    if (isApprovalBlocking(post.approvalStatus)) {
      throw new AppError('APPROVAL_REQUIRED', 'The post is waiting for approval: a member approves it in the app');
    }
    throw new AppError('POST_NOT_EDITABLE', `A ${post.status.replace('_', ' ')} post cannot be published`);
  });
}

type DeliveryPost = { id: string; workspaceId: string; content: string; variants: unknown; media: unknown; platformSettings: unknown };

/**
 * Claims every pending target of the post in one statement (status publishing, attempts + 1,
 * attemptStartedAt), committed before any platform is called. Only one runner can claim a
 * target, ever.
 */
async function claimTargets(postId: string): Promise<PostTarget[]> {
  return db.$queryRaw<PostTarget[]>`
    UPDATE "PostTarget" SET "status" = 'publishing', "attempts" = "attempts" + 1, "attemptStartedAt" = now(), "updatedAt" = now()
    WHERE "postId" = ${postId}::uuid AND "status" = 'pending'
    RETURNING *`;
}

/** One statement records a target's outcome, the connection's health and the event, atomically. */
async function recordOutcome(parts: { target: Prisma.Sql; connection: Prisma.Sql; events: Prisma.Sql[] }): Promise<void> {
  const ctes = [Prisma.sql`t AS (${parts.target})`, Prisma.sql`c AS (${parts.connection})`, ...parts.events.map((e, i) => Prisma.sql`${Prisma.raw(`e${i}`)} AS (${e})`)];
  await db.$executeRaw`WITH ${Prisma.join(ctes, ', ')} SELECT 1`;
}

async function attemptTarget(post: DeliveryPost, target: PostTarget, connection: Connection): Promise<void> {
  const platform = connection.platform as Platform;
  const variants = (post.variants ?? {}) as Partial<Record<Platform, { content: string }>>;
  const settings = ((post.platformSettings ?? {}) as Record<string, Record<string, unknown>>)[platform] ?? {};
  const media = post.media as StoredMedia[];

  try {
    const result = await publisherFor({ provider: connection.provider, platform }).publish(
      { ...connection, platform },
      { content: variants[platform]?.content ?? post.content, mediaUrls: media.map((m) => m.url), mediaKinds: media.map((m) => m.kind), settings },
    );
    const publishedAt = new Date();
    await recordOutcome({
      target: Prisma.sql`UPDATE "PostTarget" SET "status" = 'published', "postedId" = ${result.postedId}, "permalink" = ${result.permalink}, "error" = NULL, "publishedAt" = ${publishedAt}, "updatedAt" = now() WHERE "id" = ${target.id}::uuid`,
      connection: Prisma.sql`UPDATE "Connection" SET "lastSuccessfulPostAt" = ${publishedAt}, "updatedAt" = now() WHERE "id" = ${connection.id}::uuid`,
      events: [
        outboxInsertSql({
          workspaceId: post.workspaceId,
          type: 'post.published',
          data: { postId: post.id, targetId: target.id, platform, connectionId: connection.id, postedId: result.postedId, permalink: result.permalink, publishedAt: publishedAt.toISOString() },
        }),
      ],
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const expired = err instanceof TokenExpiredError;
    const code = expired ? 'CONNECTION_EXPIRED' : err instanceof PlatformError ? 'PLATFORM_ERROR' : 'DELIVERY_ERROR';
    if (!(err instanceof PlatformError)) console.error(`[publishing] unexpected error delivering target ${target.id}`, err);
    const failedAt = new Date();
    const events = [outboxInsertSql({ workspaceId: post.workspaceId, type: 'post.failed', data: { postId: post.id, targetId: target.id, platform, error: { code, message }, failedAt: failedAt.toISOString() } })];
    if (expired && connection.status === 'active') {
      events.push(outboxInsertSql({ workspaceId: post.workspaceId, type: 'connection.error', data: { connectionId: connection.id, platform, reason: message } }));
    }
    await recordOutcome({
      target: Prisma.sql`UPDATE "PostTarget" SET "status" = 'failed', "error" = ${message}, "updatedAt" = now() WHERE "id" = ${target.id}::uuid`,
      connection: Prisma.sql`UPDATE "Connection" SET "lastError" = ${message}, "lastErrorAt" = ${failedAt}, "status" = ${expired ? 'inactive' : connection.status}, "updatedAt" = now() WHERE "id" = ${connection.id}::uuid`,
      events,
    });
  }
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
      "updatedAt" = now()
    FROM (
      SELECT count(*) AS total,
             count(*) FILTER (WHERE "status" = 'published') AS landed,
             count(*) FILTER (WHERE "status" IN ('pending', 'publishing')) AS open,
             min("publishedAt") FILTER (WHERE "status" = 'published') AS first
      FROM "PostTarget" WHERE "postId" = ${postId}::uuid
    ) s
    WHERE p."id" = ${postId}::uuid AND p."status" = 'publishing' AND s.open = 0`;
}

/**
 * Publishes now and returns after every target was attempted. `workspaceId` scopes the
 * lookup (null for the job, which knows the post is its own); `expectedVersion` is the
 * scheduled job's version check. Returns false when a scheduled job found nothing to do.
 */
export async function deliverPost(workspaceId: string | null, postId: string, mode: Mode = 'manual', expectedVersion?: number): Promise<boolean> {
  const post = await claimPost(workspaceId, postId, mode, expectedVersion);
  if (!post) return false;
  const claimed = await claimTargets(post.id);
  const connections = await db.connection.findMany({ where: { id: { in: [...new Set(claimed.map((t) => t.connectionId))] } } });
  const byId = new Map(connections.map((c) => [c.id, c]));
  // allSettled: every attempt finishes (and records its outcome) even if another one throws.
  const results = await Promise.allSettled(claimed.map((t) => attemptTarget(post, t, byId.get(t.connectionId)!)));
  void kickOutboxDrain();
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
  await finishPost(post.id);
  return true;
}

/** POST /posts/{id}/publish: deliver now, then answer with the post and its targets. */
export async function publishPostNow(workspaceId: string, postId: string) {
  await deliverPost(workspaceId, postId, 'manual');
  return getPost(workspaceId, postId);
}
