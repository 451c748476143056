// DELETE /posts/{id}: cancels. The row stays; nothing is removed from any platform.
import { db } from '@/server/db/client';
import { unscheduleDelivery } from './delivery/schedule';
import { lockPost } from './lock-post';
import { toPostDto } from './post-dto';
import { assertEditable } from './post-rules';
import type { PostDto } from './posts.schemas';
import { findPostRow } from './read-posts';

/** Whether the post can be cancelled now, without touching it (run before a call is staged). */
export async function checkCancelPost(workspaceId: string, id: string): Promise<void> {
  assertEditable((await findPostRow(workspaceId, id)).status);
}

export async function cancelPost(workspaceId: string, id: string): Promise<PostDto> {
  const post = await db.$transaction(async (tx) => {
    const locked = await lockPost(tx, workspaceId, id);
    assertEditable(locked.status);
    return tx.post.update({ where: { id: locked.id }, data: { status: 'cancelled', scheduleVersion: { increment: 1 } }, include: { targets: true } });
  });
  await unscheduleDelivery(post.id);
  return toPostDto(post);
}
