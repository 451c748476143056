'use client';
// API keys of the workspace acting: mint (the secret shown once), list with prefix, scopes,
// last use and expiry, revoke (the key answers 401 from its next request).
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Dialog } from '@/app/_ui/dialog';
import { Badge, Card, EmptyState, ErrorState, LoadingRows, PageHeader } from '@/app/_ui/primitives';
import type { ApiKeyDto } from '@/server/api-keys/api-keys.schemas';
import { SCOPES } from '@/server/auth/scopes';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { adminOnly, serverError, trpc } from '../../_lib/trpc';
import { MintKeyForm } from './mint-key-form';
import { TimeAgo } from '@/app/_ui/time-ago';

export function ApiKeys({ initial }: { initial: ApiKeyDto[] | null }) {
  const shell = useShell();
  const tz = shell.current.timeZone;
  // A member grants only what they hold; a client's keys never manage workspaces (the server
  // strips it), so it is not offered while acting for a client.
  const actingForClient = shell.workspaces.some((w) => w.clients.some((c) => c.id === shell.current.id));
  const offered = SCOPES.filter((s) => shell.current.scopes.includes(s) && !(actingForClient && s === 'workspaces:manage'));
  const [revoking, setRevoking] = useState<ApiKeyDto | null>(null);
  const q = useQuery({ queryKey: ['apiKeys.list'], queryFn: async () => (await trpc.apiKeys.list.query()).data, initialData: initial ?? undefined });
  const revoke = useMutation({
    mutationFn: (id: string) => trpc.apiKeys.revoke.mutate({ id }),
    onSuccess: () => {
      toast.success('Key revoked');
      setRevoking(null);
      void q.refetch();
    },
    onError: (e) => toast.error(serverError(e).message),
  });

  return (
    <>
      <PageHeader title="API keys">
        <a href="/api-reference" className="text-sm font-medium text-brand-700 underline underline-offset-2">
          API reference
        </a>
      </PageHeader>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <Card>
          <h2 className="mb-1 text-lg font-semibold">Mint a key</h2>
          <p className="mb-3 text-sm text-slate-600">For {shell.current.name}. Integrations send it as a Bearer token to the REST API and the tool endpoint.</p>
          <MintKeyForm
            idPrefix="key"
            scopes={offered}
            mint={async (input) => (await trpc.apiKeys.create.mutate(input)).data}
            onMinted={() => void q.refetch()}
          />
        </Card>
        <section aria-labelledby="keys-heading">
          <h2 id="keys-heading" className="mb-2 text-lg font-semibold">
            Live keys
          </h2>
          {q.isPending ? (
            <LoadingRows label="Loading keys" />
          ) : q.isError ? (
            <ErrorState message={adminOnly(q.error, 'API keys')} onRetry={() => void q.refetch()} />
          ) : q.data.length === 0 ? (
            <EmptyState title="No API keys">Mint a key to let an integration act on this workspace.</EmptyState>
          ) : (
            <ul className="space-y-3" aria-label="API keys">
              {q.data.map((k) => (
                <li key={k.id}>
                  <Card className="space-y-2">
                    <div className="flex flex-wrap items-start gap-2">
                      <div className="min-w-0 flex-1">
                        <h3 className="font-semibold break-words">{k.name}</h3>
                        <p className="font-mono text-sm break-all text-slate-700">{k.prefix}…</p>
                      </div>
                      {k.assistant ? <Badge tone="info">assistant connection</Badge> : null}
                      <Button size="sm" variant="ghost" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                        Revoke
                      </Button>
                    </div>
                    <ul className="flex flex-wrap gap-1" aria-label="Scopes">
                      {k.scopes.map((s) => (
                        <li key={s}>
                          <Badge>{s}</Badge>
                        </li>
                      ))}
                    </ul>
                    <p className="text-sm text-slate-600">
                      Last used {k.lastUsedAt ? <TimeAgo iso={k.lastUsedAt} /> : 'never'} · {k.expiresAt ? `expires ${formatIn(k.expiresAt, tz)}` : 'no expiry'}{' '}
                      · created {formatIn(k.createdAt, tz, 'd MMM yyyy')}
                    </p>
                  </Card>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <Dialog open={revoking !== null} onOpenChange={(o) => !o && setRevoking(null)} title={`Revoke ${revoking?.name ?? ''}?`}>
        <p className="text-sm text-slate-700">Every request with this key is refused from now on (401). This cannot be undone: mint a new key instead.</p>
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => setRevoking(null)}>
            Keep it
          </Button>
          <Button variant="danger" disabled={revoke.isPending} onClick={() => revoking && revoke.mutate(revoking.id)}>
            Revoke key
          </Button>
        </div>
      </Dialog>
    </>
  );
}
