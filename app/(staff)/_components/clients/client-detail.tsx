'use client';
// One client: mint it a key, send it a hosted connect or review link (branded, with expiry,
// optionally revoking the earlier ones), see and revoke its live links, open or detach it.
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { Button } from '@/app/_ui/button';
import { Badge, Card, EmptyState, ErrorState, FieldError, Input, Label, LoadingRows, PageHeader, Select } from '@/app/_ui/primitives';
import { SCOPES } from '@/server/auth/scopes';
import { LINK_DEFAULT_DAYS, ZClientLinkBody, type ClientLinkCreated, type ClientLinkKind } from '@/server/client-links/client-links.schemas';
import { addDays, todayIn } from '@/server/shared/analytics-window';
import type { WorkspaceDto } from '@/server/workspaces/workspaces.schemas';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { enterWorkspace } from '../../_lib/workspace-cookie';
import { DetachDialog } from './detach-dialog';
import { MintKeyForm } from './mint-key-form';
import { SecretOnce } from './secret-once';

// Client keys never hold workspaces:manage (contract: Key minting rules), so it is not offered.
const CLIENT_SCOPES = SCOPES.filter((s) => s !== 'workspaces:manage');
const KIND_LABEL: Record<ClientLinkKind, string> = { connect: 'Connect link', review: 'Review link', report: 'Report link' };

export function ClientDetail({ id, initial }: { id: string; initial: WorkspaceDto | null }) {
  const router = useRouter();
  const [detaching, setDetaching] = useState(false);
  const q = useQuery({
    queryKey: ['workspaces.get', id],
    queryFn: async () => (await trpc.workspaces.get.query({ id })).data,
    initialData: initial ?? undefined,
  });
  const detach = useMutation({
    mutationFn: () => trpc.workspaces.detach.mutate({ id }),
    onSuccess: () => {
      toast.success('Client detached');
      router.push('/clients');
      router.refresh();
    },
    onError: (e) => toast.error(serverError(e).message),
  });

  if (q.isPending) return <LoadingRows label="Loading client" />;
  if (q.isError)
    return (
      <>
        <PageHeader title="Client" />
        <ErrorState message={serverError(q.error).message} onRetry={() => void q.refetch()} />
        <p className="mt-3 text-sm">
          <Link href="/clients" className="text-brand-700 underline">
            Back to clients
          </Link>
        </p>
      </>
    );
  const client = q.data;
  return (
    <>
      <p className="mb-1 text-sm">
        <Link href="/clients" className="text-brand-700 underline">
          Clients
        </Link>
      </p>
      <PageHeader title={client.name}>
        <Button variant="secondary" onClick={() => enterWorkspace(client.id, '/connections')}>
          Open workspace
        </Button>
        <Button variant="ghost" onClick={() => setDetaching(true)}>
          Detach…
        </Button>
      </PageHeader>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <h2 className="mb-1 text-lg font-semibold">API key for {client.name}</h2>
          <p className="mb-3 text-sm text-slate-600">The key acts on this client’s workspace directly and keeps working if you detach it.</p>
          <MintKeyForm
            idPrefix="client-key"
            scopes={CLIENT_SCOPES}
            mint={async (input) => (await trpc.workspaces.mintKey.mutate({ id: client.id, ...input })).data}
          />
        </Card>
        <div className="space-y-4">
          <Card>
            <h2 className="mb-1 text-lg font-semibold">Send a link</h2>
            <p className="mb-3 text-sm text-slate-600">
              A connect link lets the client connect its own accounts; a review link lets it approve or reject posts waiting for approval. Neither needs a
              login.
            </p>
            <LinkForm clientId={client.id} />
          </Card>
          <LiveLinks clientId={client.id} />
        </div>
      </div>
      <DetachDialog client={detaching ? client : null} onOpenChange={setDetaching} pending={detach.isPending} onConfirm={() => detach.mutate()} />
    </>
  );
}

