'use client';
// One webhook endpoint: pause/resume, rotate the secret, send a test ping, recover what
// failed since a time, and the delivery log (status, attempt, next attempt, error, payload,
// redeliver). The log refreshes while it is open, since attempts run in the background.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { ConfirmRemove } from '@/app/_ui/confirm-remove';
import { Badge, Card, EmptyState, ErrorState, FieldError, Input, Label, LoadingRows, PageHeader } from '@/app/_ui/primitives';
import type { WebhookDeliveryDto, WebhookEndpointDto } from '@/server/webhooks/webhooks.schemas';
import { useShell } from '../../_lib/providers';
import { formatIn, fromLocalInput, toLocalInput } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { EndpointState } from './webhooks';
import { WebhookSecret } from './webhook-secret';

function DeliveryStatus({ d }: { d: WebhookDeliveryDto }) {
  if (d.deliveredAt) return <Badge tone="good">Delivered · {d.statusCode}</Badge>;
  if (d.attempt === 0) return <Badge tone="info">Queued</Badge>;
  const code = d.statusCode === null ? 'no response' : String(d.statusCode);
  return <Badge tone={d.nextAttemptAt ? 'warn' : 'bad'}>{d.nextAttemptAt ? `Retrying · ${code}` : `Failed · ${code}`}</Badge>;
}

function DeliveryRow({ d, endpointId, tz, paused }: { d: WebhookDeliveryDto; endpointId: string; tz: string; paused: boolean }) {
  const qc = useQueryClient();
  const redeliver = useMutation({
    mutationFn: () => trpc.webhooks.redeliver.mutate({ id: endpointId, deliveryId: d.id }),
    onSuccess: () => {
      toast.success('Sent again as a new delivery');
      void qc.invalidateQueries({ queryKey: ['webhooks.deliveries', endpointId] });
    },
    onError: (err) => toast.error(serverError(err).message),
  });
  return (
    <li>
      <Card className="space-y-2" data-testid="delivery-row">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-sm font-semibold">{d.event}</span>
          <DeliveryStatus d={d} />
          <span className="text-xs text-slate-600">{formatIn(d.createdAt, tz)}</span>
        </div>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-slate-600">Status code</dt>
            <dd data-testid="delivery-status-code">{d.statusCode ?? 'none'}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Attempt</dt>
            <dd>{d.attempt} of 3</dd>
          </div>
          <div>
            <dt className="text-slate-600">Next attempt</dt>
            <dd>{d.nextAttemptAt ? formatIn(d.nextAttemptAt, tz, 'HH:mm:ss') : 'none'}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Delivered</dt>
            <dd>{d.deliveredAt ? formatIn(d.deliveredAt, tz, 'HH:mm:ss') : 'not yet'}</dd>
          </div>
        </dl>
        {d.error ? (
          <p className="text-sm break-words text-red-800" data-testid="delivery-error">
            {d.error}
          </p>
        ) : null}
        <div className="flex flex-wrap items-start gap-2">
          <details className="min-w-0 flex-1">
            <summary className="cursor-pointer text-sm font-medium text-slate-800">Payload</summary>
            <pre
              className="mt-1 max-h-64 max-w-full overflow-auto rounded bg-slate-900 p-2 text-xs text-slate-100"
              tabIndex={0}
              aria-label={`Payload of delivery ${d.id}`}
            >
              {JSON.stringify(d.payload, null, 2)}
            </pre>
          </details>
          <Button size="sm" variant="secondary" disabled={paused || redeliver.isPending} onClick={() => redeliver.mutate()}>
            {redeliver.isPending ? 'Sending…' : 'Redeliver'}
          </Button>
        </div>
      </Card>
    </li>
  );
}

function Recover({ endpointId, tz, paused }: { endpointId: string; tz: string; paused: boolean }) {
  const qc = useQueryClient();
  const [since, setSince] = useState(() => toLocalInput(new Date(Date.now() - 24 * 3600_000), tz));
  const [error, setError] = useState<string | null>(null);
  const recover = useMutation({
    mutationFn: (iso: string) => trpc.webhooks.recover.mutate({ id: endpointId, since: iso }),
    onSuccess: (res) => {
      setError(null);
      const { requeued, remaining } = res.data;
      toast.success(`${requeued} failed deliver${requeued === 1 ? 'y' : 'ies'} sent again${remaining ? `; ${remaining} left, recover again` : ''}`);
      void qc.invalidateQueries({ queryKey: ['webhooks.deliveries', endpointId] });
    },
    onError: (err) => setError(serverError(err).message),
  });
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const iso = fromLocalInput(since, tz);
        if (!iso) return setError('Pick a date and time');
        recover.mutate(iso);
      }}
    >
      <div className="min-w-0">
        <Label htmlFor="recover-since">Send again everything that failed since ({tz})</Label>
        <Input
          id="recover-since"
          type="datetime-local"
          value={since}
          onChange={(e) => setSince(e.target.value)}
          aria-invalid={!!error}
          aria-describedby="recover-error"
        />
      </div>
      <Button type="submit" variant="secondary" disabled={paused || recover.isPending}>
        {recover.isPending ? 'Recovering…' : 'Recover failed'}
      </Button>
      <div className="w-full">
        <FieldError id="recover-error">{error}</FieldError>
      </div>
    </form>
  );
}

