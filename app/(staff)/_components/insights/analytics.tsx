'use client';
// Analytics of one ad account: totals over a window (optionally against a second window,
// side by side with the change), the daily chart with days without readings as gaps, and the
// best times to post. Every figure carries the provenance its answer came with.
import { useQuery } from '@tanstack/react-query';
import { ResponseTimesCard } from './response-times';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/app/_ui/button';
import { Card, EmptyState, ErrorState, FieldError, Input, Label, LoadingRows, PageHeader, Select } from '@/app/_ui/primitives';
import { ZSummaryQuery, type AdAccountDto, type MetricValues } from '@/server/analytics/analytics.schemas';
import { BEST_TIME_PLATFORMS, type BestTimePlatform } from '@/server/best-times/best-times.schemas';
import { addDays, daysBetweenInclusive, todayIn } from '@/server/shared/analytics-window';
import { useShell } from '../../_lib/providers';
import { serverError, trpc } from '../../_lib/trpc';
import { BestTimes } from './best-times';
import { MetricsChart } from './metrics-chart';
import { platformLabel } from '../publishing/post-bits';
import { PostResults } from './post-results';
import { Provenance } from './provenance';

type Window = { from: string; to: string };
type Errors = Partial<Record<'from' | 'to' | 'compareFrom' | 'compareTo' | 'accountId', string>>;

const count = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });
const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 2 });

const METRICS = [
  { key: 'impressions', label: 'Impressions', format: (n: number) => count.format(n) },
  { key: 'reach', label: 'Reach', format: (n: number) => count.format(n) },
  { key: 'clicks', label: 'Clicks', format: (n: number) => count.format(n) },
  { key: 'spend', label: 'Spend', format: (n: number) => decimal.format(n) },
  { key: 'conversions', label: 'Conversions', format: (n: number) => decimal.format(n) },
  { key: 'ctr', label: 'CTR', format: (n: number) => percent.format(n) },
  { key: 'cpc', label: 'CPC', format: (n: number) => decimal.format(n) },
  { key: 'cpm', label: 'CPM', format: (n: number) => decimal.format(n) },
] as const;
type MetricKey = (typeof METRICS)[number]['key'];

function valueOf(v: MetricValues, key: MetricKey): number | null {
  return key === 'spend' ? v.spend.amount : v[key];
}

/** The same-length window just before `w`: the usual comparison. */
function previousWindow(w: Window): Window {
  const span = daysBetweenInclusive(w.from, w.to);
  return { from: addDays(w.from, -span), to: addDays(w.from, -1) };
}

/** Every day of the window, newest first, following `nextTo` past the 100-row page. */
async function fetchDaily(accountId: string, w: Window) {
  const first = await trpc.analytics.metricsDaily.query({ accountId, ...w, limit: 100 });
  const rows = [...first.data];
  let nextTo = first.nextTo;
  while (nextTo) {
    const page = await trpc.analytics.metricsDaily.query({ accountId, from: w.from, to: nextTo, limit: 100 });
    rows.push(...page.data);
    nextTo = page.nextTo;
  }
  return { rows, provenance: first.provenance };
}

/** Costs: a rise is bad news, so it is coloured as one. */
const COSTS: ReadonlySet<MetricKey> = new Set(['spend', 'cpc', 'cpm']);

function Delta({ a, b, format, cost = false }: { a: number | null; b: number | null; format: (n: number) => string; cost?: boolean }) {
  if (a === null || b === null) return <span className="text-slate-600">no change to show (a window has no reading)</span>;
  const diff = a - b;
  const pct = b === 0 ? null : diff / Math.abs(b);
  const good = cost ? diff < 0 : diff > 0;
  const tone = diff === 0 ? 'text-slate-700' : good ? 'text-emerald-800' : 'text-red-800';
  return (
    <span className={tone}>
      {diff > 0 ? '+' : diff < 0 ? '−' : '±'}
      {format(Math.abs(diff))}
      {pct === null ? '' : ` (${diff >= 0 ? '+' : '−'}${percent.format(Math.abs(pct))})`}
    </span>
  );
}

