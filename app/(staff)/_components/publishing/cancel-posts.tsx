'use client';
// Cancelling posts, the one way every screen does it: a confirmation that says what will not
// go out ("3 posts, 7 accounts"), then a notice with Undo. Undo restores each post to a draft
// and puts back the time of any that was still due later, so it is scheduled as before.
// A cancelled post's page also offers "Restore to draft" (RestorePostButton).
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Dialog } from '@/app/_ui/dialog';
import type { PostListRowDto } from '@/server/posts/posts.schemas';
import { serverError, trpc } from '../../_lib/trpc';
import { useInvalidateAll } from './post-bits';

type Cancellable = Pick<PostListRowDto, 'id' | 'connectionIds' | 'scheduledAt'>;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "1 post, 3 accounts" — what a cancel takes away. */
export function cancelSummary(posts: readonly Cancellable[]): string {
  const accounts = new Set(posts.flatMap((p) => p.connectionIds)).size;
  return `${plural(posts.length, 'post')}, ${plural(accounts, 'account')}`;
}

/** Restores the posts to drafts and schedules again those whose time is still ahead. */
async function undoCancel(posts: readonly Cancellable[]): Promise<number> {
  let restored = 0;
  for (const post of posts) {
    await trpc.posts.restore.mutate({ id: post.id });
    if (post.scheduledAt && new Date(post.scheduledAt).getTime() > Date.now() + 60_000) {
      await trpc.posts.update.mutate({ id: post.id, scheduledAt: post.scheduledAt });
    }
    restored += 1;
  }
  return restored;
}

/**
 * The Cancel button and its confirmation. `cancel` does the work and returns the ids it
 * cancelled (a bulk cancel may refuse some); `onDone` runs after it (clear a selection).
 */
export function CancelPostsButton({
  posts,
  cancel,
  onDone,
  label = 'Cancel post',
  size,
}: {
  posts: readonly Cancellable[];
  cancel: () => Promise<{ cancelled: string[]; refused: string[] }>;
  onDone?: () => void;
  label?: string;
  size?: 'sm';
}) {
  const [open, setOpen] = useState(false);
  const invalidate = useInvalidateAll();
  const undo = useMutation({
    mutationFn: undoCancel,
    onSuccess: (n) => {
      toast.success(`${plural(n, 'post')} restored`);
      void invalidate();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  const run = useMutation({
    mutationFn: cancel,
    onSuccess: ({ cancelled, refused }) => {
      setOpen(false);
      onDone?.();
      void invalidate();
      const undone = posts.filter((p) => cancelled.includes(p.id));
      const text = `${cancelSummary(undone)} cancelled${refused.length ? `; ${refused.join('; ')}` : ''}`;
      const options = { duration: 10_000, action: { label: 'Undo', onClick: () => undo.mutate(undone) } };
      if (refused.length) toast.warning(text, options);
      else toast.success(text, options);
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  const summary = cancelSummary(posts);
  return (
    <>
      <Button variant="danger" size={size} onClick={() => setOpen(true)} disabled={run.isPending || posts.length === 0}>
        {label}
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={posts.length === 1 ? 'Cancel this post?' : `Cancel ${plural(posts.length, 'post')}?`}
        description={`Nothing will go out for ${summary}. The text, media and accounts are kept: you can undo right after, or restore a cancelled post to a draft from its page.`}
      >
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Keep
          </Button>
          <Button variant="danger" disabled={run.isPending} onClick={() => run.mutate()}>
            {run.isPending ? 'Cancelling…' : `Cancel ${summary}`}
          </Button>
        </div>
      </Dialog>
    </>
  );
}

/** On a cancelled post: back to a draft (not scheduled, not in the approval queue). */
export function RestorePostButton({ id }: { id: string }) {
  const invalidate = useInvalidateAll();
  const restore = useMutation({
    mutationFn: () => trpc.posts.restore.mutate({ id }),
    onSuccess: () => {
      toast.success('Restored to a draft: schedule or publish it when ready');
      void invalidate();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  return (
    <Button variant="secondary" onClick={() => restore.mutate()} disabled={restore.isPending}>
      {restore.isPending ? 'Restoring…' : 'Restore to draft'}
    </Button>
  );
}
