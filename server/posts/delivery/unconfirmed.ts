// Targets Herald could not settle after an interruption (settle.ts: failed, with the evidence in
// `settlement`; or failed as interrupted before Herald asked networks). Nobody knows whether they
// went out, so they are never sent again by accident: a retry or publish that would resend one
// is refused with TARGET_UNCONFIRMED; the caller checks the account, then sends it again on its
// own (the resend route) or marks it published with the address they found it at.
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { outboxInsertSql } from '@/server/events/record-event';
import { kickOutboxDrain } from '@/server/events/kick-outbox';
import { Prisma } from '@/server/generated/prisma/client';
import { isUuid } from '@/server/shared/schemas';
import { findPostRow } from '../read-posts';

/** Failed without knowing whether the network has the post. */
const UNCONFIRMED = Prisma.sql`t."status" = 'failed' AND t."confirmedAt" IS NULL
  AND (t."settlement" IS NOT NULL OR t."error" LIKE 'Delivery was interrupted%')`;

/** SQL: the post (`postId`, an expression) has an account nobody knows the fate of. */
export const hasUnconfirmedTargetSql = (postId: Prisma.Sql) =>
  Prisma.sql`EXISTS (SELECT 1 FROM "PostTarget" t WHERE t."postId" = ${postId} AND ${UNCONFIRMED})`;

/** The unconfirmed targets a retry (of `targetIds`, or every failed one) would send again. */
async function unconfirmedTargets(postId: string, targetIds?: readonly string[]): Promise<string[]> {
  const only = targetIds?.length ? Prisma.sql`AND t."id" = ANY(${[...targetIds]}::uuid[])` : Prisma.empty;
  const rows = await db.$queryRaw<{ id: string }[]>`SELECT t."id" FROM "PostTarget" t WHERE t."postId" = ${postId}::uuid AND ${UNCONFIRMED} ${only}`;
  return rows.map((r) => r.id);
}

/** Refuses a resend of targets nobody knows the fate of, unless the caller confirmed they did not go out. */
export async function refuseUnconfirmedResend(postId: string, opts: { targetIds?: readonly string[]; confirmNotPublished?: boolean }): Promise<void> {
  if (opts.confirmNotPublished) return;
  const unconfirmed = await unconfirmedTargets(postId, opts.targetIds);
  if (unconfirmed.length) {
    throw new AppError(
      'TARGET_UNCONFIRMED',
      `${unconfirmed.length} account${unconfirmed.length === 1 ? ' was' : 's were'} cut off while publishing and Herald could not confirm whether the post went out: check the account, then mark it published (POST /posts/{id}/targets/{targetId}/published) or send it again on its own (POST /posts/{id}/targets/{targetId}/resend)`,
    );
  }
}

/** Whether the target may be marked published now (run before an assistant's call is staged). */
export async function checkMarkPublished(workspaceId: string, postId: string, targetId: string): Promise<void> {
  await findPostRow(workspaceId, postId);
  if (!isUuid(targetId) || !(await db.postTarget.count({ where: { id: targetId, postId } }))) {
    throw new AppError('POST_NOT_FOUND', 'No such account delivery on this post', { field: 'targetId' });
  }
  if (!(await unconfirmedTargets(postId, [targetId])).length) {
    throw new AppError('POST_NOT_EDITABLE', 'Only an account whose publish could not be confirmed can be marked published', { field: 'targetId' });
  }
}

/**
 * "It went out": a member saw the post on the network. The target becomes published with the
 * address they give, its post.published event says when it was confirmed, and the post's
 * status follows its targets.
 */
export async function markTargetPublished(workspaceId: string, postId: string, targetId: string, permalink: string, by: string): Promise<void> {
  await checkMarkPublished(workspaceId, postId, targetId);
  const now = new Date();
  const [target] = await db.$queryRaw<{ id: string; platform: string; connectionId: string; publishedAt: Date }[]>`
    UPDATE "PostTarget" t SET "status" = 'published', "permalink" = ${permalink}, "error" = NULL, "confirmedAt" = ${now},
      "settlement" = ${`Marked as published by ${by}`}, "publishedAt" = COALESCE(t."attemptStartedAt", ${now}), "updatedAt" = now()
    WHERE t."id" = ${targetId}::uuid AND t."postId" = ${postId}::uuid AND ${UNCONFIRMED}
    RETURNING t."id", t."platform", t."connectionId", t."publishedAt"`;
  if (!target) {
    throw new AppError('POST_NOT_EDITABLE', 'Only an account whose publish could not be confirmed can be marked published', { field: 'targetId' });
  }
  await db.$transaction(async (tx) => {
    await tx.$executeRaw(
      outboxInsertSql({
        workspaceId,
        type: 'post.published',
        data: {
          postId,
          targetId,
          platform: target.platform,
          connectionId: target.connectionId,
          postedId: null,
          permalink,
          publishedAt: target.publishedAt.toISOString(),
          confirmedAt: now.toISOString(),
        },
      }),
    );
    // The post follows its targets: all landed → published, some → partly published.
    await tx.$executeRaw`
      UPDATE "Post" p SET "status" = CASE WHEN s.landed = s.total THEN 'published' ELSE 'partial_published' END,
        "publishedAt" = COALESCE(p."publishedAt", s.first), "updatedAt" = now()
      FROM (SELECT count(*) AS total, count(*) FILTER (WHERE "status" = 'published') AS landed, min("publishedAt") FILTER (WHERE "status" = 'published') AS first
              FROM "PostTarget" WHERE "postId" = ${postId}::uuid) s
      WHERE p."id" = ${postId}::uuid AND p."status" IN ('failed', 'partial_published')`;
  });
  void kickOutboxDrain();
}
