'use client';
import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { cn } from '@/app/_ui/cn';
import { Card, EmptyState, ErrorState, LoadingRows, PageHeader } from '@/app/_ui/primitives';
import type { NotificationDto } from '@/server/notifications/notifications';
import { serverError, trpc } from '../../_lib/trpc';
import { useInvalidateAll } from '../publishing/post-bits';
import { TimeAgo } from '@/app/_ui/time-ago';

function linkOf(n: NotificationDto): string | null {
  // A client's act through a link: its page in the agency's Clients screen.
  if (n.kind.startsWith('client.') && typeof n.data.clientWorkspaceId === 'string') return `/clients/${n.data.clientWorkspaceId}`;
  if (typeof n.data.postId === 'string') return n.kind === 'approval.requested' ? '/approvals' : `/posts/${n.data.postId}`;
  if (n.kind === 'review.received') return '/inbox';
  if (n.kind === 'connection.expired') return '/connections';
  if (n.kind === 'webhook.paused') return '/webhooks';
  if (n.kind === 'proposal.staged') return '/assistant';
  if (n.kind === 'workflow.failed') return '/workflows';
  if (n.kind === 'sync.failed') return '/analytics';
  return null;
}

export function Notifications({ initial }: { initial: { items: NotificationDto[]; unread: number } | null }) {
  const invalidate = useInvalidateAll();
  const q = useQuery({
    queryKey: ['notifications.list'],
    queryFn: async () => (await trpc.notifications.list.query()).data,
    initialData: initial ?? undefined,
  });
  const mark = useMutation({
    mutationFn: (input: { ids?: string[]; all?: true }) => trpc.notifications.markRead.mutate(input),
    onSuccess: () => void invalidate(),
    onError: (e) => toast.error(serverError(e).message),
  });
  return (
    <>
      <PageHeader title="Notifications">
        <Button variant="secondary" disabled={!q.data?.unread || mark.isPending} onClick={() => mark.mutate({ all: true })}>
          Mark all read
        </Button>
      </PageHeader>
      {q.isPending ? (
        <LoadingRows rows={5} label="Loading notifications" />
      ) : q.isError ? (
        <ErrorState message={serverError(q.error).message} onRetry={() => q.refetch()} />
      ) : q.data.items.length === 0 ? (
        <EmptyState title="No notifications">
          Approval requests, failed posts, accounts needing attention, paused webhooks, assistant requests, failed workflows and analytics sync failures show up
          here.
        </EmptyState>
      ) : (
        <ul className="space-y-2">
          {q.data.items.map((n) => {
            const href = linkOf(n);
            return (
              <li key={n.id} data-testid="notification">
                <Card className={cn('flex flex-wrap items-start gap-3', !n.readAt && 'border-brand-100 bg-brand-50')}>
                  <div className="min-w-0 flex-1">
                    <p className="font-medium">
                      {!n.readAt ? <span className="sr-only">Unread: </span> : null}
                      {href ? (
                        <Link href={href} className="hover:underline" onClick={() => !n.readAt && mark.mutate({ ids: [n.id] })}>
                          {n.title}
                        </Link>
                      ) : (
                        n.title
                      )}
                    </p>
                    <p className="text-sm break-words text-slate-700">{n.body}</p>
                    <p className="text-xs text-slate-600">
                      <TimeAgo iso={n.createdAt} />
                    </p>
                  </div>
                  {!n.readAt ? (
                    <Button size="sm" variant="ghost" onClick={() => mark.mutate({ ids: [n.id] })}>
                      Mark read
                    </Button>
                  ) : null}
                </Card>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
