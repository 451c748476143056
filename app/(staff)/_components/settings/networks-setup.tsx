'use client';
// Networks (the operator of this Herald only): which networks take real accounts now, and for
// the others exactly what to register with the network and which variables to set, with a
// check of the credentials against the network itself. Values of variables are never shown:
// only whether each is set.
import { useMutation, useQuery } from '@tanstack/react-query';
import { ExternalLink } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { Button } from '@/app/_ui/button';
import { Badge, Card, ErrorState, LoadingRows, PageHeader } from '@/app/_ui/primitives';
import type { CredentialsCheck, NetworkSetup, NetworksOverview } from '@/server/connect/network-setup';
import { serverError, trpc } from '../../_lib/trpc';
import { CopyButton } from '../shell/copy-button';

const CHECK_TONES: Record<CredentialsCheck['outcome'], 'good' | 'bad' | 'warn' | 'neutral'> = {
  accepted: 'good',
  refused: 'bad',
  not_set: 'warn',
  nothing_to_check: 'neutral',
  unreachable: 'warn',
  inconclusive: 'warn',
};

function Readiness({ network }: { network: NetworkSetup }) {
  if (network.realAccounts !== 'unavailable') return <Badge tone="good">Ready for real accounts</Badge>;
  return <Badge tone="warn">{network.needs === 'bot' ? 'Needs a bot token' : 'Needs an app'}</Badge>;
}

function NetworkCard({ network }: { network: NetworkSetup }) {
  const [result, setResult] = useState<CredentialsCheck | null>(null);
  const check = useMutation({
    mutationFn: async () => (await trpc.networks.check.mutate({ platform: network.platform })).data,
    onSuccess: setResult,
    onError: (e) => setResult({ outcome: 'unreachable', message: serverError(e).message, answer: null }),
  });
  const headingId = `network-${network.platform}`;
  return (
    <Card aria-labelledby={headingId} data-testid={`network-${network.platform}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-base font-semibold text-slate-900">
          {network.label}
        </h2>
        <Readiness network={network} />
      </div>
      {network.note ? <p className="mt-1 text-sm text-slate-600">{network.note}</p> : null}
      {network.needs !== 'nothing' ? (
        <dl className="mt-3 grid gap-3 text-sm">
          {network.redirectUri ? (
            <div>
              <dt className="font-medium text-slate-700">Redirect URI to register</dt>
              <dd className="mt-1 flex flex-wrap items-center gap-2">
                <code className="rounded bg-slate-100 px-2 py-1 break-all">{network.redirectUri}</code>
                <CopyButton text={network.redirectUri} name={`Copy ${network.label} redirect URI`} />
              </dd>
            </div>
          ) : null}
          {network.scopes.length ? (
            <div>
              <dt className="font-medium text-slate-700">Permissions (scopes) Herald asks for</dt>
              <dd className="mt-1 flex flex-wrap gap-1">
                {network.scopes.map((s) => (
                  <code key={s} className="rounded bg-slate-100 px-2 py-0.5 break-all">
                    {s}
                  </code>
                ))}
              </dd>
            </div>
          ) : null}
          <div>
            <dt className="font-medium text-slate-700">Environment variables</dt>
            <dd className="mt-1">
              <ul className="grid gap-1">
                {network.variables.map((v) => (
                  <li key={v.name} className="flex flex-wrap items-center gap-2">
                    <code className="rounded bg-slate-100 px-2 py-0.5">{v.name}</code>
                    {v.set ? <Badge tone="good">set</Badge> : v.optional ? <Badge>optional, not set</Badge> : <Badge tone="warn">not set</Badge>}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        </dl>
      ) : null}
      <div className="mt-3 flex flex-wrap items-center gap-3">
        {network.console ? (
          <a href={network.console} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 underline">
            {network.needs === 'bot' ? 'Open BotFather' : `${network.label} developer console`}
            <ExternalLink aria-hidden className="size-3.5" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        ) : null}
        {network.needs !== 'nothing' ? (
          <Button size="sm" variant="secondary" onClick={() => check.mutate()} disabled={check.isPending}>
            {check.isPending ? 'Checking…' : 'Check the credentials'}
          </Button>
        ) : null}
      </div>
      <div aria-live="polite">
        {result ? (
          <div className="mt-3 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm" data-testid={`check-${network.platform}`}>
            <Badge tone={CHECK_TONES[result.outcome]}>
              {result.outcome === 'accepted' ? 'Accepted' : result.outcome === 'refused' ? 'Refused' : 'Not confirmed'}
            </Badge>{' '}
            {result.message}
            {result.answer ? (
              <p className="mt-1 text-xs break-all text-slate-600">
                {network.label} answered: <code>{result.answer}</code>
              </p>
            ) : null}
          </div>
        ) : null}
      </div>
    </Card>
  );
}

export function NetworksSetup({ initial }: { initial: NetworksOverview | null }) {
  const q = useQuery({
    queryKey: ['networks.overview'],
    queryFn: async () => (await trpc.networks.overview.query()).data,
    initialData: initial ?? undefined,
  });
  return (
    <>
      <PageHeader title="Networks" />
      {q.isPending ? (
        <LoadingRows label="Loading networks" />
      ) : q.isError ? (
        <ErrorState message={serverError(q.error).message} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <p className="mb-2 text-sm text-slate-600">
            Which networks take real accounts on this Herald. Bluesky and Mastodon need nothing: they connect for real now. The others need an app you register
            with the network (or, for Telegram, a bot): register the redirect URI and permissions shown, set the variables, restart Herald, then check the
            credentials here.
          </p>
          {!q.data.publicBaseUrl ? (
            <p className="mb-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" role="note">
              The redirect URIs name {q.data.baseUrl}, which only this machine can open, and most networks accept only https addresses. Set HERALD_BASE_URL (or
              CONNECT_BASE_URL) to Herald’s public https address first.
            </p>
          ) : null}
          <p className="mb-4 text-sm text-slate-600">
            Demo accounts (they publish nowhere):{' '}
            {q.data.demoAccounts.deployment
              ? q.data.demoAccounts.workspace
                ? 'offered beside real ones, on every channel.'
                : 'switched off for this workspace.'
              : 'not offered on this Herald (CONNECT_SANDBOX=off).'}{' '}
            A workspace can switch them off in{' '}
            <Link href="/settings" className="font-medium text-brand-700 underline">
              Settings
            </Link>
            .
          </p>
          <div className="grid gap-3 lg:grid-cols-2">
            {q.data.networks.map((n) => (
              <NetworkCard key={n.platform} network={n} />
            ))}
          </div>
        </>
      )}
    </>
  );
}
