// A post's delivery history: every outcome of every attempt, with its time, read from the
// outcome events the delivery writes in the same statement as the outcome itself
// (post.published, post.failed), which the outbox keeps. The post page shows it per account.
import { z } from 'zod';
import { Prisma } from '@/server/generated/prisma/client';
import { sqlRows } from '@/server/db/sql';
import { AppError } from '@/server/errors/app-error';
import { isUuid, ZTimestamp } from '@/server/shared/schemas';

export const ZDeliveryAttempt = z.object({
  targetId: z.string(),
  outcome: z.enum(['published', 'failed']),
  at: ZTimestamp,
  /** CONNECTION_EXPIRED, PLATFORM_ERROR, DELIVERY_UNCONFIRMED (DELIVERY_INTERRUPTED before Herald asked networks), DELIVERY_ERROR; null when published. */
  code: z.string().nullable(),
  message: z.string().nullable(),
});
export type DeliveryAttemptDto = z.infer<typeof ZDeliveryAttempt>;

/** Oldest first. */
export async function deliveryHistory(workspaceId: string, postId: string): Promise<DeliveryAttemptDto[]> {
  if (!isUuid(postId)) throw new AppError('POST_NOT_FOUND', 'No post with that id in this workspace', { field: 'id' });
  const rows = await sqlRows<{ type: string; data: Record<string, unknown>; createdAt: string }>(
    Prisma.sql`
      SELECT "type", "data", "createdAt" FROM "OutboxEvent"
      WHERE "workspaceId" = ${workspaceId}::uuid AND ("data" ->> 'postId') = ${postId} AND "type" IN ('post.published', 'post.failed')
      ORDER BY "createdAt", "id"`,
    { timestamps: 'iso' },
  );
  return rows.map((row) => {
    const data = row.data as { targetId?: string; publishedAt?: string; failedAt?: string; error?: { code?: string; message?: string } };
    const failed = row.type === 'post.failed';
    return {
      targetId: String(data.targetId ?? ''),
      outcome: failed ? 'failed' : 'published',
      at: (failed ? data.failedAt : data.publishedAt) ?? row.createdAt,
      code: failed ? (data.error?.code ?? null) : null,
      message: failed ? (data.error?.message ?? null) : null,
    };
  });
}
