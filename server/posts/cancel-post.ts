// DELETE /posts/{id}: cancels. The row stays; nothing is removed from any platform.
import { db } from '@/server/db/client';
import { unscheduleDelivery } from './delivery/schedule';
import { lockPost } from './lock-post';
import { toPostDto } from './post-dto';
import { assertEditable } from './post-rules';
import type { PostDto } from './posts.schemas';

export async function cancelPost(workspaceId: string, id: string): Promise<PostDto> {
  const post = await db.$transaction(async (tx) => {
    const locked = await lockPost(tx, workspaceId, id);
    assertEditable(locked.status);
    return tx.post.update({ where: { id: locked.id }, data: { status: 'cancelled', scheduleVersion: { increment: 1 } }, include: { targets: true } });
  });
  await unscheduleDelivery(post.id);
  return toPostDto(post);
}
