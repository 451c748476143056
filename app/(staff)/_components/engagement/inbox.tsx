'use client';
// The inbox: every comment under the posts Herald published, every direct message and every
// review of the accounts, newest first, across the selected workspace (or, from the agency,
// every client). A list on the left, the selected conversation on the right (stacked on a
// phone). Keyboard: j/k move, r reply, e done. A message's conversation shows the network's
// reply window (closed: the box says why); a review shows its stars, and its answer can be
// changed or taken down.
// Actions a network does not offer are absent, with the catalogue's reason as the tooltip; a
// reply is counted the network's way, shows "sending" at once, then its permalink; a refusal
// shows the network's words and leaves the text in the box.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Check, EyeOff, Heart, Loader2, MessageCircle, Pencil, RefreshCw, Star, Undo2 } from 'lucide-react';
import Link from 'next/link';
import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Dialog } from '@/app/_ui/dialog';
import { cn } from '@/app/_ui/cn';
import { ConfirmRemove } from '@/app/_ui/confirm-remove';
import { MediaThumb } from '@/app/_ui/media-thumb';
import { Badge, Card, EmptyState, ErrorState, FieldError, Input, Label, LoadingRows, PageHeader, Select, Textarea } from '@/app/_ui/primitives';
import { TimeAgo } from '@/app/_ui/time-ago';
import type { InboxConversationDto, InboxItemDto, ListInboxQuery } from '@/server/inbox/inbox.schemas';
import { messagesOf, PLATFORM_CATALOGUE, reviewsOf } from '@/server/platforms/catalogue';
import { isDemoPermalink } from '@/server/shared/demo-post';
import { PLATFORMS, type Platform } from '@/server/shared/platforms';
import { useShell } from '../../_lib/providers';
import { serverError, trpc } from '../../_lib/trpc';
import { platformLabel } from '../publishing/post-bits';
import { useDraftRepliesRun } from '../automation/workflows';

type Filters = Pick<ListInboxQuery, 'status' | 'platform' | 'workspaceId' | 'assignee' | 'postId' | 'connectionId' | 'kind' | 'rating'> & {
  unread: boolean;
  unanswered: boolean;
};
type InboxPage = { data: InboxItemDto[]; nextCursor: string | null; unread: number };

const isTyping = (t: EventTarget | null) => !!(t as HTMLElement | null)?.closest('input, textarea, select, [contenteditable=true]');

