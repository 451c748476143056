'use client';
// Replies waiting for approval (the workspace's "Replies need approval" setting): each with the
// comment it answers, approved (it goes out through the network at once) or rejected with a
// reason. A reply the network refused after approval stays here with the network's words.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Badge, Card } from '@/app/_ui/primitives';
import { TimeAgo } from '@/app/_ui/time-ago';
import { serverError, trpc } from '../../_lib/trpc';
import { platformLabel, useInvalidateAll } from '../publishing/post-bits';

export function PendingReplies() {
  const invalidate = useInvalidateAll();
  const q = useQuery({ queryKey: ['inbox.pendingReplies'], queryFn: async () => (await trpc.inbox.pendingReplies.query()).data });
  const [busy, setBusy] = useState<string | null>(null);
  const decide = useMutation({
    mutationFn: async (v: { id: string; approve: boolean }) => {
      setBusy(v.id);
      return v.approve ? trpc.inbox.approveReply.mutate({ id: v.id }) : trpc.inbox.rejectReply.mutate({ id: v.id });
    },
    onSuccess: (_r, v) => toast.success(v.approve ? 'Approved: the reply went out' : 'Rejected'),
    onError: (e) => toast.error(serverError(e).message),
    onSettled: () => {
      setBusy(null);
      void invalidate();
      void q.refetch();
    },
  });
  const items = q.data ?? [];
  if (!items.length) return null;
  return (
    <section className="mt-8" aria-labelledby="pending-replies">
      <h2 id="pending-replies" className="mb-3 text-lg font-semibold">
        Replies waiting for approval
      </h2>
      <ul className="space-y-3">
        {items.map(({ reply, answering, workspaceName }) => (
          <li key={reply.id} data-testid="pending-reply">
            <Card className="space-y-2 text-sm">
              <p className="text-slate-600">
                {platformLabel(reply.platform)} · {reply.accountName} · {workspaceName} · written <TimeAgo iso={reply.createdAt} />
                {reply.reply?.writtenBy ? ` by ${reply.reply.writtenBy}` : ''}
              </p>
              {answering ? (
                <p className="rounded bg-slate-50 p-2 break-words">
                  <span className="font-medium">{answering.author.name}:</span> {answering.text}
                </p>
              ) : null}
              <p className="ml-4 break-words whitespace-pre-wrap">{reply.text}</p>
              {reply.reply?.state === 'failed' ? (
                <p className="text-red-700">
                  <Badge tone="bad">not sent</Badge> {reply.reply.error}
                </p>
              ) : null}
              <div className="flex gap-2">
                <Button size="sm" disabled={busy === reply.id} onClick={() => decide.mutate({ id: reply.id, approve: true })}>
                  {reply.reply?.state === 'failed' ? 'Try again' : 'Approve and send'}
                </Button>
                <Button size="sm" variant="secondary" disabled={busy === reply.id} onClick={() => decide.mutate({ id: reply.id, approve: false })}>
                  Reject
                </Button>
              </div>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