function Totals({ accountId, window, compare, tz }: { accountId: string; window: Window; compare: Window | null; tz: string }) {
  const a = useQuery({
    queryKey: ['analytics.metricsSummary', accountId, window],
    queryFn: () => trpc.analytics.metricsSummary.query({ accountId, ...window }),
  });
  const b = useQuery({
    queryKey: ['analytics.metricsSummary', accountId, compare],
    queryFn: () => trpc.analytics.metricsSummary.query({ accountId, ...compare! }),
    enabled: compare !== null,
  });
  if (a.isPending || (compare && b.isPending)) return <LoadingRows rows={2} label="Loading totals" />;
  if (a.isError) return <ErrorState message={serverError(a.error).message} onRetry={() => void a.refetch()} />;
  if (compare && b.isError) return <ErrorState message={serverError(b.error).message} onRetry={() => void b.refetch()} />;
  const currency = a.data.data.spend.currency;
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="totals">
      {METRICS.map((m) => {
        const va = valueOf(a.data.data, m.key);
        const vb = compare && b.data ? valueOf(b.data.data, m.key) : null;
        const show = (v: number | null) => (v === null ? 'no reading' : `${m.format(v)}${m.key === 'spend' ? ` ${currency}` : ''}`);
        return (
          <Card key={m.key} className="min-w-0 space-y-1" data-testid={`total-${m.key}`}>
            <h3 className="text-sm text-slate-600">{m.label}</h3>
            {compare && b.data ? (
              <dl className="grid grid-cols-2 gap-2">
                <div className="min-w-0">
                  <dt className="text-xs text-slate-600">
                    {window.from} – {window.to}
                  </dt>
                  <dd className="text-lg font-semibold break-words">{show(va)}</dd>
                  <dd>
                    <Provenance p={a.data.provenance} tz={tz} />
                  </dd>
                </div>
                <div className="min-w-0">
                  <dt className="text-xs text-slate-600">
                    {compare.from} – {compare.to}
                  </dt>
                  <dd className="text-lg font-semibold break-words">{show(vb)}</dd>
                  <dd>
                    <Provenance p={b.data.provenance} tz={tz} />
                  </dd>
                </div>
                <div className="col-span-2 text-sm" data-testid="delta">
                  Change: <Delta a={va} b={vb} format={m.format} cost={COSTS.has(m.key)} />
                </div>
              </dl>
            ) : (
              <>
                <p className="text-xl font-semibold break-words">{show(va)}</p>
                <Provenance p={a.data.provenance} tz={tz} />
              </>
            )}
          </Card>
        );
      })}
      <p className="text-xs text-slate-600 sm:col-span-2 lg:col-span-4">
        {a.data.provenance.daysWithReadings} of {a.data.data.days} days have readings (times in {a.data.provenance.timeZone}). Totals add up the days that have
        one; a missing day is not counted as zero.
      </p>
    </div>
  );
}

