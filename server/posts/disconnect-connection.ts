// Disconnecting an account from the app, and what it does to posts not yet delivered
// (docs/decisions.md → "Disconnecting an account"). The row stays: delivered targets keep
// pointing at it, and reconnecting the same account revives it. Its tokens are dropped.
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { isUuid } from '@/server/shared/schemas';
import { cancelPost } from './cancel-post';

const UNDELIVERED = ['draft', 'scheduled'] as const;

export interface ConnectionUsage {
  /** Draft and scheduled posts with this account among their targets. */
  posts: { id: string; content: string; status: string; scheduledAt: string | null; onlyTarget: boolean }[];
}

async function connectionOrThrow(workspaceId: string, id: string) {
  const row = isUuid(id) ? await db.connection.findFirst({ where: { id, workspaceId }, select: { id: true } }) : null;
  if (!row) throw new AppError('CONNECTION_NOT_FOUND', 'No connection with that id in this workspace', { field: 'id' });
  return row;
}

async function undeliveredPosts(workspaceId: string, connectionId: string) {
  return db.post.findMany({
    where: { workspaceId, status: { in: [...UNDELIVERED] }, targets: { some: { connectionId, status: 'pending' } } },
    select: { id: true, content: true, status: true, scheduledAt: true, _count: { select: { targets: true } } },
    orderBy: [{ scheduledAt: 'asc' }, { createdAt: 'asc' }],
  });
}

/** What disconnecting would change: the warning the app shows before it does. */
export async function connectionUsage(workspaceId: string, id: string): Promise<ConnectionUsage> {
  await connectionOrThrow(workspaceId, id);
  const posts = await undeliveredPosts(workspaceId, id);
  return {
    posts: posts.map((p) => ({
      id: p.id,
      content: p.content.slice(0, 120),
      status: p.status,
      scheduledAt: p.scheduledAt?.toISOString() ?? null,
      onlyTarget: p._count.targets === 1,
    })),
  };
}

/**
 * Disconnects: the account is marked inactive with its tokens dropped. A draft or scheduled
 * post that also targets other accounts loses this target and goes out to the others; a post
 * that targets only this account is cancelled (a post needs at least one account), through
 * the posts' own cancel so its delivery job is withdrawn.
 */
export async function disconnectConnection(workspaceId: string, id: string): Promise<{ targetsRemoved: number; postsCancelled: string[] }> {
  const connection = await connectionOrThrow(workspaceId, id);
  const posts = await undeliveredPosts(workspaceId, connection.id);
  const sole = posts.filter((p) => p._count.targets === 1).map((p) => p.id);
  const shared = posts.filter((p) => p._count.targets > 1).map((p) => p.id);
  const removed = await db.$transaction(async (tx) => {
    await tx.connection.update({
      where: { id: connection.id },
      data: {
        status: 'inactive',
        accessToken: null,
        refreshToken: null,
        lastError: 'Disconnected in Herald; reconnect it to publish again',
        lastErrorAt: new Date(),
      },
    });
    const deleted = await tx.postTarget.deleteMany({
      where: { connectionId: connection.id, status: 'pending', postId: { in: shared }, post: { status: { in: [...UNDELIVERED] } } },
    });
    // The post must say what its targets now are, in one statement for all of them: its
    // accounts, its platforms (list filters and counts read them), and only the variants and
    // settings of platforms it still targets (the post rules refuse any other on a later edit).
    if (shared.length) {
      await tx.$executeRaw`
        UPDATE "Post" p SET
          "connectionIds" = array_remove(p."connectionIds", ${connection.id}::text),
          "platforms" = left_."platforms",
          "variants" = (SELECT jsonb_object_agg(key, value) FROM jsonb_each(p."variants") WHERE key = ANY(left_."platforms")),
          "platformSettings" = (SELECT jsonb_object_agg(key, value) FROM jsonb_each(p."platformSettings") WHERE key = ANY(left_."platforms")),
          "updatedAt" = now()
        FROM (SELECT t."postId", array_agg(DISTINCT t."platform") AS "platforms" FROM "PostTarget" t
              WHERE t."postId" = ANY(${shared}::uuid[]) GROUP BY t."postId") left_
        WHERE p."id" = left_."postId"`;
    }
    return deleted.count;
  });
  const cancelled: string[] = [];
  for (const postId of sole) {
    try {
      await cancelPost(workspaceId, postId);
      cancelled.push(postId);
    } catch (err) {
      // Started publishing in the meantime: delivery settles it; nothing to undo here.
      if (!(err instanceof AppError && err.code === 'POST_NOT_EDITABLE')) throw err;
    }
  }
  return { targetsRemoved: removed, postsCancelled: cancelled };
}