export function Inbox({ initial, postId }: { initial: InboxPage | null; postId?: string }) {
  const { current, workspaces } = useShell();
  const agency = workspaces.find((w) => w.id === current.id);
  const clients = agency?.clients ?? [];
  const scope = clients.length ? 'agency' : 'workspace';
  const mayReply = current.scopes.includes('posts:write');
  const [filters, setFilters] = useState<Filters>({ status: 'open', unread: false, unanswered: false, postId });
  const { unanswered, ...listed } = filters;
  const query = { ...listed, unread: filters.unread || undefined, answered: unanswered ? false : undefined, scope, limit: 50 } as const;
  const list = useQuery({
    queryKey: ['inbox.list', query],
    queryFn: async () => trpc.inbox.list.query(query),
    initialData:
      filters.status === 'open' &&
      !filters.platform &&
      !filters.workspaceId &&
      !filters.assignee &&
      !filters.unread &&
      !filters.kind &&
      !filters.rating &&
      !filters.unanswered
        ? (initial ?? undefined)
        : undefined,
    refetchInterval: 30_000,
  });
  // Older pages belong to the filters they were loaded with.
  const pagesKey = JSON.stringify(query);
  const [pages, setPages] = useState<{ key: string; items: InboxItemDto[]; cursor: string | null }>({ key: '', items: [], cursor: null });
  const cursor = pages.key === pagesKey ? pages.cursor : null;
  const items = useMemo(() => [...(list.data?.data ?? []), ...(pages.key === pagesKey ? pages.items : [])], [list.data, pages, pagesKey]);
  const nextCursor = cursor ?? list.data?.nextCursor ?? null;
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [showConversation, setShowConversation] = useState(false);
  // The conversation open stays open when its item leaves the list (answered, marked done).
  const shownId = selectedId ?? items[0]?.id ?? null;
  const selected = items.find((i) => i.id === shownId) ?? null;
  const at = selected ? items.indexOf(selected) : -1;
  const replyBox = useRef<HTMLTextAreaElement | null>(null);
  const rows = useRef<(HTMLLIElement | null)[]>([]);
  const queryClient = useQueryClient();
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: ['inbox.list'] }), queryClient.invalidateQueries({ queryKey: ['app.shell'] })]);

  const loadMore = useMutation({
    mutationFn: async () => trpc.inbox.list.query({ ...query, cursor: nextCursor ?? undefined }),
    onSuccess: (page) => setPages((p) => ({ key: pagesKey, items: [...(p.key === pagesKey ? p.items : []), ...page.data], cursor: page.nextCursor ?? '' })),
    onError: (e) => toast.error(serverError(e).message),
  });
  const check = useMutation({
    mutationFn: () => trpc.inbox.check.mutate({ scope }),
    onSuccess: (r) => {
      toast.success(
        r.data.connections
          ? `Checking ${r.data.connections} account${r.data.connections === 1 ? '' : 's'} for new comments, messages and reviews`
          : 'No account with comments, messages or reviews to check',
      );
      setTimeout(() => void refresh(), 2_000);
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  const update = useMutation({
    mutationFn: (v: { id: string; status?: 'open' | 'done'; assigneeId?: string | null; seen?: true }) => trpc.inbox.update.mutate(v),
    onSuccess: () => void refresh(),
    onError: (e) => toast.error(serverError(e).message),
  });

  // Opening an item marks it read for the team.
  useEffect(() => {
    if (selected && !selected.seen && mayReply) update.mutate({ id: selected.id, seen: true });
  }, [selected?.id]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.metaKey || e.ctrlKey || e.altKey || isTyping(e.target)) return;
      if (e.key === 'j' || e.key === 'k') {
        const next = items[Math.min(Math.max(at + (e.key === 'j' ? 1 : -1), 0), items.length - 1)];
        if (next) setSelectedId(next.id);
      } else if (e.key === 'r' && shownId && mayReply) {
        e.preventDefault();
        setSelectedId(shownId);
        setShowConversation(true);
        replyBox.current?.focus();
      } else if (e.key === 'e' && selected && mayReply) {
        update.mutate({ id: selected.id, status: selected.status === 'done' ? 'open' : 'done' });
        const next = items[at + 1];
        if (next) setSelectedId(next.id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [items, at, selected, shownId, mayReply, update]);

  useEffect(() => {
    rows.current[at]?.scrollIntoView({ block: 'nearest' });
  }, [at]);

  const clientName = (id: string) => (id === current.id ? current.name : (clients.find((c) => c.id === id)?.name ?? ''));

  return (
    <>
      <PageHeader title="Inbox">
        {mayReply ? <DraftRepliesButton /> : null}
        <Button size="sm" variant="secondary" onClick={() => check.mutate()} disabled={check.isPending}>
          <RefreshCw aria-hidden className={cn('size-4', check.isPending && 'animate-spin')} /> Check now
        </Button>
      </PageHeader>
      <p className="mb-3 text-sm text-slate-600">
        Comments under the posts Herald published, direct messages and reviews, as each network pushes them or read every few minutes.{' '}
        <span className="hidden sm:inline">
          Keyboard: <kbd className="rounded border px-1">j</kbd>/<kbd className="rounded border px-1">k</kbd> move, <kbd className="rounded border px-1">r</kbd>{' '}
          reply, <kbd className="rounded border px-1">e</kbd> done.
        </span>
      </p>
      <KindTabs kind={filters.kind} onChange={(kind) => setFilters({ ...filters, kind, rating: kind === 'review' ? filters.rating : undefined })} />
      <InboxFilters
        filters={filters}
        onChange={setFilters}
        clients={scope === 'agency' ? [{ id: current.id, name: current.name }, ...clients] : []}
        accounts={accountsOf(items)}
      />
      <div className="mt-3 grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <section aria-label="Items" className={cn(showConversation && 'hidden lg:block')}>
          {list.isPending ? (
            <LoadingRows rows={5} label="Loading the inbox" />
          ) : list.isError ? (
            <ErrorState message={serverError(list.error).message} onRetry={() => list.refetch()} />
          ) : items.length === 0 ? (
            <EmptyState title={filters.status === 'open' ? 'Nothing waiting' : 'Nothing here'}>
              New comments under your published posts, messages and reviews arrive here by themselves. Check now reads every account at once.
            </EmptyState>
          ) : (
            <>
              <ul className="space-y-2" aria-label="Inbox items">
                {items.map((item, i) => (
                  <li
                    key={item.id}
                    ref={(el) => {
                      rows.current[i] = el;
                    }}
                    data-testid="inbox-item"
                    aria-current={item.id === selected?.id ? 'true' : undefined}
                  >
                    <button
                      type="button"
                      onClick={() => {
                        setSelectedId(item.id);
                        setShowConversation(true);
                      }}
                      className={cn(
                        'w-full rounded-lg border border-slate-200 bg-white p-3 text-left hover:bg-slate-50',
                        item.id === selected?.id && 'ring-2 ring-brand-600',
                      )}
                    >
                      <span className="flex flex-wrap items-center gap-x-2 text-sm">
                        {!item.seen ? <span className="size-2 rounded-full bg-brand-600" aria-label="unread" /> : null}
                        <KindMark item={item} />
                        <span className="font-medium text-slate-900">{item.author.name}</span>
                        <span className="text-slate-600">
                          {platformLabel(item.platform)} · {item.accountName}
                          {scope === 'agency' ? ` · ${clientName(item.workspaceId)}` : ''} · <TimeAgo iso={item.createdAt} />
                        </span>
                      </span>
                      <span className={cn('mt-1 line-clamp-2 block text-sm break-words', item.deletedAt && 'text-slate-500 line-through')}>{item.text}</span>
                      <span className="mt-1 flex flex-wrap gap-1">
                        {item.status === 'done' ? <Badge tone="good">done</Badge> : null}
                        {item.repliedAt ? <Badge tone="info">answered</Badge> : null}
                        {item.hidden ? <Badge>hidden</Badge> : null}
                        {item.deletedAt ? <Badge tone="warn">deleted on the network</Badge> : null}
                        {item.editedAt ? <Badge>edited</Badge> : null}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
              {nextCursor ? (
                <Button className="mt-3" size="sm" variant="secondary" onClick={() => loadMore.mutate()} disabled={loadMore.isPending}>
                  {loadMore.isPending ? 'Loading…' : 'Older items'}
                </Button>
              ) : null}
            </>
          )}
        </section>
        <section aria-label="Conversation" className={cn(!showConversation && 'hidden lg:block')}>
          {shownId ? (
            <Conversation
              key={shownId}
              id={shownId}
              mayReply={mayReply}
              replyBox={replyBox}
              onBack={() => setShowConversation(false)}
              onFocus={() => setSelectedId(shownId)}
              onChanged={refresh}
              onUpdate={(v) => update.mutate({ id: shownId, ...v })}
            />
          ) : null}
        </section>
      </div>
    </>
  );
}

/**
 * The draft-replies workflow from the inbox: a saved reply becomes a draft on every waiting item
 * of a kind (reviews within a range of stars); each waits for a member to send or discard.
 */
function DraftRepliesButton() {
  const [open, setOpen] = useState(false);
  const [savedReplyId, setSavedReplyId] = useState('');
  const [kind, setKind] = useState<'' | 'comment' | 'message' | 'review'>('review');
  const [stars, setStars] = useState<'' | 'low' | 'high'>('');
  const saved = useQuery({ queryKey: ['inbox.savedReplies'], queryFn: async () => (await trpc.inbox.savedReplies.query()).data, enabled: open });
  const run = useDraftRepliesRun();
  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)}>
        <Pencil aria-hidden className="size-4" /> Draft replies
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Draft replies from a saved reply"
        description="Every waiting item gets a draft ({name} becomes the author’s first name). Nothing is sent: each draft waits here for a member."
      >
        {saved.data && !saved.data.length ? (
          <p className="text-sm text-slate-600">Save a reply first (Save reply, under any reply box): drafts start from one.</p>
        ) : (
          <form
            className="space-y-3"
            onSubmit={(e) => {
              e.preventDefault();
              if (!savedReplyId) return;
              run.mutate({
                id: 'draft-replies',
                savedReplyId,
                ...(kind ? { kind } : {}),
                ...(kind === 'review' && stars === 'low' ? { maxRating: 2 } : {}),
                ...(kind === 'review' && stars === 'high' ? { minRating: 4 } : {}),
              });
            }}
          >
            <div>
              <Label htmlFor="draft-saved">Saved reply</Label>
              <Select id="draft-saved" value={savedReplyId} onChange={(e) => setSavedReplyId(e.target.value)}>
                <option value="">Choose…</option>
                {(saved.data ?? []).map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.title}
                  </option>
                ))}
              </Select>
            </div>
            <div>
              <Label htmlFor="draft-kind">For</Label>
              <Select id="draft-kind" value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
                <option value="">Everything waiting</option>
                <option value="comment">Comments</option>
                <option value="message">Messages</option>
                <option value="review">Reviews</option>
              </Select>
            </div>
            {kind === 'review' ? (
              <div>
                <Label htmlFor="draft-stars">Reviews with</Label>
                <Select id="draft-stars" value={stars} onChange={(e) => setStars(e.target.value as typeof stars)}>
                  <option value="">Any stars</option>
                  <option value="low">1 or 2 stars</option>
                  <option value="high">4 or 5 stars</option>
                </Select>
              </div>
            ) : null}
            <Button type="submit" size="sm" disabled={!savedReplyId || run.isPending}>
              {run.isPending ? 'Starting…' : 'Draft them'}
            </Button>
          </form>
        )}
      </Dialog>
    </>
  );
}

