'use client';
// The approval queue: pending posts with their preview and schedule. Keyboard: j/k move,
// a approves, r rejects (with a reason). Approve and reject are the posts services (events
// included); a reviewer may do nothing else.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { cn } from '@/app/_ui/cn';
import { Dialog } from '@/app/_ui/dialog';
import { Card, EmptyState, ErrorState, FieldError, Label, LoadingRows, PageHeader, Textarea } from '@/app/_ui/primitives';
import type { ConnectionDto } from '@/server/connections/connections.schemas';
import type { PendingApprovalDto } from '@/server/posts/review-post';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { MediaThumbnails, platformLabel, useInvalidateAll } from './post-bits';
import { TimeAgo } from '@/app/_ui/time-ago';

export function ApprovalQueue({ initial, connections }: { initial: PendingApprovalDto[] | null; connections: ConnectionDto[] }) {
  const { current } = useShell();
  const tz = current.timeZone;
  const invalidate = useInvalidateAll();
  const q = useQuery({
    queryKey: ['posts.pendingApprovals'],
    queryFn: async () => (await trpc.posts.pendingApprovals.query()).data,
    initialData: initial ?? undefined,
  });
  const [index, setIndex] = useState(0);
  const [rejecting, setRejecting] = useState<PendingApprovalDto | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const items = q.data ?? [];
  const at = Math.min(index, Math.max(0, items.length - 1));
  const selected = items[at];
  const refs = useRef<(HTMLLIElement | null)[]>([]);
  const names = new Map(connections.map((c) => [c.id, c.displayName]));

  const approve = useMutation({
    mutationFn: (id: string) => trpc.posts.approve.mutate({ id }),
    onSuccess: () => {
      toast.success('Approved');
      void invalidate();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  const reject = useMutation({
    mutationFn: (v: { id: string; reason: string }) => trpc.posts.reject.mutate(v),
    onSuccess: () => {
      toast.success('Rejected');
      setRejecting(null);
      setReason('');
      void invalidate();
    },
    onError: (e) => {
      const err = serverError(e);
      setReasonError(err.messages?.length ? err.messages.join('; ') : err.message);
    },
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (rejecting || e.metaKey || e.ctrlKey || e.altKey) return;
      const t = e.target as HTMLElement;
      if (t.closest('input, textarea, select, [contenteditable=true]')) return;
      if (e.key === 'j') setIndex((i) => Math.min(i + 1, items.length - 1));
      else if (e.key === 'k') setIndex((i) => Math.max(i - 1, 0));
      else if (e.key === 'a' && selected && !approve.isPending) approve.mutate(selected.id);
      else if (e.key === 'r' && selected) {
        e.preventDefault();
        setReasonError(null);
        setRejecting(selected);
      } else return;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [items.length, selected, rejecting, approve]);

  useEffect(() => {
    refs.current[at]?.scrollIntoView({ block: 'nearest' });
  }, [at]);

  return (
    <>
      <PageHeader title="Approvals" />
      <p className="mb-3 text-sm text-slate-600">
        Keyboard: <kbd className="rounded border px-1">j</kbd>/<kbd className="rounded border px-1">k</kbd> move, <kbd className="rounded border px-1">a</kbd>{' '}
        approve, <kbd className="rounded border px-1">r</kbd> reject.
      </p>
      {q.isPending ? (
        <LoadingRows rows={4} label="Loading the queue" />
      ) : q.isError ? (
        <ErrorState message={serverError(q.error).message} onRetry={() => q.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title="Nothing waiting for approval">Posts that need a reviewer show up here.</EmptyState>
      ) : (
        <ul className="space-y-3" aria-label="Posts waiting for approval">
          {items.map((p, i) => (
            <li
              key={p.id}
              ref={(el) => {
                refs.current[i] = el;
              }}
              aria-current={i === at ? 'true' : undefined}
              data-testid="approval-item"
              onClick={() => setIndex(i)}
            >
              <Card className={cn('space-y-2', i === at && 'ring-2 ring-brand-600')}>
                <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
                  <span className="font-medium text-slate-900">{p.scheduledAt ? formatIn(p.scheduledAt, tz) : 'No time yet'}</span>
                  <span>
                    · asked <TimeAgo iso={p.requestedAt ?? p.updatedAt} />
                    {p.requestedBy ? ` by ${p.requestedBy}` : ''}
                  </span>
                  <span>· {p.connectionIds.map((id) => names.get(id) ?? id).join(', ')}</span>
                </div>
                <p className="break-words whitespace-pre-wrap">{p.content}</p>
                {Object.entries(p.variants ?? {}).map(([pl, v]) => (
                  <p key={pl} className="rounded bg-slate-50 p-2 text-sm break-words">
                    <span className="font-semibold">{platformLabel(pl)}:</span> {v?.content}
                  </p>
                ))}
                <MediaThumbnails urls={p.mediaUrls} size={64} />
                <div className="flex gap-2">
                  <Button size="sm" onClick={() => approve.mutate(p.id)} disabled={approve.isPending}>
                    Approve
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    onClick={() => {
                      setReasonError(null);
                      setRejecting(p);
                    }}
                  >
                    Reject
                  </Button>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <Dialog
        open={!!rejecting}
        onOpenChange={(o) => !o && setRejecting(null)}
        title="Reject the post"
        description="The reason is kept with the post; editing it sends it back to the queue."
      >
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (!reason.trim()) return setReasonError('Say what should change: the reason goes back to whoever wrote the post.');
            if (rejecting) reject.mutate({ id: rejecting.id, reason });
          }}
        >
          <div>
            <Label htmlFor="reject-reason">Reason</Label>
            <Textarea
              id="reject-reason"
              rows={3}
              autoFocus
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              aria-invalid={!!reasonError}
              aria-describedby="reject-reason-error"
            />
            <FieldError id="reject-reason-error">{reasonError}</FieldError>
          </div>
          <Button type="submit" variant="danger" disabled={reject.isPending}>
            Reject
          </Button>
        </form>
      </Dialog>
    </>
  );
}
