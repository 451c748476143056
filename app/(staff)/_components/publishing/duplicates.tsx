'use client';
// Duplicates: the same text to the same account within 24 hours, with one action to keep one.
import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Card, EmptyState, ErrorState, LoadingRows, PageHeader } from '@/app/_ui/primitives';
import type { ConnectionDto } from '@/server/connections/connections.schemas';
import type { DuplicateGroup } from '@/server/posts/duplicate-posts';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { StatusBadge, useInvalidateAll } from './post-bits';

export function Duplicates({ initial, connections }: { initial: DuplicateGroup[] | null; connections: ConnectionDto[] }) {
  const { current } = useShell();
  const invalidate = useInvalidateAll();
  const names = new Map(connections.map((c) => [c.id, c.displayName]));
  const q = useQuery({ queryKey: ['posts.duplicates'], queryFn: async () => (await trpc.posts.duplicates.query()).data, initialData: initial ?? undefined });
  const keep = useMutation({
    mutationFn: (v: { keepId: string; groupKey: string }) => trpc.posts.resolveDuplicates.mutate(v),
    onSuccess: (r) => {
      toast.success(`Kept one, cancelled ${r.data.cancelled.length}`);
      void invalidate();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  return (
    <>
      <PageHeader title="Duplicates">
        <Button variant="secondary" asChild>
          <Link href="/posts">Back to posts</Link>
        </Button>
      </PageHeader>
      <p className="mb-3 text-sm text-slate-600">Drafts and scheduled posts sending the same text to the same account within 24 hours of each other.</p>
      {q.isPending ? (
        <LoadingRows rows={3} label="Looking for duplicates" />
      ) : q.isError ? (
        <ErrorState message={serverError(q.error).message} onRetry={() => q.refetch()} />
      ) : q.data.length === 0 ? (
        <EmptyState title="No duplicates found" />
      ) : (
        <ul className="space-y-3">
          {q.data.map((g) => (
            <li key={g.key} data-testid="duplicate-group">
              <Card>
                <p className="font-medium break-words">“{g.content}”</p>
                <p className="mb-2 text-sm text-slate-600">To {g.connectionIds.map((id) => names.get(id) ?? id).join(', ')}</p>
                <ul className="space-y-1">
                  {g.posts.map((p) => (
                    <li key={p.id} className="flex flex-wrap items-center gap-2 text-sm">
                      <Link href={`/posts/${p.id}`} className="underline">
                        {p.scheduledAt ? formatIn(p.scheduledAt, current.timeZone) : `draft from ${formatIn(p.createdAt, current.timeZone)}`}
                      </Link>
                      <StatusBadge status={p.status} />
                      <Button size="sm" variant="secondary" disabled={keep.isPending} onClick={() => keep.mutate({ keepId: p.id, groupKey: g.key })}>
                        Keep this one
                      </Button>
                    </li>
                  ))}
                </ul>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