const KINDS = [
  { kind: undefined, label: 'All' },
  { kind: 'comment', label: 'Comments' },
  { kind: 'message', label: 'Messages' },
  { kind: 'review', label: 'Reviews' },
] as const;

function KindTabs({ kind, onChange }: { kind: Filters['kind']; onChange: (kind: Filters['kind']) => void }) {
  return (
    <div className="mb-3 flex flex-wrap gap-1" role="group" aria-label="Kind">
      {KINDS.map((k) => (
        <Button key={k.label} size="sm" variant={kind === k.kind ? 'primary' : 'secondary'} aria-pressed={kind === k.kind} onClick={() => onChange(k.kind)}>
          {k.label}
        </Button>
      ))}
    </div>
  );
}

/** A review's stars, or a Facebook recommendation, in words a screen reader says too. */
function Rating({ item }: { item: Pick<InboxItemDto, 'rating' | 'recommends'> }) {
  if (item.rating !== null) {
    return (
      <span role="img" className="inline-flex items-center gap-0.5 text-amber-600" aria-label={`${item.rating} of 5 stars`} data-testid="review-stars">
        {[1, 2, 3, 4, 5].map((n) => (
          <Star key={n} aria-hidden className={cn('size-3.5', n <= item.rating! ? 'fill-current' : 'text-slate-300')} />
        ))}
      </span>
    );
  }
  if (item.recommends !== null) return <Badge tone={item.recommends ? 'good' : 'warn'}>{item.recommends ? 'recommends' : 'does not recommend'}</Badge>;
  return null;
}

