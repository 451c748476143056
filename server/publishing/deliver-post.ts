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
import { outboxInsertSql, recordEvent } from '@/server/events/record-event';
import { Prisma } from '@/server/generated/prisma/client';
import type { Connection, PostTarget } from '@/server/generated/prisma/client';
import type { Platform } from '@/server/connections/connections.schemas';
import { PlatformError, TokenExpiredError } from '@/server/platforms/publisher';
import { publisherFor } from '@/server/platforms/registry';
import { lockPost } from '@/server/posts/lock-post';
import { isApprovalBlocking, PUBLISHABLE_STATUSES } from '@/server/posts/post-rules';
import type { StoredMedia } from '@/server/posts/post-inputs';

export const INTERRUPTED_ERROR = 'Delivery was interrupted while the platform was being called; the post may or may not have been published. Check the account before publishing again.';

type Mode = 'manual' | 'scheduled';

/** Longer than any platform call may take (adapters time out well before). */
const INTERRUPTED_AFTER_MS = 3 * 60_000;

/** Moves the post to publishing (or finds it already there when resuming). */
async function claimPost(workspaceId: string | null, postId: string, mode: Mode) {
  return db.$transaction(async (tx) => {
    const post = await lockPost(tx, workspaceId, postId);
    if (isApprovalBlocking(post.approvalStatus)) {
      throw new AppError('APPROVAL_REQUIRED', 'The post is waiting for approval: a member approves it in the app');
    }
    if (post.status === 'publishing') {
      if (mode === 'manual') throw new AppError('POST_NOT_EDITABLE', 'The post is already publishing');
      // Resuming after a crash or a retry: a claim older than any platform call can take was
      // interrupted; a fresher one may still be running elsewhere, so try again later.
      const cutoff = new Date(Date.now() - INTERRUPTED_AFTER_MS);
      const inFlight = post.targets.filter((t) => t.status === 'publishing');
      if (inFlight.some((t) => t.attemptStartedAt && t.attemptStartedAt > cutoff)) {
        throw new Error(`post ${post.id} has a target attempt in progress; retrying later`);
      }
      if (inFlight.length) {
        await tx.postTarget.updateMany({ where: { postId: post.id, status: 'publishing' }, data: { status: 'failed', error: INTERRUPTED_ERROR } });
        return tx.post.findUniqueOrThrow({ where: { id: post.id }, include: { targets: true } });
      }
      return post;
    }
    if (!(PUBLISHABLE_STATUSES as readonly string[]).includes(post.status)) {
      throw new AppError('POST_NOT_EDITABLE', `A ${post.status.replace('_', ' ')} post cannot be published`);
    }
    // Publishing a failed post again retries its failed targets.
    await tx.postTarget.updateMany({ where: { postId: post.id, status: 'failed' }, data: { status: 'pending', error: null } });
    await tx.postTarget.updateMany({ where: { postId: post.id, status: 'publishing' }, data: { status: 'failed', error: INTERRUPTED_ERROR } });
    return tx.post.update({ where: { id: post.id }, data: { status: 'publishing', scheduleVersion: { increment: 1 } }, include: { targets: true } });
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

/** Final status from the targets: all landed, some landed, or none. */
async function finishPost(postId: string) {
  return db.$transaction(async (tx) => {
    const post = await tx.post.findUniqueOrThrow({ where: { id: postId }, include: { targets: true } });
    if (post.status !== 'publishing' || post.targets.some((t) => t.status === 'pending' || t.status === 'publishing')) return post;
    const landed = post.targets.filter((t) => t.status === 'published');
    const status = landed.length === post.targets.length ? 'published' : landed.length > 0 ? 'partial_published' : 'failed';
    const publishedAt = landed.length ? new Date(Math.min(...landed.map((t) => t.publishedAt!.getTime()))) : null;
    return tx.post.update({ where: { id: postId }, data: { status, publishedAt }, include: { targets: true } });
  });
}

/**
 * Publishes now. Returns after every target was attempted. `workspaceId` scopes the lookup
 * (null for the job, which already knows the post is its own).
 */
export async function deliverPost(workspaceId: string | null, postId: string, mode: Mode = 'manual') {
  const post = await claimPost(workspaceId, postId, mode);
  const connections = await db.connection.findMany({ where: { id: { in: post.targets.map((t) => t.connectionId) } } });
  const byId = new Map(connections.map((c) => [c.id, c]));
  // allSettled: every attempt finishes (and records its outcome) even if another one throws.
  const claimed = await claimTargets(post.id);
  const results = await Promise.allSettled(claimed.map((t) => attemptTarget(post, t, byId.get(t.connectionId)!)));
  await kickOutboxDrain();
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
  return finishPost(post.id);
}
