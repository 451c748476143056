'use client';
// Clients: the workspaces this agency manages, each with its accounts' token health and the
// posts waiting for approval; create, open (switch to it), manage, detach.
import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Badge, Card, EmptyState, ErrorState, LoadingRows, PageHeader } from '@/app/_ui/primitives';
import type { ClientSummary } from '@/server/app/client-summaries';
import { adminOnly, serverError, trpc } from '../../_lib/trpc';
import { enterWorkspace } from '../../_lib/workspace-cookie';
import { DetachDialog } from './detach-dialog';
import { NewClientDialog } from '../shell/new-client-dialog';

export function ClientHealth({ health }: { health: ClientSummary['health'] }) {
  const total = Object.values(health).reduce((a, b) => a + b, 0);
  if (total === 0) return <span className="text-sm text-slate-600">No accounts connected</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {health.valid ? <Badge tone="good">{health.valid} valid</Badge> : null}
      {health.expiring_soon ? <Badge tone="warn">{health.expiring_soon} expiring soon</Badge> : null}
      {health.expired ? <Badge tone="bad">{health.expired} expired</Badge> : null}
      {health.unknown ? <Badge>{health.unknown} unknown</Badge> : null}
    </span>
  );
}

export function ClientsList({ initial }: { initial: ClientSummary[] | null }) {
  const router = useRouter();
  const [creating, setCreating] = useState(false);
  const [detaching, setDetaching] = useState<ClientSummary | null>(null);
  const q = useQuery({ queryKey: ['app.clients'], queryFn: async () => (await trpc.app.clients.query()).data, initialData: initial ?? undefined });
  const detach = useMutation({
    mutationFn: (id: string) => trpc.workspaces.detach.mutate({ id }),
    onSuccess: () => {
      toast.success('Client detached');
      setDetaching(null);
      // The switcher lists clients too; a reload refreshes every cache at once.
      router.refresh();
      void q.refetch();
    },
    onError: (e) => toast.error(serverError(e).message),
  });

  return (
    <>
      <PageHeader title="Clients">
        <Button onClick={() => setCreating(true)}>New client</Button>
      </PageHeader>
      {q.isPending ? (
        <LoadingRows label="Loading clients" />
      ) : q.isError ? (
        <ErrorState message={adminOnly(q.error, 'Clients')} onRetry={() => void q.refetch()} />
      ) : q.data.length === 0 ? (
        <EmptyState title="No clients yet">Create a client workspace to manage its accounts and posts, and send it connect and review links.</EmptyState>
      ) : (
        <ul className="space-y-3" aria-label="Client workspaces">
          {q.data.map((c) => (
            <li key={c.id}>
              <Card className="flex flex-col gap-3 sm:flex-row sm:items-center">
                <div className="min-w-0 flex-1">
                  <h2 className="font-semibold break-words text-slate-900">
                    <Link href={`/clients/${c.id}`} className="hover:underline">
                      {c.name}
                    </Link>
                  </h2>
                  <p className="text-xs break-all text-slate-600">{c.slug}</p>
                  <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
                    <ClientHealth health={c.health} />
                    {c.pendingApprovals > 0 ? (
                      <Badge tone="warn">{c.pendingApprovals} awaiting approval</Badge>
                    ) : (
                      <span className="text-slate-600">Nothing awaiting approval</span>
                    )}
                  </div>
                </div>
                <div className="flex flex-wrap gap-2">
                  <Button size="sm" variant="secondary" asChild>
                    <Link href={`/clients/${c.id}`} aria-label={`Manage ${c.name}`}>
                      Manage
                    </Link>
                  </Button>
                  <Button size="sm" variant="secondary" onClick={() => enterWorkspace(c.id, '/')} aria-label={`Open ${c.name}`}>
                    Open
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => setDetaching(c)} aria-label={`Detach ${c.name}`}>
                    Detach
                  </Button>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <NewClientDialog open={creating} onOpenChange={setCreating} onCreated={(created) => router.push(`/clients/${created.id}`)} />
      <DetachDialog client={detaching} onOpenChange={(o) => !o && setDetaching(null)} pending={detach.isPending} onConfirm={(id) => detach.mutate(id)} />
    </>
  );
}
