// DELETE /posts/{id}: cancels. The row stays; nothing is removed from any platform. A
// cancelled post can be restored to a draft (the staff app's undo and "Restore to draft").
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
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

/**
 * A cancelled post back to a draft with its content, accounts, variants and media: not
 * scheduled and not in the approval queue, so nothing goes out until someone schedules,
 * publishes or asks for approval again (the rules of a draft apply from there).
 */
export async function restorePost(workspaceId: string, id: string): Promise<PostDto> {
  const post = await db.$transaction(async (tx) => {
    const locked = await lockPost(tx, workspaceId, id);
    if (locked.status !== 'cancelled') {
      throw new AppError('POST_NOT_EDITABLE', `Only a cancelled post can be restored; this one is ${locked.status.replace('_', ' ')}`);
    }
    return tx.post.update({
      where: { id: locked.id },
      data: {
        status: 'draft',
        scheduledAt: null,
        approvalStatus: 'none',
        approvalRequestedBy: null,
        approvalRequestedAt: null,
        scheduleVersion: { increment: 1 },
      },
      include: { targets: true },
    });
  });
  return toPostDto(post);
}
