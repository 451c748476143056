'use client';
// The assistant screen: what assistants staged through the tool endpoint (confirm or decline,
// with the arguments in plain words and who staged them), whether assistant writes wait for
// a member (for the workspace and per key), and the setup snippets for tool clients.
import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Dialog } from '@/app/_ui/dialog';
import { Badge, Card, EmptyState, ErrorState, Label, LoadingRows, PageHeader, Select, Textarea, type Tone } from '@/app/_ui/primitives';
import type { SetupSnippet, toolsetChoices } from '@/server/mcp/setup';
import type { ProposalDto } from '@/server/proposals/proposals.schemas';
import { plainArguments } from '../../_lib/plain-arguments';
import { ProposalPreview } from '@/app/_ui/proposal-preview';
import { useShell } from '../../_lib/providers';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { CopyButton } from '../shell/copy-button';
import { platformLabel, useInvalidateAll } from '../publishing/post-bits';
import { TimeAgo } from '@/app/_ui/time-ago';

const STATUS: Record<ProposalDto['status'], { text: string; tone: Tone }> = {
  staged: { text: 'Waiting for you', tone: 'warn' },
  confirmed: { text: 'Confirmed, running', tone: 'info' },
  executed: { text: 'Done', tone: 'good' },
  failed: { text: 'Failed', tone: 'bad' },
  declined: { text: 'Declined', tone: 'neutral' },
  expired: { text: 'Expired', tone: 'neutral' },
};

export interface AssistantInitial {
  proposals: ProposalDto[] | null;
  policy: { workspaceConfirmation: boolean; keys: { id: string; name: string; confirmation: boolean | null }[] } | null;
  snippets: SetupSnippet[];
  /** The endpoint's URL as the snippets carry it, and the toolsets to choose from (server/mcp/setup.ts). */
  setup: { url: string; toolsets: ReturnType<typeof toolsetChoices> };
}

/** The post a confirmed posts_* call created or changed, when its answer names one. */
function resultPostId(p: ProposalDto): string | null {
  if (!p.toolName.startsWith('posts_') || !p.outcome?.ok) return null;
  const data = (p.outcome.result as { data?: { id?: unknown } } | undefined)?.data;
  if (typeof data?.id === 'string') return data.id;
  return typeof p.arguments.id === 'string' ? p.arguments.id : null;
}

