'use client';
// Posts: filters (status, platform, dates, search, alerts), paging, and bulk actions over the
// selection or a date range — each one the posts services' rules, post by post.
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Dialog } from '@/app/_ui/dialog';
import { Card, EmptyState, ErrorState, Input, Label, LoadingRows, PageHeader, Select } from '@/app/_ui/primitives';
import type { BulkResult } from '@/server/posts/bulk-posts';
import { POST_STATUSES, type ListPostsQuery, type PostListRowDto } from '@/server/posts/posts.schemas';
import { PLATFORMS } from '@/server/shared/platforms';
import { useShell } from '../../_lib/providers';
import { formatIn, fromLocalInput } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { platformLabel, PostAlert, PostStateBadges, useInvalidateAll } from './post-bits';
import { CancelPostsButton } from './cancel-posts';

const FILTER_KEYS = ['status', 'platform', 'from', 'to', 'search', 'alert'] as const;
type Filters = Record<(typeof FILTER_KEYS)[number], string>;

type ListData = { data: PostListRowDto[]; page: number; limit: number; total: number };
const LIMIT = 25;

function reportBulk(verb: string, r: BulkResult) {
  if (r.refused.length === 0) toast.success(`${r.done.length} post${r.done.length === 1 ? '' : 's'} ${verb}`);
  else toast.warning(`${r.done.length} ${verb}, ${r.refused.length} refused: ${r.refused.map((x) => x.message).join('; ')}`);
}

/** A bulk action: says what was done and what was refused, then `after` (close, refresh). */
function useBulkAction(verb: string, run: () => Promise<{ data: BulkResult }>, after: () => void) {
  return useMutation({
    mutationFn: run,
    onSuccess: (r) => {
      reportBulk(verb, r.data);
      after();
    },
    onError: (e) => toast.error(serverError(e).message),
  });
}

