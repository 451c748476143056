// Row lock on a post inside a transaction: edits, cancels, approvals and the start of a
// delivery serialise on it, so a post cannot be edited while it starts publishing.
import type { Tx } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { isUuid } from '@/server/shared/schemas';

export async function lockPost(tx: Tx, workspaceId: string | null, postId: string) {
  if (!isUuid(postId)) throw new AppError('POST_NOT_FOUND', 'No post with that id in this workspace', { field: 'id' });
  await tx.$queryRaw`SELECT 1 FROM "Post" WHERE "id" = ${postId}::uuid FOR UPDATE`;
  const post = await tx.post.findFirst({ where: { id: postId, ...(workspaceId ? { workspaceId } : {}) }, include: { targets: true } });
  if (!post) throw new AppError('POST_NOT_FOUND', 'No post with that id in this workspace', { field: 'id' });
  return post;
}