function KindMark({ item }: { item: InboxItemDto }) {
  if (item.kind === 'review') return <Rating item={item} />;
  if (item.kind === 'message')
    return (
      <span className="inline-flex items-center gap-1 text-xs text-slate-600">
        <MessageCircle aria-hidden className="size-3.5" /> message
      </span>
    );
  return null;
}

/** The accounts the list shows (kept while one of them is the filter). */
function accountsOf(items: InboxItemDto[]): { id: string; label: string }[] {
  const seen = new Map<string, string>();
  for (const i of items) seen.set(i.connectionId, `${i.accountName} (${platformLabel(i.platform)})`);
  return [...seen].map(([id, label]) => ({ id, label })).sort((a, b) => a.label.localeCompare(b.label));
}

function InboxFilters({
  filters,
  onChange,
  clients,
  accounts,
}: {
  filters: Filters;
  onChange: (f: Filters) => void;
  clients: { id: string; name: string }[];
  accounts: { id: string; label: string }[];
}) {
  const assignees = useQuery({ queryKey: ['inbox.assignees'], queryFn: async () => (await trpc.inbox.assignees.query()).data });
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch });
  const readable = PLATFORMS.filter((p) => 'call' in PLATFORM_CATALOGUE[p].comments.read || 'call' in messagesOf(p).read || 'call' in reviewsOf(p).read);
  return (
    <div className="flex flex-wrap items-end gap-3" role="group" aria-label="Filters">
      <div>
        <Label htmlFor="inbox-status">Status</Label>
        <Select id="inbox-status" value={filters.status} onChange={(e) => set({ status: e.target.value as Filters['status'] })}>
          <option value="open">Open</option>
          <option value="done">Done</option>
          <option value="all">All</option>
        </Select>
      </div>
      <div>
        <Label htmlFor="inbox-network">Network</Label>
        <Select id="inbox-network" value={filters.platform ?? ''} onChange={(e) => set({ platform: (e.target.value || undefined) as Platform | undefined })}>
          <option value="">All networks</option>
          {readable.map((p) => (
            <option key={p} value={p}>
              {platformLabel(p)}
            </option>
          ))}
        </Select>
      </div>
      {clients.length ? (
        <div>
          <Label htmlFor="inbox-client">Client</Label>
          <Select id="inbox-client" value={filters.workspaceId ?? ''} onChange={(e) => set({ workspaceId: e.target.value || undefined })}>
            <option value="">All clients</option>
            {clients.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </Select>
        </div>
      ) : null}
      <div>
        <Label htmlFor="inbox-account">Account</Label>
        <Select id="inbox-account" value={filters.connectionId ?? ''} onChange={(e) => set({ connectionId: e.target.value || undefined })}>
          <option value="">All accounts</option>
          {accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.label}
            </option>
          ))}
        </Select>
      </div>
      <div>
        <Label htmlFor="inbox-assignee">Assigned to</Label>
        <Select id="inbox-assignee" value={filters.assignee ?? ''} onChange={(e) => set({ assignee: e.target.value || undefined })}>
          <option value="">Anyone</option>
          <option value="me">Me</option>
          <option value="none">No one</option>
          {(assignees.data ?? []).map((m) => (
            <option key={m.userId} value={m.userId}>
              {m.name}
            </option>
          ))}
        </Select>
      </div>
      <label className="flex items-center gap-2 pb-2 text-sm">
        <input type="checkbox" checked={filters.unread} onChange={(e) => set({ unread: e.target.checked })} /> Unread only
      </label>
      <label className="flex items-center gap-2 pb-2 text-sm">
        <input type="checkbox" checked={filters.unanswered} onChange={(e) => set({ unanswered: e.target.checked })} /> Not answered
      </label>
      {filters.kind === 'review' ? (
        <div>
          <Label htmlFor="inbox-rating">Stars</Label>
          <Select id="inbox-rating" value={filters.rating ?? ''} onChange={(e) => set({ rating: e.target.value ? Number(e.target.value) : undefined })}>
            <option value="">Any</option>
            {[1, 2, 3, 4, 5].map((n) => (
              <option key={n} value={n}>
                {n} star{n === 1 ? '' : 's'}
              </option>
            ))}
          </Select>
        </div>
      ) : null}
      {filters.postId ? (
        <Button size="sm" variant="secondary" onClick={() => set({ postId: undefined })}>
          One post only · show all
        </Button>
      ) : null}
    </div>
  );
}