// The link body's schema as the form edits it: strings from inputs, the kind chosen alongside.
const ZLinkForm = z.object({
  kind: z.enum(['connect', 'review', 'report']),
  // A report link's range of publishing days and its title; the route judges them.
  from: z.string(),
  to: z.string(),
  title: z.string(),
  expiresInDays: z.coerce.number<string>().pipe(ZClientLinkBody.shape.expiresInDays.unwrap()),
  rotate: z.boolean(),
  brandName: z.string(),
  logoUrl: z.string(),
});
type LinkValues = z.input<typeof ZLinkForm>;

function LinkForm({ clientId }: { clientId: string }) {
  const [created, setCreated] = useState<(ClientLinkCreated & { kind: ClientLinkKind }) | null>(null);
  const tz = useShell().current.timeZone;
  const today = todayIn(tz);
  const monthAgo = addDays(today, -29);
  const qc = useQueryClient();
  const form = useForm<LinkValues, unknown, z.output<typeof ZLinkForm>>({
    resolver: zodResolver(ZLinkForm),
    defaultValues: {
      kind: 'connect',
      expiresInDays: String(LINK_DEFAULT_DAYS),
      rotate: false,
      brandName: '',
      logoUrl: '',
      from: monthAgo,
      to: today,
      title: '',
    },
  });
  const kind = useWatch({ control: form.control, name: 'kind' });
  const submit = form.handleSubmit(async (v) => {
    const brand = { ...(v.brandName.trim() ? { name: v.brandName.trim() } : {}), ...(v.logoUrl.trim() ? { logoUrl: v.logoUrl.trim() } : {}) };
    const body = { id: clientId, expiresInDays: v.expiresInDays, rotate: v.rotate, ...(Object.keys(brand).length ? { brand } : {}) };
    try {
      const res =
        v.kind === 'connect'
          ? await trpc.workspaces.connectUrl.mutate(body)
          : v.kind === 'review'
            ? await trpc.workspaces.reviewUrl.mutate(body)
            : await trpc.workspaces.reportUrl.mutate({ ...body, from: v.from, to: v.to, ...(v.title.trim() ? { title: v.title.trim() } : {}) });
      setCreated({ ...res.data, kind: v.kind });
      toast.success(`${KIND_LABEL[v.kind]} created`);
      void qc.invalidateQueries({ queryKey: linksKey(clientId) });
    } catch (err) {
      const e = serverError(err);
      const field = e.field?.startsWith('brand.logoUrl')
        ? 'logoUrl'
        : e.field?.startsWith('brand.name')
          ? 'brandName'
          : e.field === 'expiresInDays'
            ? 'expiresInDays'
            : e.field === 'from' || e.field === 'to' || e.field === 'title'
              ? e.field
              : 'kind';
      form.setError(field, { message: e.message });
    }
  });
  const errors = form.formState.errors;
  const logo = (useWatch({ control: form.control, name: 'logoUrl' }) ?? '').trim();
  const logoOk = ZClientLinkBody.shape.brand.unwrap().shape.logoUrl.unwrap().safeParse(logo).success;
  return (
    <div className="space-y-3">
      <form onSubmit={submit} noValidate className="space-y-3" aria-label="Create a client link">
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <Label htmlFor="link-kind">Kind</Label>
            <Select id="link-kind" {...form.register('kind')}>
              <option value="connect">Connect link (accounts)</option>
              <option value="review">Review link (approvals)</option>
              <option value="report">Report link (results of a date range)</option>
            </Select>
            <FieldError>{errors.kind?.message}</FieldError>
          </div>
          <div>
            <Label htmlFor="link-days">Valid for (days)</Label>
            <Input
              id="link-days"
              type="number"
              min={1}
              max={90}
              inputMode="numeric"
              aria-invalid={!!errors.expiresInDays}
              {...form.register('expiresInDays')}
            />
            <FieldError>{errors.expiresInDays?.message}</FieldError>
          </div>
        </div>
        {kind === 'report' ? (
          <fieldset className="grid gap-3 rounded-md border border-slate-200 p-3 sm:grid-cols-2">
            <legend className="px-1 text-sm font-medium">The report</legend>
            <div>
              <Label htmlFor="link-from">Published from ({tz})</Label>
              <Input id="link-from" type="date" aria-invalid={!!errors.from} {...form.register('from')} />
              <FieldError>{errors.from?.message}</FieldError>
            </div>
            <div>
              <Label htmlFor="link-to">To</Label>
              <Input id="link-to" type="date" aria-invalid={!!errors.to} {...form.register('to')} />
              <FieldError>{errors.to?.message}</FieldError>
            </div>
            <div className="sm:col-span-2">
              <Label htmlFor="link-title">Title (optional)</Label>
              <Input id="link-title" placeholder="e.g. November results" aria-invalid={!!errors.title} {...form.register('title')} />
              <FieldError>{errors.title?.message}</FieldError>
            </div>
          </fieldset>
        ) : null}
        <div>
          <Label htmlFor="link-brand">Brand name (optional)</Label>
          <Input id="link-brand" placeholder="Your agency’s name" aria-invalid={!!errors.brandName} {...form.register('brandName')} />
          <FieldError>{errors.brandName?.message}</FieldError>
        </div>
        <div>
          <Label htmlFor="link-logo">Logo URL (optional, https)</Label>
          <div className="flex items-center gap-2">
            <Input id="link-logo" type="url" placeholder="https://…" aria-invalid={!!errors.logoUrl} {...form.register('logoUrl')} />
            {logo && logoOk ? (
              // The client's browser loads the logo straight from this URL, so the preview does the same.
              // eslint-disable-next-line @next/next/no-img-element
              <img src={logo} alt="Logo preview" className="size-10 shrink-0 rounded border border-slate-200 object-contain" />
            ) : null}
          </div>
          {logo && !logoOk ? <p className="mt-1 text-xs text-red-700">The logo must be an https URL.</p> : null}
          <FieldError>{errors.logoUrl?.message}</FieldError>
        </div>
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" className="mt-1 size-4" {...form.register('rotate')} />
          <span>Rotate: revoke the earlier links of this kind first</span>
        </label>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          Create link
        </Button>
      </form>
      {created ? (
        <SecretOnce
          label={KIND_LABEL[created.kind]}
          value={created.url}
          open
          warning={`Send it to your client now: Herald shows it only once. It expires ${formatIn(created.expiresAt, tz)}.`}
        />
      ) : null}
    </div>
  );
}