function ProposalCard({ p, accounts, onDecline }: { p: ProposalDto; accounts: Map<string, string>; onDecline: (p: ProposalDto) => void }) {
  const { current } = useShell();
  const invalidate = useInvalidateAll();
  const confirm = useMutation({
    mutationFn: () => trpc.proposals.confirm.mutate({ id: p.actionId }),
    onSuccess: () => {
      toast.success('Confirmed: Herald is running it now');
      void invalidate();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  const args = plainArguments(p.toolName, p.arguments, { accounts, timeZone: current.timeZone });
  // What it would do now (the post it names, read afresh), beside the staged arguments.
  const preview = useQuery({
    queryKey: ['proposals.preview', p.actionId, p.status],
    queryFn: async () => (await trpc.proposals.preview.query({ id: p.actionId })).data,
    enabled: p.status === 'staged',
  });
  const postId = resultPostId(p);
  const status = STATUS[p.status];
  return (
    <li data-testid="proposal">
      <Card className="space-y-3">
        <div className="flex flex-wrap items-start gap-2">
          <h3 className="min-w-0 flex-1 font-medium break-words">{p.title}</h3>
          <Badge tone={status.tone}>{status.text}</Badge>
        </div>
        <p className="text-sm text-slate-600">
          Staged by {p.keyName ? <>the key “{p.keyName}”</> : 'a key'} <TimeAgo iso={p.createdAt} /> · tool <code className="text-xs">{p.toolName}</code>
          {p.status === 'staged' ? <> · expires {formatIn(p.expiresAt, current.timeZone, 'd MMM, HH:mm')}</> : null}
        </p>
        {preview.data ? <ProposalPreview preview={preview.data} /> : null}
        {args.length ? (
          <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
            {args.map((a) => (
              <div key={a.label} className="contents">
                <dt className="font-medium text-slate-700">{a.label}</dt>
                <dd className="mb-1 break-words text-slate-900 sm:mb-0">{a.value}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="text-sm text-slate-600">No arguments.</p>
        )}
        {p.decidedAt ? (
          <p className="text-sm text-slate-600">
            {p.status === 'declined' ? 'Declined' : 'Confirmed'} by {p.decidedByName ?? 'a member'} <TimeAgo iso={p.decidedAt} />
            {p.declineReason ? <>: “{p.declineReason}”</> : null}
          </p>
        ) : null}
        {p.outcome && !p.outcome.ok ? <p className="text-sm break-words text-red-800">{p.outcome.error?.message ?? 'The action failed.'}</p> : null}
        <div className="flex flex-wrap gap-2">
          {p.status === 'staged' ? (
            <>
              <Button size="sm" onClick={() => confirm.mutate()} disabled={confirm.isPending}>
                Confirm
              </Button>
              <Button size="sm" variant="secondary" onClick={() => onDecline(p)}>
                Decline
              </Button>
            </>
          ) : null}
          {postId ? (
            <Button size="sm" variant="secondary" asChild>
              <Link href={`/posts/${postId}`}>Open the post</Link>
            </Button>
          ) : null}
          <Button size="sm" variant="ghost" asChild>
            <Link href={`/proposals/${p.actionId}`}>Exact request</Link>
          </Button>
        </div>
      </Card>
    </li>
  );
}

function DeclineDialog({ proposal, onClose }: { proposal: ProposalDto | null; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const invalidate = useInvalidateAll();
  const decline = useMutation({
    mutationFn: () => trpc.proposals.decline.mutate({ id: proposal!.actionId, reason: reason.trim() || undefined }),
    onSuccess: () => {
      toast.success('Declined: nothing was done');
      setReason('');
      onClose();
      void invalidate();
    },
    onError: (e) => setError(serverError(e).message),
  });
  return (
    <Dialog open={proposal !== null} onOpenChange={(o) => !o && onClose()} title="Decline this action?" description={proposal?.title}>
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          setError(null);
          decline.mutate();
        }}
      >
        <div>
          <Label htmlFor="decline-reason">Reason (optional, the assistant reads it)</Label>
          <Textarea id="decline-reason" value={reason} maxLength={500} rows={3} onChange={(e) => setReason(e.target.value)} aria-describedby="decline-error" />
          {error ? (
            <p id="decline-error" className="mt-1 text-sm text-red-800">
              {error}
            </p>
          ) : null}
        </div>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Keep it waiting
          </Button>
          <Button type="submit" variant="danger" disabled={decline.isPending}>
            Decline
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

const KEY_CHOICES = [
  { value: 'inherit', label: 'Follow the workspace' },
  { value: 'on', label: 'Always ask a member' },
  { value: 'off', label: 'Run without asking' },
] as const;

function Settings({ initial }: { initial: AssistantInitial['policy'] }) {
  const q = useQuery({ queryKey: ['proposals.policy'], queryFn: async () => (await trpc.proposals.policy.query()).data, initialData: initial ?? undefined });
  const set = useMutation({
    mutationFn: (input: Parameters<typeof trpc.proposals.setPolicy.mutate>[0]) => trpc.proposals.setPolicy.mutate(input),
    onSuccess: () => {
      toast.success('Saved');
      void q.refetch();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  if (q.isPending) return <LoadingRows rows={2} label="Loading the settings" />;
  if (q.isError) return <ErrorState message={serverError(q.error).message} onRetry={() => q.refetch()} />;
  return (
    <div className="space-y-4">
      <label className="flex items-start gap-3 text-sm">
        <input
          type="checkbox"
          className="mt-1 size-4"
          checked={q.data.workspaceConfirmation}
          disabled={set.isPending}
          onChange={(e) => set.mutate({ workspaceConfirmation: e.target.checked })}
        />
        <span>
          <span className="font-medium">Assistant writes need confirmation</span>
          <span className="block text-slate-600">
            Publishing, scheduling, cancelling, webhook changes and new keys wait here for a member. Drafts and reads always run at once.
          </span>
        </span>
      </label>
      {q.data.keys.length ? (
        <div>
          <h3 className="text-sm font-medium">Per key</h3>
          <ul className="mt-2 space-y-2">
            {q.data.keys.map((k) => (
              <li key={k.id} className="flex flex-wrap items-center gap-2">
                <Label htmlFor={`key-policy-${k.id}`} className="min-w-0 flex-1 truncate">
                  {k.name}
                </Label>
                <Select
                  id={`key-policy-${k.id}`}
                  className="w-auto"
                  value={k.confirmation === null ? 'inherit' : k.confirmation ? 'on' : 'off'}
                  disabled={set.isPending}
                  onChange={(e) => set.mutate({ key: { id: k.id, confirmation: e.target.value === 'inherit' ? null : e.target.value === 'on' } })}
                >
                  {KEY_CHOICES.map((c) => (
                    <option key={c.value} value={c.value}>
                      {c.label}
                    </option>
                  ))}
                </Select>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

function Setup({ snippets, setup }: { snippets: SetupSnippet[]; setup: AssistantInitial['setup'] }) {
  const { current } = useShell();
  const [client, setClient] = useState(0);
  const [toolsets, setToolsets] = useState<string[]>(setup.toolsets.default);
  const picked = snippets[client];
  if (!picked) return null;
  // The default needs no choice in the URL; any other goes in as ?toolsets= (server/mcp/toolsets.ts).
  const isDefault = toolsets.length === setup.toolsets.default.length && toolsets.every((t) => (setup.toolsets.default as string[]).includes(t));
  const order = setup.toolsets.available.map((t) => t.name);
  const url = isDefault || toolsets.length === 0 ? setup.url : `${setup.url}?${setup.toolsets.param}=${order.filter((n) => toolsets.includes(n)).join(',')}`;
  const quoted = url === setup.url ? url : `'${url}'`;
  const s = { ...picked, snippet: picked.snippet.split(setup.url).join(picked.format === 'shell' ? quoted : url) };
  return (
    <div className="space-y-3 text-sm">
      <p className="text-slate-700">
        {s.signIn === 'oauth' ? (
          <>
            This client needs only the URL: it opens Herald’s sign-in, where you pick <strong>{current.name}</strong> (or another workspace) and what the
            assistant may do. Nothing secret goes in a file.
          </>
        ) : (
          <>
            This client sends an API key: give it a key of <strong>{current.name}</strong> (mint one under API keys) in place of <code>sk_live_…</code>.
          </>
        )}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <Label htmlFor="setup-client">Tool client</Label>
        <Select id="setup-client" className="w-auto" value={client} onChange={(e) => setClient(Number(e.target.value))}>
          {snippets.map((x, i) => (
            <option key={x.client} value={i}>
              {x.client}
            </option>
          ))}
        </Select>
        <CopyButton text={s.snippet} label="Copy snippet" />
      </div>
      <fieldset className="space-y-1">
        <legend className="font-medium text-slate-700">Toolsets: the tools the assistant is shown</legend>
        {setup.toolsets.available.map((t) => (
          <label key={t.name} className="flex items-baseline gap-2">
            <input
              type="checkbox"
              checked={toolsets.includes(t.name)}
              onChange={(e) => setToolsets((was) => (e.target.checked ? [...was, t.name] : was.filter((n) => n !== t.name)))}
            />
            <span>
              <code>{t.name}</code>
              {t.default ? ' (default)' : ''} — {t.description}
            </span>
          </label>
        ))}
        <p className="text-slate-600">
          Fewer tools leave more of the assistant’s context for your work. Clients that sign in can also tick them on Herald’s sign-in page; the URL’s choice
          wins.
        </p>
      </fieldset>
      <p className="text-slate-600">
        {s.format === 'url' ? 'The URL goes in' : 'Goes in'} {s.where}.
      </p>
      <pre
        className="overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100"
        data-testid="setup-snippet"
        // Scrolls sideways on narrow screens: focusable so keyboard users can scroll it too.
        tabIndex={0}
        aria-label={`Setup snippet for ${s.client}`}
      >
        {s.snippet}
      </pre>
    </div>
  );
}

export function Assistant({ initial }: { initial: AssistantInitial }) {
  const [filter, setFilter] = useState<'staged' | 'all'>('staged');
  const [declining, setDeclining] = useState<ProposalDto | null>(null);
  const q = useQuery({
    queryKey: ['proposals.list', filter],
    queryFn: async () => (await trpc.proposals.list.query(filter === 'staged' ? { status: 'staged', limit: 50 } : { limit: 50 })).data,
    initialData: filter === 'staged' ? (initial.proposals?.filter((p) => p.status === 'staged') ?? undefined) : undefined,
    // Follow a confirmed action until it ran; otherwise look for new ones now and then.
    refetchInterval: (query) => (query.state.data?.some((p) => p.status === 'confirmed') ? 1_500 : 15_000),
  });
  const connections = useQuery({ queryKey: ['connections.list'], queryFn: async () => (await trpc.connections.list.query()).data });
  // "Shop (LinkedIn)", unless the account's own name already says which platform it is on.
  const accounts = useMemo(
    () =>
      new Map(
        (connections.data ?? []).map((c) => {
          const label = platformLabel(c.platform);
          return [c.id, c.displayName.toLowerCase().includes(label.toLowerCase()) ? c.displayName : `${c.displayName} (${label})`];
        }),
      ),
    [connections.data],
  );

  return (
    <>
      <PageHeader title="Assistant" />
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-[minmax(0,1fr)_24rem]">
        <section aria-labelledby="proposals-heading" className="space-y-3">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id="proposals-heading" className="flex-1 font-semibold">
              Staged actions
            </h2>
            <div role="group" aria-label="Show" className="flex gap-1">
              <Button size="sm" variant={filter === 'staged' ? 'primary' : 'secondary'} aria-pressed={filter === 'staged'} onClick={() => setFilter('staged')}>
                Waiting
              </Button>
              <Button size="sm" variant={filter === 'all' ? 'primary' : 'secondary'} aria-pressed={filter === 'all'} onClick={() => setFilter('all')}>
                All
              </Button>
            </div>
          </div>
          {q.isPending ? (
            <LoadingRows rows={3} label="Loading staged actions" />
          ) : q.isError ? (
            <ErrorState message={serverError(q.error).message} onRetry={() => q.refetch()} />
          ) : q.data.length === 0 ? (
            <EmptyState title={filter === 'staged' ? 'Nothing waiting for you' : 'No staged actions yet'}>
              When an assistant asks to publish, schedule, cancel or change something, it waits here until a member confirms or declines.
            </EmptyState>
          ) : (
            <ul className="space-y-3">
              {q.data.map((p) => (
                <ProposalCard key={p.actionId} p={p} accounts={accounts} onDecline={setDeclining} />
              ))}
            </ul>
          )}
        </section>
        <div className="space-y-4">
          <Card>
            <h2 className="mb-3 font-semibold">Confirmation</h2>
            <Settings initial={initial.policy} />
          </Card>
          <Card>
            <h2 className="mb-3 font-semibold">Connect an assistant</h2>
            <Setup snippets={initial.snippets} setup={initial.setup} />
          </Card>
        </div>
      </div>
      <DeclineDialog proposal={declining} onClose={() => setDeclining(null)} />
    </>
  );
}