const ACTION_WORDS = { hide: 'Hide', delete: 'Delete', like: 'Like' } as const;

function Conversation(props: {
  id: string;
  mayReply: boolean;
  replyBox: React.RefObject<HTMLTextAreaElement | null>;
  onBack: () => void;
  /** Working in the conversation keeps it open when its item leaves the list. */
  onFocus: () => void;
  onChanged: () => Promise<unknown>;
  onUpdate: (v: { status?: 'open' | 'done'; assigneeId?: string | null }) => void;
}) {
  const q = useQuery({ queryKey: ['inbox.get', props.id], queryFn: async () => (await trpc.inbox.get.query({ id: props.id })).data });
  const assignees = useQuery({ queryKey: ['inbox.assignees'], queryFn: async () => (await trpc.inbox.assignees.query()).data });
  const queryClient = useQueryClient();
  const reload = () => Promise.all([queryClient.invalidateQueries({ queryKey: ['inbox.get', props.id] }), props.onChanged()]);
  const act = useMutation({
    mutationFn: async (v: { action: 'hide' | 'unhide' | 'delete' | 'like' }) =>
      v.action === 'hide' || v.action === 'unhide'
        ? trpc.inbox.hide.mutate({ id: props.id, hidden: v.action === 'hide' })
        : v.action === 'delete'
          ? trpc.inbox.delete.mutate({ id: props.id })
          : trpc.inbox.like.mutate({ id: props.id }),
    onSuccess: (_r, v) => {
      toast.success({ hide: 'Hidden on the network', unhide: 'Shown again', delete: 'Deleted on the network', like: 'Liked' }[v.action]);
      void reload();
    },
    onError: (e) => toast.error(serverError(e).message),
  });

  if (q.isPending) return <LoadingRows rows={3} label="Loading the conversation" />;
  if (q.isError) return <ErrorState message={serverError(q.error).message} onRetry={() => q.refetch()} />;
  const { item, post, thread, actions, replyLimit, replyWindow } = q.data;
  const answer = item.kind === 'review' ? thread.find((t) => t.fromAccount && !t.deletedAt && t.id !== item.id) : undefined;
  return (
    <Card className="space-y-4" data-testid="conversation" onFocusCapture={props.onFocus}>
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" variant="secondary" className="lg:hidden" onClick={props.onBack}>
          <ArrowLeft aria-hidden className="size-4" /> All items
        </Button>
        <span className="text-sm text-slate-600">
          {platformLabel(item.platform)} · {item.accountName} · read <TimeAgo iso={item.provenance.collectedAt} /> from{' '}
          {item.provenance.source === 'sandbox' ? 'the demo account' : platformLabel(item.provenance.source)}
        </span>
      </div>
      {post ? <PostContext post={post} platform={item.platform} /> : null}
      <ol className="space-y-2" aria-label={item.kind === 'message' ? 'Conversation' : 'Thread'}>
        {thread.map((t) => (
          <ThreadEntry key={t.id} entry={t} current={t.id === item.id} />
        ))}
      </ol>
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Actions">
        {props.mayReply ? (
          <Button
            size="sm"
            variant={item.status === 'done' ? 'secondary' : 'primary'}
            onClick={() => props.onUpdate({ status: item.status === 'done' ? 'open' : 'done' })}
          >
            {item.status === 'done' ? <Undo2 aria-hidden className="size-4" /> : <Check aria-hidden className="size-4" />}
            {item.status === 'done' ? 'Reopen' : 'Done'}
          </Button>
        ) : null}
        {props.mayReply && item.kind === 'review' && answer ? (
          <ReviewAnswerActions reviewId={item.id} answer={answer} actions={actions} platform={item.platform} onChanged={reload} />
        ) : null}
        {props.mayReply && item.kind === 'comment'
          ? (['hide', 'delete', 'like'] as const).map((a) =>
              actions[a].offered ? (
                a === 'delete' ? (
                  <ConfirmRemove
                    key={a}
                    what="this comment on the network"
                    verb="Delete"
                    consequence="It disappears from the post for everyone, and cannot be brought back. Herald keeps it here, marked deleted."
                    pending={act.isPending}
                    onConfirm={() => act.mutate({ action: 'delete' })}
                  />
                ) : (
                  <Button
                    key={a}
                    size="sm"
                    variant="secondary"
                    disabled={act.isPending || (a === 'like' && item.liked)}
                    onClick={() => act.mutate({ action: a === 'hide' && item.hidden ? 'unhide' : a })}
                  >
                    {a === 'hide' ? <EyeOff aria-hidden className="size-4" /> : <Heart aria-hidden className="size-4" />}
                    {a === 'hide' && item.hidden ? 'Show again' : a === 'like' && item.liked ? 'Liked' : ACTION_WORDS[a]}
                  </Button>
                )
              ) : (
                <span key={a} className="cursor-help text-xs text-slate-500 underline decoration-dotted" title={actions[a].reason ?? undefined} tabIndex={0}>
                  No {ACTION_WORDS[a].toLowerCase()} on {platformLabel(item.platform)}
                  <span className="sr-only">: {actions[a].reason}</span>
                </span>
              ),
            )
          : null}
        {props.mayReply ? (
          <div className="flex items-center gap-2 text-sm">
            <Label htmlFor="inbox-assign" className="sr-only">
              Assign to
            </Label>
            <Select id="inbox-assign" value={item.assigneeId ?? ''} onChange={(e) => props.onUpdate({ assigneeId: e.target.value || null })}>
              <option value="">Not assigned</option>
              {(assignees.data ?? []).map((m) => (
                <option key={m.userId} value={m.userId}>
                  {m.name}
                </option>
              ))}
            </Select>
          </div>
        ) : null}
      </div>
      {replyWindow?.open ? (
        <p className="text-xs text-slate-600" data-testid="reply-window">
          {platformLabel(item.platform)}’s reply window closes <TimeAgo iso={replyWindow.closesAt} /> ({replyWindow.hours} hours after the person’s last
          message).
        </p>
      ) : null}
      {props.mayReply ? (
        actions.reply.offered ? (
          <ReplyBox
            id={item.id}
            kind={item.kind}
            images={q.data.replyImages}
            platform={item.platform}
            limit={replyLimit}
            drafts={q.data.drafts}
            replyBox={props.replyBox}
            onSent={reload}
          />
        ) : replyWindow && !replyWindow.open ? (
          <p className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm" data-testid="reply-window-closed">
            <strong>The reply window is closed.</strong> {actions.reply.reason}
          </p>
        ) : item.kind === 'review' && answer ? null : (
          <p className="text-sm text-slate-600">No reply from Herald: {actions.reply.reason}</p>
        )
      ) : (
        <p className="text-sm text-slate-600">Reviewers read the inbox; a member or owner answers.</p>
      )}
    </Card>
  );
}