export function PostsList({ initial }: { initial: ListData | null }) {
  const { current } = useShell();
  const tz = current.timeZone;
  const invalidate = useInvalidateAll();
  // The filters and the page live in the address, so a filtered list can be reloaded, shared
  // and returned to with Back.
  const params = useSearchParams();
  const [filters, setFilters] = useState<Filters>(() => Object.fromEntries(FILTER_KEYS.map((k) => [k, params.get(k) ?? ''])) as Filters);
  const [page, setPageState] = useState(() => Math.max(1, Number(params.get('page')) || 1));
  const rememberInUrl = (next: Filters, nextPage: number) => {
    const qs = new URLSearchParams(Object.entries(next).filter(([, v]) => v !== ''));
    if (nextPage > 1) qs.set('page', String(nextPage));
    window.history.replaceState(null, '', qs.size ? `?${qs}` : window.location.pathname);
  };
  const setPage = (update: number | ((p: number) => number)) => {
    const next = typeof update === 'function' ? update(page) : update;
    setPageState(next);
    rememberInUrl(filters, next);
  };
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<null | 'shift' | 'spread' | 'range'>(null);

  const query: ListPostsQuery = {
    page,
    limit: LIMIT,
    ...(filters.status ? { status: filters.status as ListPostsQuery['status'] } : {}),
    ...(filters.platform ? { platform: filters.platform as ListPostsQuery['platform'] } : {}),
    ...(filters.from ? { from: fromLocalInput(`${filters.from}T00:00`, tz)! } : {}),
    ...(filters.to ? { to: fromLocalInput(`${filters.to}T23:59`, tz)! } : {}),
    ...(filters.search.trim() ? { search: filters.search.trim() } : {}),
    ...(filters.alert ? { alert: filters.alert as ListPostsQuery['alert'] } : {}),
  };
  const isDefault = page === 1 && Object.values(filters).every((v) => v === '');
  const q = useQuery({
    queryKey: ['posts.list', query],
    queryFn: () => trpc.posts.list.query(query),
    initialData: isDefault && initial ? initial : undefined,
    placeholderData: keepPreviousData,
  });
  // The file of every post these filters match (not only this page), as the API exports it.
  const exporting = useMutation({
    mutationFn: () => {
      const { page: _page, limit: _limit, ...filtersOnly } = query;
      return trpc.posts.exportCsv.query(filtersOnly);
    },
    onSuccess: (file) => {
      const url = URL.createObjectURL(new Blob([file.csv], { type: 'text/csv;charset=utf-8' }));
      const link = Object.assign(document.createElement('a'), { href: url, download: file.filename });
      link.click();
      // Released once the browser has taken the file (revoking at once can cancel the download).
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast.success(`Exported ${file.rows} post${file.rows === 1 ? '' : 's'}`);
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => {
    const next = { ...filters, [k]: e.target.value };
    setFilters(next);
    setPageState(1);
    rememberInUrl(next, 1);
    setSelected(new Set());
  };

  // What the selected posts were when last seen (a selection may span pages): what a cancel
  // takes away, and what its undo puts back.
  const [seen, setSeen] = useState<Map<string, PostListRowDto>>(new Map());
  const remember = (picked: PostListRowDto[]) => setSeen((m) => new Map([...m, ...picked.map((r) => [r.id, r] as const)]));
  const selectedPosts = [...selected].map((id) => seen.get(id)).filter((p): p is PostListRowDto => p !== undefined);

  const rows = q.data?.data ?? [];
  const pages = q.data ? Math.max(1, Math.ceil(q.data.total / LIMIT)) : 1;
  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.id));

  return (
    <>
      <PageHeader title="Posts">
        <Button variant="secondary" asChild>
          <Link href="/posts/duplicates">Find duplicates</Link>
        </Button>
        <Button variant="secondary" asChild>
          <Link href="/posts/import">Import</Link>
        </Button>
        <Button variant="secondary" disabled={exporting.isPending} onClick={() => exporting.mutate()}>
          {exporting.isPending ? 'Exporting…' : 'Export CSV'}
        </Button>
        <Button variant="secondary" onClick={() => setDialog('range')}>
          Shift a date range
        </Button>
        <Button asChild>
          <Link href="/compose">New post</Link>
        </Button>
      </PageHeader>
      <Card className="mb-4">
        <form role="search" aria-label="Filter posts" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" onSubmit={(e) => e.preventDefault()}>
          <div>
            <Label htmlFor="f-status">Status</Label>
            <Select id="f-status" value={filters.status} onChange={set('status')}>
              <option value="">Any</option>
              {POST_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s.replace('_', ' ')}
                </option>
              ))}
            </Select>
          </div>
          <div>
            <Label htmlFor="f-platform">Platform</Label>
            <Select id="f-platform" value={filters.platform} onChange={set('platform')}>
              <option value="">Any</option>
              {PLATFORMS.map((p) => (
                <option key={p} value={p}>
                  {platformLabel(p)}
                </option>
              ))}
            </Select>
          </div>
          <div>
            <Label htmlFor="f-from">From</Label>
            <Input id="f-from" type="date" value={filters.from} onChange={set('from')} />
          </div>
          <div>
            <Label htmlFor="f-to">To</Label>
            <Input id="f-to" type="date" value={filters.to} onChange={set('to')} />
          </div>
          <div>
            <Label htmlFor="f-alert">Alerts</Label>
            <Select id="f-alert" value={filters.alert} onChange={set('alert')}>
              <option value="">All posts</option>
              <option value="any">Overdue or stuck</option>
              <option value="overdue">Overdue</option>
              <option value="stuck">Stuck</option>
            </Select>
          </div>
          <div>
            <Label htmlFor="f-search">Search</Label>
            <Input id="f-search" type="search" value={filters.search} onChange={set('search')} placeholder="Text…" />
          </div>
        </form>
      </Card>

      {selected.size > 0 ? (
        <div
          className="sticky top-0 z-10 mb-3 flex flex-wrap items-center gap-2 rounded-md border border-brand-100 bg-brand-50 p-2 text-sm"
          role="region"
          aria-label="Bulk actions"
        >
          <span className="font-medium">{selected.size} selected</span>
          <Button size="sm" variant="secondary" onClick={() => setDialog('shift')}>
            Shift…
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setDialog('spread')}>
            Spread…
          </Button>
          <CancelPostsButton
            size="sm"
            label="Cancel posts"
            posts={selectedPosts}
            cancel={async () => {
              const r = (await trpc.posts.bulkCancel.mutate({ selection: { ids: [...selected] } })).data;
              return { cancelled: r.done, refused: r.refused.map((x) => x.message) };
            }}
            onDone={() => setSelected(new Set())}
          />
          <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>
            Clear
          </Button>
        </div>
      ) : null}

      {q.isPending ? (
        <LoadingRows rows={8} label="Loading posts" />
      ) : q.isError ? (
        <ErrorState message={serverError(q.error).message} onRetry={() => q.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title={isDefault ? 'No posts yet' : 'No posts match these filters'}>
          {isDefault ? (
            <Link href="/compose" className="text-brand-700 underline">
              Compose the first one
            </Link>
          ) : null}
        </EmptyState>
      ) : (
        <Card className="p-0">
          <div className="flex items-center gap-2 border-b border-slate-200 px-3 py-2 text-sm">
            <input
              type="checkbox"
              aria-label="Select every post on this page"
              checked={allOnPage}
              onChange={() => {
                remember(rows);
                setSelected((s) => (allOnPage ? new Set([...s].filter((id) => !rows.some((r) => r.id === id))) : new Set([...s, ...rows.map((r) => r.id)])));
              }}
            />
            <span className="text-slate-600">{q.data.total} posts</span>
          </div>
          <ul>
            {rows.map((p) => (
              <li key={p.id} className="border-b border-slate-100 px-3 py-2 last:border-b-0" data-testid="post-row">
                <div className="flex items-start gap-2">
                  <input
                    type="checkbox"
                    className="mt-1"
                    aria-label={`Select “${p.content.slice(0, 40)}”`}
                    checked={selected.has(p.id)}
                    onChange={() => {
                      remember([p]);
                      setSelected((s) => {
                        const n = new Set(s);
                        if (n.has(p.id)) n.delete(p.id);
                        else n.add(p.id);
                        return n;
                      });
                    }}
                  />
                  <div className="flex min-w-0 flex-1 flex-col gap-1 sm:flex-row sm:items-center sm:gap-2">
                    <Link href={`/posts/${p.id}`} className="min-w-0 truncate font-medium hover:underline sm:flex-1">
                      {p.content}
                    </Link>
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="text-sm text-slate-600 tabular-nums" data-testid="post-time">
                        {p.publishedAt
                          ? `published ${formatIn(p.publishedAt, tz, 'd MMM, HH:mm')}`
                          : p.scheduledAt
                            ? formatIn(p.scheduledAt, tz, 'd MMM, HH:mm')
                            : 'not scheduled'}
                      </span>
                      <span className="text-xs text-slate-600">{p.platforms.map(platformLabel).join(', ')}</span>
                      <PostStateBadges status={p.status} approvalStatus={p.approvalStatus} />
                    </div>
                  </div>
                </div>
                {p.alert ? (
                  <div className="mt-1 pl-6">
                    <PostAlert post={p} compact />
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
          <nav aria-label="Pages" className="flex items-center justify-between gap-2 border-t border-slate-200 px-3 py-2 text-sm">
            <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => setPage((n) => n - 1)}>
              Previous
            </Button>
            <span>
              Page {page} of {pages}
            </span>
            <Button size="sm" variant="secondary" disabled={page >= pages} onClick={() => setPage((n) => n + 1)}>
              Next
            </Button>
          </nav>
        </Card>
      )}
      <ShiftDialog
        open={dialog === 'shift'}
        onOpenChange={(o) => setDialog(o ? 'shift' : null)}
        ids={[...selected]}
        onDone={() => {
          setSelected(new Set());
          void invalidate();
        }}
      />
      <SpreadDialog
        open={dialog === 'spread'}
        onOpenChange={(o) => setDialog(o ? 'spread' : null)}
        ids={[...selected]}
        tz={tz}
        onDone={() => {
          setSelected(new Set());
          void invalidate();
        }}
      />
      <RangeShiftDialog open={dialog === 'range'} onOpenChange={(o) => setDialog(o ? 'range' : null)} tz={tz} onDone={() => void invalidate()} />
    </>
  );
}

function ShiftFields({ amount, unit, setAmount, setUnit }: { amount: string; unit: string; setAmount: (v: string) => void; setUnit: (v: string) => void }) {
  return (
    <div className="grid grid-cols-2 gap-2">
      <div>
        <Label htmlFor="shift-amount">Move by</Label>
        <Input id="shift-amount" type="number" value={amount} onChange={(e) => setAmount(e.target.value)} />
      </div>
      <div>
        <Label htmlFor="shift-unit">Unit</Label>
        <Select id="shift-unit" value={unit} onChange={(e) => setUnit(e.target.value)}>
          <option value="hours">hours</option>
          <option value="days">days</option>
        </Select>
      </div>
    </div>
  );
}

const minutesOf = (amount: string, unit: string) => Math.round(Number(amount) * (unit === 'days' ? 1440 : 60));

function ShiftDialog({ open, onOpenChange, ids, onDone }: { open: boolean; onOpenChange: (o: boolean) => void; ids: string[]; onDone: () => void }) {
  const [amount, setAmount] = useState('1');
  const [unit, setUnit] = useState('days');
  const m = useBulkAction(
    'moved',
    () => trpc.posts.bulkShift.mutate({ selection: { ids }, byMinutes: minutesOf(amount, unit) }),
    () => {
      onOpenChange(false);
      onDone();
    },
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`Shift ${ids.length} posts`} description="Negative numbers move posts earlier.">
      <form className="space-y-3" onSubmit={(e) => (e.preventDefault(), m.mutate())}>
        <ShiftFields amount={amount} unit={unit} setAmount={setAmount} setUnit={setUnit} />
        <Button type="submit" disabled={m.isPending}>
          Shift
        </Button>
      </form>
    </Dialog>
  );
}

function SpreadDialog({
  open,
  onOpenChange,
  ids,
  tz,
  onDone,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  ids: string[];
  tz: string;
  onDone: () => void;
}) {
  const [start, setStart] = useState('');
  const [every, setEvery] = useState('120');
  const m = useBulkAction(
    'rescheduled',
    () => trpc.posts.bulkSpread.mutate({ selection: { ids }, start: fromLocalInput(start, tz) ?? '', everyMinutes: Number(every) }),
    () => {
      onOpenChange(false);
      onDone();
    },
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`Spread ${ids.length} posts over slots`} description={`In time order, one per slot (${tz}).`}>
      <form className="space-y-3" onSubmit={(e) => (e.preventDefault(), m.mutate())}>
        <div>
          <Label htmlFor="spread-start">First slot</Label>
          <Input id="spread-start" type="datetime-local" required value={start} onChange={(e) => setStart(e.target.value)} />
        </div>
        <div>
          <Label htmlFor="spread-every">Minutes between slots</Label>
          <Input id="spread-every" type="number" min={1} value={every} onChange={(e) => setEvery(e.target.value)} />
        </div>
        <Button type="submit" disabled={m.isPending || !start}>
          Spread
        </Button>
      </form>
    </Dialog>
  );
}

function RangeShiftDialog({ open, onOpenChange, tz, onDone }: { open: boolean; onOpenChange: (o: boolean) => void; tz: string; onDone: () => void }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState('7');
  const [unit, setUnit] = useState('days');
  const m = useBulkAction(
    'moved',
    () =>
      trpc.posts.bulkShift.mutate({
        selection: { range: { from: fromLocalInput(`${from}T00:00`, tz) ?? '', to: fromLocalInput(`${to}T23:59`, tz) ?? '' } },
        byMinutes: minutesOf(amount, unit),
      }),
    () => {
      onOpenChange(false);
      onDone();
    },
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Shift every scheduled post in a date range">
      <form className="space-y-3" onSubmit={(e) => (e.preventDefault(), m.mutate())}>
        <div className="grid grid-cols-2 gap-2">
          <div>
            <Label htmlFor="range-from">From</Label>
            <Input id="range-from" type="date" required value={from} onChange={(e) => setFrom(e.target.value)} />
          </div>
          <div>
            <Label htmlFor="range-to">To</Label>
            <Input id="range-to" type="date" required value={to} onChange={(e) => setTo(e.target.value)} />
          </div>
        </div>
        <ShiftFields amount={amount} unit={unit} setAmount={setAmount} setUnit={setUnit} />
        <Button type="submit" disabled={m.isPending || !from || !to}>
          Shift range
        </Button>
      </form>
    </Dialog>
  );
}