function Daily({ accountId, window, tz }: { accountId: string; window: Window; tz: string }) {
  const [metric, setMetric] = useState<MetricKey>('impressions');
  const q = useQuery({ queryKey: ['analytics.metricsDaily', accountId, window], queryFn: () => fetchDaily(accountId, window) });
  const def = METRICS.find((m) => m.key === metric)!;
  return (
    <Card className="min-w-0 space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h2 className="font-semibold text-slate-900">Per day</h2>
        <div>
          <Label htmlFor="chart-metric">Metric</Label>
          <Select id="chart-metric" value={metric} onChange={(e) => setMetric(e.target.value as MetricKey)}>
            {METRICS.map((m) => (
              <option key={m.key} value={m.key}>
                {m.label}
              </option>
            ))}
          </Select>
        </div>
      </div>
      {q.isPending ? (
        <LoadingRows rows={3} label="Loading daily figures" />
      ) : q.isError ? (
        <ErrorState message={serverError(q.error).message} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <MetricsChart points={[...q.data.rows].reverse().map((r) => ({ date: r.date, value: valueOf(r, metric) }))} label={def.label} format={def.format} />
          <Provenance p={q.data.provenance} tz={tz} />
          {q.data.rows.some((r) => !r.hasReading) ? (
            <p className="text-sm text-slate-700" data-testid="days-without-readings">
              No reading on:{' '}
              {q.data.rows
                .filter((r) => !r.hasReading)
                .map((r) => r.date)
                .join(', ')}
            </p>
          ) : null}
          <details>
            <summary className="cursor-pointer text-sm font-medium text-slate-800">Show the days as a table</summary>
            <div className="mt-2 max-h-80 overflow-auto" tabIndex={0} role="region" aria-label="Daily figures">
              <table className="w-full text-sm">
                <thead>
                  <tr className="text-left text-slate-600">
                    <th className="py-1 pr-3 font-medium">Day</th>
                    <th className="py-1 font-medium">{def.label}</th>
                  </tr>
                </thead>
                <tbody>
                  {q.data.rows.map((r) => {
                    const v = valueOf(r, metric);
                    return (
                      <tr key={r.date} className="border-t border-slate-100">
                        <td className="py-1 pr-3">{r.date}</td>
                        <td className="py-1">{v === null ? 'no reading' : def.format(v)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </Card>
  );
}

export function Analytics({ initialAccounts }: { initialAccounts: { data: AdAccountDto[] } | null }) {
  const { current } = useShell();
  const tz = current.timeZone;
  const accounts = useQuery({
    queryKey: ['analytics.adAccounts'],
    queryFn: () => trpc.analytics.adAccounts.query(),
    initialData: initialAccounts ?? undefined,
  });
  const today = todayIn(tz);
  const [draft, setDraft] = useState({ accountId: '', from: addDays(today, -29), to: today, compare: false, compareFrom: '', compareTo: '' });
  const [applied, setApplied] = useState<{ accountId: string; window: Window; compare: Window | null } | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [platform, setPlatform] = useState<BestTimePlatform | ''>('');
  // Which view, in the address like every filter (reload, share, Back).
  const params = useSearchParams();
  const [view, setView] = useState<'posts' | 'ads'>(params.get('view') === 'ads' ? 'ads' : 'posts');
  const chooseView = (next: 'posts' | 'ads') => {
    setView(next);
    window.history.replaceState(null, '', `?view=${next}`);
  };

  const list = accounts.data?.data ?? [];
  const accountId = draft.accountId || list[0]?.id || '';
  const shown = applied ?? (accountId ? { accountId, window: { from: draft.from, to: draft.to }, compare: null } : null);

  function apply(e: React.FormEvent) {
    e.preventDefault();
    const next: Errors = {};
    // The routes' own query schema judges each window (dates, order, at most 366 days).
    const a = ZSummaryQuery.safeParse({ accountId, from: draft.from, to: draft.to });
    if (!a.success) for (const i of a.error.issues) next[String(i.path[0]) as keyof Errors] ??= i.message;
    let compare: Window | null = null;
    if (draft.compare) {
      const w = draft.compareFrom && draft.compareTo ? { from: draft.compareFrom, to: draft.compareTo } : previousWindow({ from: draft.from, to: draft.to });
      const b = ZSummaryQuery.safeParse({ accountId, ...w });
      if (!b.success) for (const i of b.error.issues) next[i.path[0] === 'from' ? 'compareFrom' : 'compareTo'] ??= i.message;
      compare = w;
    }
    setErrors(next);
    if (Object.keys(next).length === 0) setApplied({ accountId, window: { from: draft.from, to: draft.to }, compare });
  }
  const set = (k: keyof typeof draft) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }));

  return (
    <>
      <PageHeader title="Analytics" />
      <div role="tablist" aria-label="Analytics views" className="mb-4 inline-flex rounded-md border border-slate-200 bg-white p-1">
        {(
          [
            ['posts', 'Post results'],
            ['ads', 'Ad accounts'],
          ] as const
        ).map(([key, label]) => (
          <button
            key={key}
            type="button"
            role="tab"
            aria-selected={view === key}
            className={
              view === key ? 'rounded bg-slate-900 px-3 py-1.5 text-sm font-medium text-white' : 'rounded px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100'
            }
            onClick={() => chooseView(key)}
          >
            {label}
          </button>
        ))}
      </div>
      {view === 'posts' ? (
        <>
          <ResponseTimesCard />
          <PostResults tz={tz} />
        </>
      ) : accounts.isPending ? (
        <LoadingRows label="Loading ad accounts" />
      ) : accounts.isError ? (
        <ErrorState message={serverError(accounts.error).message} onRetry={() => void accounts.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState title="No ad accounts">Connect an ad account to see its totals and daily figures here.</EmptyState>
      ) : (
        <div className="min-w-0 space-y-4">
          <Card>
            <form className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4" onSubmit={apply} noValidate aria-label="Analytics window">
              <div className="sm:col-span-2">
                <Label htmlFor="a-account">Ad account</Label>
                <Select id="a-account" value={accountId} onChange={set('accountId')}>
                  {list.map((acc) => (
                    <option key={acc.id} value={acc.id}>
                      {acc.name}
                    </option>
                  ))}
                </Select>
                <FieldError>{errors.accountId}</FieldError>
              </div>
              <div>
                <Label htmlFor="a-from">From</Label>
                <Input id="a-from" type="date" value={draft.from} onChange={set('from')} aria-invalid={!!errors.from} />
                <FieldError>{errors.from}</FieldError>
              </div>
              <div>
                <Label htmlFor="a-to">To</Label>
                <Input id="a-to" type="date" value={draft.to} onChange={set('to')} aria-invalid={!!errors.to} />
                <FieldError>{errors.to}</FieldError>
              </div>
              <label className="flex items-center gap-2 text-sm sm:col-span-2">
                <input type="checkbox" checked={draft.compare} onChange={(e) => setDraft((d) => ({ ...d, compare: e.target.checked }))} />
                Compare with another window (empty: the window just before)
              </label>
              {draft.compare ? (
                <>
                  <div>
                    <Label htmlFor="a-cfrom">Compare from</Label>
                    <Input id="a-cfrom" type="date" value={draft.compareFrom} onChange={set('compareFrom')} aria-invalid={!!errors.compareFrom} />
                    <FieldError>{errors.compareFrom}</FieldError>
                  </div>
                  <div>
                    <Label htmlFor="a-cto">Compare to</Label>
                    <Input id="a-cto" type="date" value={draft.compareTo} onChange={set('compareTo')} aria-invalid={!!errors.compareTo} />
                    <FieldError>{errors.compareTo}</FieldError>
                  </div>
                </>
              ) : null}
              <div className="flex items-end sm:col-span-2 lg:col-span-4">
                <Button type="submit">Show</Button>
              </div>
            </form>
          </Card>
          {shown ? (
            <>
              <section aria-labelledby="totals-heading" className="space-y-2">
                <h2 id="totals-heading" className="font-semibold text-slate-900">
                  Totals
                </h2>
                <Totals accountId={shown.accountId} window={shown.window} compare={shown.compare} tz={tz} />
              </section>
              <Daily accountId={shown.accountId} window={shown.window} tz={tz} />
            </>
          ) : null}
        </div>
      )}
      <Card className="mt-4 space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <h2 className="font-semibold text-slate-900">Best times to post</h2>
          <div>
            <Label htmlFor="bt-platform">Platform</Label>
            <Select id="bt-platform" value={platform} onChange={(e) => setPlatform(e.target.value as BestTimePlatform | '')}>
              <option value="">All platforms</option>
              {BEST_TIME_PLATFORMS.map((p) => (
                <option key={p} value={p}>
                  {platformLabel(p)}
                </option>
              ))}
            </Select>
          </div>
        </div>
        <BestTimes tz={tz} platform={platform || undefined} />
      </Card>
    </>
  );
}