/** A review's answer: changed (a dialog with the text) or taken down, where the network allows it. */
function ReviewAnswerActions(props: {
  reviewId: string;
  answer: InboxItemDto;
  actions: InboxConversationDto['actions'];
  platform: Platform;
  onChanged: () => Promise<unknown>;
}) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(props.answer.text);
  const [error, setError] = useState<string | null>(null);
  const edit = useMutation({
    mutationFn: () => trpc.inbox.editReply.mutate({ id: props.reviewId, text }),
    onSuccess: () => {
      toast.success('Answer changed on the network');
      setEditing(false);
      void props.onChanged();
    },
    onError: (e) => setError(serverError(e).message),
  });
  const remove = useMutation({
    mutationFn: () => trpc.inbox.deleteReply.mutate({ id: props.reviewId }),
    onSuccess: () => {
      toast.success('Answer taken down');
      void props.onChanged();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  return (
    <>
      {props.actions.editReply.offered ? (
        <Button size="sm" variant="secondary" onClick={() => setEditing(true)}>
          <Pencil aria-hidden className="size-4" /> Change the answer
        </Button>
      ) : null}
      {props.actions.deleteReply.offered ? (
        <ConfirmRemove
          what="this answer on the network"
          verb="Take down"
          consequence="The review shows no answer until you answer it again. Herald keeps it here, marked deleted."
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      ) : null}
      <Dialog
        open={editing}
        onOpenChange={setEditing}
        title="Change the answer"
        description={`The new text replaces the answer on ${platformLabel(props.platform)}.`}
      >
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) edit.mutate();
          }}
        >
          <Label htmlFor="review-answer">Answer</Label>
          <Textarea id="review-answer" rows={4} value={text} onChange={(e) => setText(e.target.value)} aria-describedby="review-answer-error" />
          <FieldError id="review-answer-error">{error}</FieldError>
          <Button type="submit" size="sm" disabled={!text.trim() || edit.isPending}>
            {edit.isPending ? 'Saving…' : 'Save the answer'}
          </Button>
        </form>
      </Dialog>
    </>
  );
}