export function WebhookDetail({ id, initial }: { id: string; initial: WebhookEndpointDto | null }) {
  const { current } = useShell();
  const tz = current.timeZone;
  const qc = useQueryClient();
  const [secret, setSecret] = useState<string | null>(null);
  const endpoint = useQuery({
    queryKey: ['webhooks.get', id],
    queryFn: async () => (await trpc.webhooks.get.query({ id })).data,
    initialData: initial ?? undefined,
  });
  const deliveries = useQuery({
    queryKey: ['webhooks.deliveries', id],
    queryFn: async () => (await trpc.webhooks.deliveries.query({ id, limit: 50 })).data,
    refetchInterval: 2_000,
  });
  const refresh = () => qc.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('webhooks.') });

  const setActive = useMutation({
    mutationFn: (active: boolean) => trpc.webhooks.update.mutate({ id, active }),
    onSuccess: (res) => {
      toast.success(res.data.active ? 'Endpoint resumed' : 'Endpoint paused');
      void refresh();
    },
    onError: (err) => toast.error(serverError(err).message),
  });
  const rotate = useMutation({
    mutationFn: () => trpc.webhooks.rotateSecret.mutate({ id }),
    onSuccess: (res) => setSecret(res.data.secret),
    onError: (err) => toast.error(serverError(err).message),
  });
  const test = useMutation({
    mutationFn: () => trpc.webhooks.test.mutate({ id }),
    onSuccess: () => {
      toast.success('Test ping queued');
      void refresh();
    },
    onError: (err) => toast.error(serverError(err).message),
  });
  const router = useRouter();
  const remove = useMutation({
    mutationFn: () => trpc.webhooks.delete.mutate({ id }),
    onSuccess: () => {
      toast.success('Endpoint deleted');
      void refresh();
      router.push('/webhooks');
    },
    onError: (err) => toast.error(serverError(err).message),
  });

  if (endpoint.isPending) return <LoadingRows label="Loading endpoint" />;
  if (endpoint.isError) {
    return (
      <>
        <PageHeader title="Webhook" />
        <ErrorState message={serverError(endpoint.error).message} onRetry={() => void endpoint.refetch()} />
        <Link href="/webhooks" className="mt-3 inline-block text-brand-700 underline">
          Back to webhooks
        </Link>
      </>
    );
  }
  const w = endpoint.data;
  const paused = !w.active;

  return (
    <>
      <PageHeader title={w.name}>
        <Button variant="secondary" onClick={() => setActive.mutate(paused)} disabled={setActive.isPending}>
          {paused ? 'Resume' : 'Pause'}
        </Button>
        <Button variant="secondary" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
          Rotate secret
        </Button>
        <Button onClick={() => test.mutate()} disabled={paused || test.isPending}>
          {test.isPending ? 'Sending…' : 'Send test'}
        </Button>
        <ConfirmRemove
          verb="Delete"
          what={w.name}
          consequence="Nothing more is sent to it, and its delivery log is deleted with it. Receivers that need the events again need a new endpoint and secret."
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </PageHeader>
      <p className="mb-3 text-sm">
        <Link href="/webhooks" className="text-brand-700 underline">
          All webhooks
        </Link>
      </p>
      {secret ? <WebhookSecret secret={secret} name={w.name} onDone={() => setSecret(null)} /> : null}
      <Card className="mb-4 space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          <EndpointState endpoint={w} />
          <span className="min-w-0 text-sm break-all text-slate-700">{w.url}</span>
        </div>
        <p className="text-sm text-slate-700">Events: {w.events.join(', ')}</p>
        {paused ? <p className="text-sm text-amber-900">Paused: nothing is sent, and test, redeliver and recover wait until you resume it.</p> : null}
        <Recover endpointId={id} tz={tz} paused={paused} />
      </Card>
      <section aria-labelledby="deliveries-heading">
        <h2 id="deliveries-heading" className="mb-2 font-semibold text-slate-900">
          Deliveries (newest first)
        </h2>
        {deliveries.isPending ? (
          <LoadingRows label="Loading deliveries" />
        ) : deliveries.isError ? (
          <ErrorState message={serverError(deliveries.error).message} onRetry={() => void deliveries.refetch()} />
        ) : deliveries.data.length === 0 ? (
          <EmptyState title="No deliveries yet">Send a test ping to see one here.</EmptyState>
        ) : (
          <ul className="space-y-2">
            {deliveries.data.map((d) => (
              <DeliveryRow key={d.id} d={d} endpointId={id} tz={tz} paused={paused} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
