'use client';
// Webhook endpoints: the list, and registering one. The URL is judged as it is typed by the
// same shape rules the server applies (outbound/url-rules.ts); the server still resolves the
// host and checks every address before saving, and its refusal lands on the URL field.
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import { toast } from 'sonner';
import { type z } from 'zod';
import { Button } from '@/app/_ui/button';
import { Badge, Card, EmptyState, ErrorState, FieldError, Input, Label, LoadingRows, PageHeader } from '@/app/_ui/primitives';
import { DOMAIN_EVENT_DESCRIPTIONS, DOMAIN_EVENT_TYPES } from '@/server/events/catalogue';
import { allowListOf, checkUrlShape } from '@/server/outbound/url-rules';
import { ZCreateWebhookInput, type WebhookEndpointDto } from '@/server/webhooks/webhooks.schemas';
import { useShell } from '../../_lib/providers';
import { serverError, trpc } from '../../_lib/trpc';
import { WebhookSecret } from './webhook-secret';
import { TimeAgo } from '@/app/_ui/time-ago';

type FormValues = z.infer<typeof ZCreateWebhookInput>;

export function EndpointState({ endpoint }: { endpoint: Pick<WebhookEndpointDto, 'active' | 'consecutiveFailures'> }) {
  if (!endpoint.active) return <Badge tone="bad">Paused</Badge>;
  if (endpoint.consecutiveFailures > 0) return <Badge tone="warn">Failing ({endpoint.consecutiveFailures} in a row)</Badge>;
  return <Badge tone="good">Active</Badge>;
}

function CreateWebhook({ allowHosts, onCreated }: { allowHosts: string[]; onCreated: (secret: { secret: string; name: string }) => void }) {
  const schema = useMemo(() => {
    const allow = allowListOf(allowHosts);
    return ZCreateWebhookInput.superRefine((v, ctx) => {
      const checked = checkUrlShape(v.url, allow);
      if (!checked.ok) ctx.addIssue({ code: 'custom', path: ['url'], message: checked.reason });
    });
  }, [allowHosts]);
  const form = useForm<FormValues>({ resolver: zodResolver(schema), mode: 'onChange', defaultValues: { name: '', url: '', events: [] } });
  const { errors } = form.formState;
  const create = useMutation({
    mutationFn: (v: FormValues) => trpc.webhooks.create.mutate(v),
    onSuccess: (res) => {
      form.reset();
      onCreated({ secret: res.data.secret, name: res.data.name });
      toast.success('Endpoint registered');
    },
    onError: (err) => {
      const e = serverError(err);
      const field = e.field?.replace(/\[\d+\]$/, '');
      if (field === 'name' || field === 'url' || field === 'events') form.setError(field as FieldPath<FormValues>, { message: e.message });
      else toast.error(e.message);
    },
  });

  return (
    <Card className="mb-4">
      <h2 className="mb-3 font-semibold text-slate-900">Register an endpoint</h2>
      <form className="space-y-3" noValidate onSubmit={form.handleSubmit((v) => create.mutate(v))}>
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <Label htmlFor="wh-name">Name</Label>
            <Input id="wh-name" aria-invalid={!!errors.name} aria-describedby="wh-name-error" {...form.register('name')} />
            <FieldError id="wh-name-error">{errors.name?.message}</FieldError>
          </div>
          <div>
            <Label htmlFor="wh-url">URL</Label>
            <Input
              id="wh-url"
              type="url"
              inputMode="url"
              placeholder="https://hooks.example.com/herald"
              aria-invalid={!!errors.url}
              aria-describedby="wh-url-error wh-url-hint"
              {...form.register('url')}
            />
            <p id="wh-url-hint" className="mt-1 text-xs text-slate-600">
              https only; no localhost, private or link-local address, no user name or password.
            </p>
            <FieldError id="wh-url-error">{errors.url?.message}</FieldError>
          </div>
        </div>
        <fieldset aria-describedby="wh-events-error">
          <legend className="mb-1 text-sm font-medium text-slate-800">Events</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {DOMAIN_EVENT_TYPES.map((event) => (
              <label key={event} className="flex items-start gap-2 rounded border border-slate-200 p-2 text-sm">
                <input type="checkbox" value={event} className="mt-1" {...form.register('events')} />
                <span className="min-w-0">
                  <span className="block font-mono text-xs font-semibold break-all text-slate-900">{event}</span>
                  <span className="block text-slate-600">{DOMAIN_EVENT_DESCRIPTIONS[event]}</span>
                </span>
              </label>
            ))}
          </div>
          <FieldError id="wh-events-error">{errors.events?.message ?? errors.events?.root?.message}</FieldError>
        </fieldset>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Registering…' : 'Register endpoint'}
        </Button>
      </form>
    </Card>
  );
}

export function Webhooks({ initial, allowHosts }: { initial: WebhookEndpointDto[] | null; allowHosts: string[] }) {
  const { current } = useShell();
  const canManage = current.scopes.includes('webhooks:manage');
  const [secret, setSecret] = useState<{ secret: string; name: string } | null>(null);
  const q = useQuery({
    queryKey: ['webhooks.list'],
    queryFn: async () => (await trpc.webhooks.list.query()).data,
    initialData: initial ?? undefined,
    enabled: canManage,
  });

  return (
    <>
      <PageHeader title="Webhooks" />
      {!canManage ? (
        <ErrorState title="Not available to your role" message={`Your role (${current.role}) cannot manage webhooks.`} />
      ) : (
        <>
          {secret ? <WebhookSecret secret={secret.secret} name={secret.name} onDone={() => setSecret(null)} /> : null}
          <CreateWebhook
            allowHosts={allowHosts}
            onCreated={(s) => {
              setSecret(s);
              void q.refetch();
            }}
          />
          <section aria-labelledby="wh-list">
            <h2 id="wh-list" className="mb-2 font-semibold text-slate-900">
              Endpoints
            </h2>
            {q.isPending ? (
              <LoadingRows label="Loading endpoints" />
            ) : q.isError ? (
              <ErrorState message={serverError(q.error).message} onRetry={() => void q.refetch()} />
            ) : q.data.length === 0 ? (
              <EmptyState title="No endpoints yet">Register one above to receive signed notifications.</EmptyState>
            ) : (
              <ul className="space-y-2">
                {q.data.map((w) => (
                  <li key={w.id}>
                    <Card className="flex flex-wrap items-center gap-3" data-testid="webhook-row">
                      <div className="min-w-0 flex-1">
                        <Link href={`/webhooks/${w.id}`} className="font-medium text-brand-700 underline">
                          {w.name}
                        </Link>
                        <p className="text-sm break-all text-slate-600">{w.url}</p>
                        <p className="text-xs text-slate-600">
                          {w.events.join(', ')} · last delivery {w.lastDeliveryAt ? <TimeAgo iso={w.lastDeliveryAt} /> : 'never'}
                        </p>
                      </div>
                      <EndpointState endpoint={w} />
                    </Card>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </>
  );
}