function PostContext({ post, platform }: { post: NonNullable<InboxConversationDto['post']>; platform: Platform }) {
  return (
    <div className="flex gap-3 rounded-lg bg-slate-50 p-3 text-sm">
      {post.thumbnailUrl ? <MediaThumb url={post.thumbnailUrl} label="The post’s image" className="size-14 shrink-0" /> : null}
      <div className="min-w-0">
        <p className="line-clamp-3 break-words whitespace-pre-wrap">{post.content}</p>
        <p className="mt-1 text-slate-600">
          <Link className="underline" href={`/posts/${post.id}`}>
            The post in Herald
          </Link>
          {post.permalink ? (
            <>
              {' · '}
              <a className="underline" href={post.permalink} target="_blank" rel="noreferrer">
                {isDemoPermalink(post.permalink) ? 'See the demo post' : `View on ${platformLabel(platform)}`}
              </a>
            </>
          ) : null}
        </p>
      </div>
    </div>
  );
}

function ThreadEntry({ entry, current }: { entry: InboxItemDto; current: boolean }) {
  const state = entry.reply?.state;
  return (
    <li
      className={cn(
        'rounded-lg border p-3 text-sm',
        entry.fromAccount ? 'ml-6 border-brand-200 bg-brand-50' : 'border-slate-200',
        current && 'ring-1 ring-brand-600',
      )}
      data-testid="thread-entry"
    >
      <p className="flex flex-wrap items-center gap-x-2">
        {entry.kind === 'review' && !entry.fromAccount ? <Rating item={entry} /> : null}
        <span className="font-medium">{entry.fromAccount ? `${entry.author.name} (you)` : entry.author.name}</span>
        {entry.author.handle ? <span className="text-slate-600">{entry.author.handle}</span> : null}
        <span className="text-slate-600">
          <TimeAgo iso={entry.createdAt} />
        </span>
        {entry.editedAt ? <Badge>edited</Badge> : null}
        {entry.hidden ? <Badge>hidden</Badge> : null}
        {entry.deletedAt ? <Badge tone="warn">deleted on the network</Badge> : null}
        {state === 'pending_approval' ? <Badge tone="warn">waiting for approval</Badge> : null}
        {state === 'sending' ? <Badge tone="info">sending</Badge> : null}
        {state === 'failed' ? <Badge tone="bad">not sent</Badge> : null}
        {state === 'rejected' ? <Badge tone="bad">rejected</Badge> : null}
      </p>
      <p className="mt-1 break-words whitespace-pre-wrap">{entry.text}</p>
      {entry.attachmentUrl ? <MediaThumb url={entry.attachmentUrl} label="The image sent with the message" className="mt-2 size-24" /> : null}
      {entry.reply?.error ? <p className="mt-1 text-red-700">{entry.reply.error}</p> : null}
      <p className="mt-1 text-xs text-slate-600">
        {entry.reply?.writtenBy ? `Written by ${entry.reply.writtenBy}` : null}
        {entry.permalink ? (
          <>
            {entry.reply?.writtenBy ? ' · ' : null}
            <a className="underline" href={entry.permalink} target="_blank" rel="noreferrer" data-testid="entry-permalink">
              {isDemoPermalink(entry.permalink) ? 'On the demo post' : 'On the network'}
            </a>
          </>
        ) : null}
      </p>
    </li>
  );
}