const linksKey = (clientId: string) => ['workspaces.links', clientId];

function LiveLinks({ clientId }: { clientId: string }) {
  const tz = useShell().current.timeZone;
  const q = useQuery({ queryKey: linksKey(clientId), queryFn: async () => (await trpc.workspaces.links.query({ id: clientId })).data });
  const revoke = useMutation({
    mutationFn: (linkId: string) => trpc.workspaces.revokeLink.mutate({ id: clientId, linkId }),
    onSuccess: () => {
      toast.success('Link revoked');
      void q.refetch();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  return (
    <Card>
      <h2 className="mb-2 text-lg font-semibold">Live links</h2>
      {q.isPending ? (
        <LoadingRows rows={2} label="Loading links" />
      ) : q.isError ? (
        <ErrorState message={serverError(q.error).message} onRetry={() => void q.refetch()} />
      ) : q.data.length === 0 ? (
        <EmptyState title="No live links">Links you create appear here until they expire or are revoked.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-200" aria-label="Live links">
          {q.data.map((l) => (
            <li key={l.id} className="flex flex-wrap items-center gap-2 py-2 text-sm">
              <Badge tone={l.kind === 'connect' ? 'info' : 'neutral'}>{KIND_LABEL[l.kind]}</Badge>
              <span className="min-w-0 flex-1 break-words">
                {l.brand.name} · expires {formatIn(l.expiresAt, tz)}
              </span>
              <Button
                size="sm"
                variant="ghost"
                disabled={revoke.isPending}
                onClick={() => revoke.mutate(l.id)}
                aria-label={`Revoke ${KIND_LABEL[l.kind].toLowerCase()} expiring ${formatIn(l.expiresAt, tz)}`}
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
