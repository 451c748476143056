'use client';
// Connections: every account of the workspace with its token health, last error and last
// successful post. Connecting and reconnecting go through the hosted connect page (the same
// page and OAuth flow a client uses), opened in a new tab; disconnecting warns first about
// the posts that target the account.
import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Dialog } from '@/app/_ui/dialog';
import { Card, EmptyState, ErrorState, LoadingRows, PageHeader } from '@/app/_ui/primitives';
import type { ConnectionDto } from '@/server/connections/connections.schemas';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { HealthBadge, platformLabel } from '../publishing/post-bits';
import { TimeAgo } from '@/app/_ui/time-ago';

export function ConnectionsList({ initial }: { initial: ConnectionDto[] | null }) {
  const shell = useShell();
  const canConnect = shell.current.scopes.includes('posts:write');
  const canDisconnect = shell.current.scopes.includes('workspaces:manage');
  const [disconnecting, setDisconnecting] = useState<ConnectionDto | null>(null);
  const q = useQuery({
    queryKey: ['connections.list'],
    queryFn: async () => (await trpc.connections.list.query()).data,
    initialData: initial ?? undefined,
  });
  // The account is connected in another tab: look again when the member comes back.
  const refetch = q.refetch;
  useEffect(() => {
    const onFocus = () => void refetch();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [refetch]);

  const connect = useMutation({
    mutationFn: async () => (await trpc.connections.connectLink.mutate()).data,
    onSuccess: (link) => {
      // Not the `noopener` feature: with it window.open answers null even when the tab opened,
      // and a blocked pop-up could not be told apart. The opener is cut by hand instead.
      const opened = window.open(link.url, '_blank');
      if (opened) opened.opener = null;
      else window.location.assign(link.url);
      toast.info('Finish on the connect page; this list updates when you come back.');
    },
    onError: (e) => toast.error(serverError(e).message),
  });

  const sandbox = useMutation({
    mutationFn: (platform: 'linkedin' | 'instagram' | 'twitter') => trpc.agencies.addSandboxAccount.mutate({ platform }),
    onSuccess: () => {
      toast.success('Demo account connected: it publishes nowhere, so try anything');
      void refetch();
    },
    onError: (e) => toast.error(serverError(e).message),
  });

  return (
    <>
      <PageHeader title="Connections">
        {canConnect ? (
          <Button onClick={() => connect.mutate()} disabled={connect.isPending}>
            Connect an account
          </Button>
        ) : null}
      </PageHeader>
      <p className="mb-4 text-sm text-slate-600">
        Accounts of {shell.current.name}. To reconnect an account, connect the same account again: its posts and history stay with it.
      </p>
      {shell.user.operator ? (
        <p className="-mt-2 mb-4 text-sm text-slate-600">
          Bluesky and Mastodon connect real accounts now; the other networks need an app of this Herald first:{' '}
          <Link href="/networks" className="font-medium text-brand-700 underline">
            see Networks
          </Link>
          .
        </p>
      ) : null}
      {q.isPending ? (
        <LoadingRows label="Loading connections" />
      ) : q.isError ? (
        <ErrorState message={serverError(q.error).message} onRetry={() => void q.refetch()} />
      ) : q.data.length === 0 ? (
        <EmptyState title="No accounts connected">
          <p>Connect an account to publish to it, or try Herald first with a demo account: it takes posts like a real one and publishes nowhere.</p>
          {canConnect ? (
            <div className="mt-3 flex flex-wrap justify-center gap-2">
              {(['linkedin', 'instagram', 'twitter'] as const).map((platform) => (
                <Button key={platform} size="sm" variant="secondary" disabled={sandbox.isPending} onClick={() => sandbox.mutate(platform)}>
                  Add a demo {platformLabel(platform)} account
                </Button>
              ))}
            </div>
          ) : null}
        </EmptyState>
      ) : (
        <ul className="space-y-3" aria-label="Connected accounts">
          {q.data.map((c) => (
            <li key={c.id}>
              <Card className="flex flex-col gap-3 sm:flex-row sm:items-start">
                <div className="flex min-w-0 flex-1 items-start gap-3">
                  {c.avatarUrl ? (
                    // eslint-disable-next-line @next/next/no-img-element -- avatars come from each platform's own CDN
                    <img src={c.avatarUrl} alt="" className="size-10 shrink-0 rounded-full border border-slate-200 object-cover" />
                  ) : (
                    <span aria-hidden className="flex size-10 shrink-0 items-center justify-center rounded-full bg-slate-200 font-semibold text-slate-700">
                      {c.displayName.slice(0, 1).toUpperCase()}
                    </span>
                  )}
                  <div className="min-w-0">
                    <h2 className="font-semibold break-words text-slate-900">{c.displayName}</h2>
                    <p className="text-sm break-all text-slate-600">
                      {platformLabel(c.platform)} · {c.accountName}
                      {c.provider === 'sandbox' ? ' · demo account, publishes nowhere' : ''}
                    </p>
                    <div className="mt-1 flex flex-wrap items-center gap-2 text-sm">
                      <HealthBadge health={c.tokenHealth} />
                      {c.tokenExpiresAt ? <span className="text-slate-600">token until {formatIn(c.tokenExpiresAt, shell.current.timeZone)}</span> : null}
                    </div>
                    <p className="mt-1 text-sm text-slate-700">
                      Last successful post: {c.lastSuccessfulPostAt ? <TimeAgo iso={c.lastSuccessfulPostAt} /> : 'none yet'}
                    </p>
                    {c.lastError ? (
                      <p className="mt-1 text-sm break-words text-red-800">
                        Last error
                        {c.lastErrorAt ? (
                          <>
                            {' ('}
                            <TimeAgo iso={c.lastErrorAt} />)
                          </>
                        ) : (
                          ''
                        )}
                        : {c.lastError}
                      </p>
                    ) : null}
                  </div>
                </div>
                <div className="flex flex-wrap gap-2">
                  {canConnect && (c.tokenHealth === 'expired' || c.tokenHealth === 'expiring_soon') ? (
                    <Button size="sm" variant="secondary" onClick={() => connect.mutate()} aria-label={`Reconnect ${c.displayName}`}>
                      Reconnect
                    </Button>
                  ) : null}
                  {canDisconnect && c.status === 'active' ? (
                    <Button size="sm" variant="ghost" onClick={() => setDisconnecting(c)} aria-label={`Disconnect ${c.displayName}`}>
                      Disconnect
                    </Button>
                  ) : null}
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <DisconnectDialog connection={disconnecting} onClose={() => setDisconnecting(null)} onDone={() => void q.refetch()} />
    </>
  );
}

function DisconnectDialog({ connection, onClose, onDone }: { connection: ConnectionDto | null; onClose: () => void; onDone: () => void }) {
  const tz = useShell().current.timeZone;
  const usage = useQuery({
    queryKey: ['connections.usage', connection?.id],
    queryFn: async () => (await trpc.connections.usage.query({ id: connection!.id })).data,
    enabled: connection !== null,
  });
  const disconnect = useMutation({
    mutationFn: () => trpc.connections.disconnect.mutate({ id: connection!.id }),
    onSuccess: (res) => {
      const { targetsRemoved, postsCancelled } = res.data;
      toast.success(`Disconnected. ${targetsRemoved} post${targetsRemoved === 1 ? '' : 's'} no longer target it; ${postsCancelled.length} cancelled.`);
      onClose();
      onDone();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  const posts = usage.data?.posts ?? [];
  const sole = posts.filter((p) => p.onlyTarget);
  const shared = posts.filter((p) => !p.onlyTarget);
  return (
    <Dialog
      open={connection !== null}
      onOpenChange={(o) => !o && onClose()}
      title={`Disconnect ${connection?.displayName ?? ''}?`}
      description="Herald forgets the account’s tokens. Published history stays; connecting the same account again restores it."
    >
      {usage.isPending ? (
        <LoadingRows rows={2} label="Checking scheduled posts" />
      ) : usage.isError ? (
        <ErrorState message={serverError(usage.error).message} onRetry={() => void usage.refetch()} />
      ) : posts.length === 0 ? (
        <p className="text-sm text-slate-700">No draft or scheduled post targets this account.</p>
      ) : (
        <div role="alert" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <p className="font-medium">
            {posts.length} draft or scheduled post{posts.length === 1 ? '' : 's'} target{posts.length === 1 ? 's' : ''} this account.
          </p>
          {shared.length ? <p>{shared.length} will go out to their other accounts only.</p> : null}
          {sole.length ? <p>{sole.length} target only this account and will be cancelled.</p> : null}
          <ul className="list-disc space-y-0.5 pl-5">
            {posts.slice(0, 5).map((p) => (
              <li key={p.id} className="break-words">
                {p.content.slice(0, 60)}
                {p.scheduledAt ? ` — ${formatIn(p.scheduledAt, tz)}` : ' — draft'}
                {p.onlyTarget ? ' (cancelled)' : ''}
              </li>
            ))}
          </ul>
          {posts.length > 5 ? <p>…and {posts.length - 5} more.</p> : null}
        </div>
      )}
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Keep it
        </Button>
        <Button variant="danger" disabled={disconnect.isPending || usage.isPending} onClick={() => disconnect.mutate()}>
          Disconnect
        </Button>
      </div>
    </Dialog>
  );
}