function ReplyBox({
  replyBox,
  ...props
}: {
  id: string;
  kind: InboxItemDto['kind'];
  /** Whether the answer may carry an image (a direct message, where the network takes one). */
  images: boolean;
  platform: Platform;
  limit: InboxConversationDto['replyLimit'];
  drafts: InboxConversationDto['drafts'];
  replyBox: React.RefObject<HTMLTextAreaElement | null>;
  onSent: () => Promise<unknown>;
}) {
  const [text, setText] = useState('');
  // The draft the box holds ("Use this draft"): sending marks it sent with the reply.
  const [draftId, setDraftId] = useState<string | null>(null);
  // One image from the media library, for a direct message's answer where the network takes one.
  const [imageId, setImageId] = useState('');
  const library = useQuery({
    queryKey: ['media.list', 'images'],
    queryFn: async () => (await trpc.media.list.query({ kind: 'image', limit: 50 })).data,
    enabled: props.images,
  });
  const pending = props.drafts.filter((d) => d.status === 'pending' && d.id !== draftId).at(-1);
  const [error, setError] = useState<string | null>(null);
  const [naming, setNaming] = useState(false);
  const [title, setTitle] = useState('');
  const saved = useQuery({ queryKey: ['inbox.savedReplies'], queryFn: async () => (await trpc.inbox.savedReplies.query()).data });
  const queryClient = useQueryClient();
  const used = PLATFORM_CATALOGUE[props.platform].text.count(text);
  const over = used > props.limit.maxChars;
  const send = useMutation({
    mutationFn: (v: { id: string; text: string }) =>
      trpc.inbox.reply.mutate({ ...v, ...(draftId ? { draftId } : {}), ...(imageId ? { mediaIds: [imageId] } : {}) }),
    onSuccess: (r) => {
      setText('');
      setDraftId(null);
      setImageId('');
      setError(null);
      toast.success(r.data.reply?.state === 'pending_approval' ? 'Your reply waits for approval' : 'Reply sent');
      void props.onSent();
    },
    // The network's own words; the text stays in the box.
    onError: (e) => setError(serverError(e).message),
  });
  const discard = useMutation({
    mutationFn: (v: { id: string; draftId: string }) => trpc.inbox.discardDraft.mutate(v),
    onSuccess: () => {
      toast.success('Draft discarded');
      void props.onSent();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  const keep = useMutation({
    mutationFn: (v: { title: string; text: string }) => trpc.inbox.saveReply.mutate(v),
    onSuccess: () => {
      toast.success('Saved for next time');
      setNaming(false);
      void queryClient.invalidateQueries({ queryKey: ['inbox.savedReplies'] });
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  return (
    <form
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (!text.trim() || over) return;
        send.mutate({ id: props.id, text });
      }}
    >
      {pending ? (
        <div className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm" data-testid="inbox-draft">
          <p className="text-xs text-slate-600">
            Draft by {pending.authoredBy.name}
            {pending.authoredBy.assistant ? ' (assistant)' : ''} · not sent until a member sends it
          </p>
          <p className="mt-1 break-words whitespace-pre-wrap">{pending.text}</p>
          <span className="mt-2 flex gap-2">
            <Button
              type="button"
              size="sm"
              variant="secondary"
              onClick={() => {
                setText(pending.text);
                setDraftId(pending.id);
                replyBox.current?.focus();
              }}
            >
              Use this draft
            </Button>
            <Button type="button" size="sm" variant="ghost" disabled={discard.isPending} onClick={() => discard.mutate({ id: props.id, draftId: pending.id })}>
              Discard
            </Button>
          </span>
        </div>
      ) : null}
      <div className="flex items-end justify-between gap-2">
        <Label htmlFor="inbox-reply">{props.kind === 'review' ? 'Answer the review' : props.kind === 'message' ? 'Message' : 'Reply'}</Label>
        {saved.data?.length ? (
          <Select
            aria-label="Insert a saved reply"
            className="w-auto"
            value=""
            onChange={(e) => {
              const s = saved.data.find((r) => r.id === e.target.value);
              if (s) setText((t) => (t ? `${t} ${s.text}` : s.text));
            }}
          >
            <option value="">Saved replies…</option>
            {saved.data.map((r) => (
              <option key={r.id} value={r.id}>
                {r.title}
              </option>
            ))}
          </Select>
        ) : null}
      </div>
      <Textarea
        id="inbox-reply"
        ref={replyBox}
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') (e.target as HTMLTextAreaElement).blur();
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey) && text.trim() && !over) send.mutate({ id: props.id, text });
        }}
        aria-invalid={!!error || over || undefined}
        aria-describedby="inbox-reply-count inbox-reply-error"
        disabled={send.isPending}
      />
      {props.images && library.data?.length ? (
        <div className="flex items-center gap-2 text-sm">
          <Label htmlFor="inbox-reply-image">Image</Label>
          <Select id="inbox-reply-image" className="w-auto" value={imageId} onChange={(e) => setImageId(e.target.value)}>
            <option value="">No image</option>
            {library.data.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </Select>
        </div>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span id="inbox-reply-count" className={cn('text-xs', over ? 'text-red-700' : 'text-slate-600')}>
          {used.toLocaleString()} / {props.limit.maxChars.toLocaleString()} {props.limit.unit}
        </span>
        <span className="flex gap-2">
          <Button
            type="button"
            size="sm"
            variant="secondary"
            disabled={!text.trim() || keep.isPending}
            onClick={() => {
              setTitle(text.trim().slice(0, 40));
              setNaming(true);
            }}
          >
            Save reply
          </Button>
          <Button type="submit" size="sm" disabled={!text.trim() || over || send.isPending}>
            {send.isPending ? (
              <>
                <Loader2 aria-hidden className="size-4 animate-spin" /> Sending…
              </>
            ) : (
              'Send reply'
            )}
          </Button>
        </span>
      </div>
      <FieldError id="inbox-reply-error">{error}</FieldError>
      {send.isPending && send.variables ? (
        <p className="ml-6 rounded-lg border border-brand-200 bg-brand-50 p-3 text-sm" data-testid="reply-sending">
          <Badge tone="info">sending</Badge> <span className="break-words whitespace-pre-wrap">{send.variables.text}</span>
        </p>
      ) : null}
      <Dialog open={naming} onOpenChange={setNaming} title="Save this reply" description="The team can insert it into any reply of this workspace.">
        <div className="space-y-3">
          <div>
            <Label htmlFor="saved-reply-title">Name</Label>
            <Input id="saved-reply-title" value={title} maxLength={80} onChange={(e) => setTitle(e.target.value)} />
          </div>
          <Button size="sm" disabled={!title.trim() || keep.isPending} onClick={() => keep.mutate({ title: title.trim(), text: text.trim() })}>
            Save
          </Button>
        </div>
      </Dialog>
    </form>
  );
}
