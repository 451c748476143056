'use client';
// Post results: the workspace's published posts over a window ranked by what they did —
// engagement (the formula in docs/analytics.md) or any collected metric — with each post's
// media, text, network and link, and the CSV of the window for client reporting. A metric a
// network does not report is "—" with its reason on hover, never 0. The window, network and
// sort live in the address (reload, share, Back).
import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/app/_ui/button';
import { MediaThumb } from '@/app/_ui/media-thumb';
import { Card, EmptyState, ErrorState, FieldError, Input, Label, LoadingRows, Select } from '@/app/_ui/primitives';
import { ZTopPostsQuery, type TopPostsQuery } from '@/server/analytics/post-metrics/post-metrics.schemas';
import { POST_METRIC_LABELS, POST_METRICS, type PostMetricName } from '@/server/platforms/insights';
import { addDays, todayIn } from '@/server/shared/analytics-window';
import { PLATFORMS, type Platform } from '@/server/shared/platforms';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { platformLabel } from '../publishing/post-bits';

type Sort = PostMetricName | 'engagement';
const LABELS: Record<Sort, string> = { engagement: 'Engagement', ...POST_METRIC_LABELS };
/** The columns of the table; the rest are in the CSV. */
const COLUMNS: Sort[] = ['engagement', 'impressions', 'reach', 'views', 'reactions', 'comments', 'shares', 'saves', 'linkClicks'];
const count = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

type Window = { from: string; to: string; platform: Platform | ''; sort: Sort };
type Errors = Partial<Record<'from' | 'to', string>>;

function download(filename: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  URL.revokeObjectURL(url);
}

export function PostResults({ tz }: { tz: string }) {
  const params = useSearchParams();
  const today = todayIn(tz);
  const initial: Window = {
    from: params.get('from') ?? addDays(today, -29),
    to: params.get('to') ?? today,
    platform: (PLATFORMS as readonly string[]).includes(params.get('platform') ?? '') ? (params.get('platform') as Platform) : '',
    sort: ([...POST_METRICS, 'engagement'] as string[]).includes(params.get('sort') ?? '') ? (params.get('sort') as Sort) : 'engagement',
  };
  const [draft, setDraft] = useState(initial);
  const [applied, setApplied] = useState(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [exporting, setExporting] = useState(false);

  const show = (next: Window) => {
    // The route's own schema judges the window (dates, order, at most 366 days).
    const parsed = ZTopPostsQuery.safeParse({ from: next.from, to: next.to });
    const found: Errors = {};
    if (!parsed.success) for (const i of parsed.error.issues) found[String(i.path[0]) as keyof Errors] ??= i.message;
    setErrors(found);
    if (Object.keys(found).length) return;
    setApplied(next);
    setDraft(next);
    const qs = new URLSearchParams({ view: 'posts', from: next.from, to: next.to, sort: next.sort, ...(next.platform ? { platform: next.platform } : {}) });
    window.history.replaceState(null, '', `?${qs}`);
  };

  const query: TopPostsQuery = {
    from: applied.from,
    to: applied.to,
    sort: applied.sort,
    limit: 20,
    ...(applied.platform ? { platform: applied.platform } : {}),
  };
  const top = useQuery({ queryKey: ['postMetrics.top', query], queryFn: () => trpc.postMetrics.top.query(query) });

  async function exportCsv() {
    setExporting(true);
    try {
      const file = await trpc.postMetrics.exportCsv.query({ from: applied.from, to: applied.to });
      download(file.filename, file.csv);
    } finally {
      setExporting(false);
    }
  }

  const set = (k: 'from' | 'to' | 'platform') => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }));
  const rows = top.data?.data ?? [];
  const prov = top.data?.provenance;

  return (
    <div className="min-w-0 space-y-4">
      <Card>
        <form
          className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5"
          onSubmit={(e) => (e.preventDefault(), show(draft))}
          noValidate
          aria-label="Post results window"
        >
          <div>
            <Label htmlFor="pr-from">Published from</Label>
            <Input id="pr-from" type="date" value={draft.from} onChange={set('from')} aria-invalid={!!errors.from} />
            <FieldError>{errors.from}</FieldError>
          </div>
          <div>
            <Label htmlFor="pr-to">To</Label>
            <Input id="pr-to" type="date" value={draft.to} onChange={set('to')} aria-invalid={!!errors.to} />
            <FieldError>{errors.to}</FieldError>
          </div>
          <div>
            <Label htmlFor="pr-platform">Network</Label>
            <Select id="pr-platform" value={draft.platform} onChange={set('platform')}>
              <option value="">All networks</option>
              {PLATFORMS.map((p) => (
                <option key={p} value={p}>
                  {platformLabel(p)}
                </option>
              ))}
            </Select>
          </div>
          <div>
            <Label htmlFor="pr-sort">Rank by</Label>
            <Select id="pr-sort" value={draft.sort} onChange={(e) => setDraft((d) => ({ ...d, sort: e.target.value as Sort }))}>
              {(['engagement', ...POST_METRICS] as Sort[]).map((m) => (
                <option key={m} value={m}>
                  {LABELS[m]}
                </option>
              ))}
            </Select>
          </div>
          <div className="flex items-end gap-2">
            <Button type="submit">Show</Button>
            <Button
              type="button"
              variant="secondary"
              onClick={() => void exportCsv()}
              disabled={exporting}
              aria-label="Export the window’s posts and results as CSV"
            >
              <Download className="size-4" aria-hidden />
              CSV
            </Button>
          </div>
        </form>
      </Card>

      {top.isPending ? (
        <LoadingRows label="Loading post results" />
      ) : top.isError ? (
        <ErrorState message={serverError(top.error).message} onRetry={() => void top.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title="No published posts in this window">Posts published between these days appear here with their results.</EmptyState>
      ) : (
        <Card className="min-w-0">
          <h2 className="font-semibold text-slate-900">Top posts by {LABELS[applied.sort].toLowerCase()}</h2>
          <p className="mt-1 text-xs text-slate-600" data-testid="post-results-provenance">
            {prov ? `${prov.postsInWindow} published in the window, ${prov.withReading} with a reading · ${prov.label}` : null}
            {prov?.collectedAt ? ` · newest reading ${formatIn(prov.collectedAt, tz)}` : ''}
          </p>
          {/* On a phone, one card per post with its ranking figure first; the table from sm up. */}
          <ol className="mt-3 space-y-3 sm:hidden" aria-label="Top posts">
            {rows.map((r) => (
              <li key={r.targetId} className="flex gap-2 border-t border-slate-100 pt-3 text-sm">
                {r.mediaUrls[0] ? (
                  <MediaThumb
                    url={r.mediaUrls[0]}
                    label={`Media of the post on ${platformLabel(r.platform)}`}
                    className="size-12 shrink-0 rounded object-cover"
                  />
                ) : null}
                <div className="min-w-0">
                  <p className="line-clamp-2">
                    <span className="text-slate-600">{r.rank}. </span>
                    {r.content}
                  </p>
                  <p className="mt-0.5 text-xs text-slate-600">
                    {platformLabel(r.platform)} · {formatIn(r.publishedAt, tz)}
                  </p>
                  <p className="mt-1 text-xs">
                    {(['engagement', applied.sort === 'engagement' ? 'impressions' : applied.sort] as Sort[]).map((m) => {
                      const value = m === 'engagement' ? r.latest.engagement : r.latest.metrics[m];
                      return (
                        <span key={m} className="mr-3">
                          {LABELS[m]}: <span className="font-semibold tabular-nums">{value === null ? '—' : count.format(value)}</span>
                        </span>
                      );
                    })}
                    <a href={`/posts/${r.postId}`} className="underline">
                      post<span className="sr-only"> in Herald</span>
                    </a>
                  </p>
                </div>
              </li>
            ))}
          </ol>
          <div className="mt-3 hidden overflow-x-auto sm:block">
            <table className="w-full min-w-[56rem] text-sm" data-testid="post-results">
              <caption className="sr-only">Top posts of the window with their results; choose a column to rank by it</caption>
              <thead>
                <tr className="text-left text-slate-600">
                  <th scope="col" className="py-1 pr-2 font-medium">
                    #
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Post
                  </th>
                  {COLUMNS.map((m) => (
                    <th key={m} scope="col" className="py-1 pr-3 text-right font-medium" aria-sort={applied.sort === m ? 'descending' : 'none'}>
                      <button
                        type="button"
                        className={applied.sort === m ? 'font-semibold text-slate-900 underline' : 'underline-offset-2 hover:underline'}
                        onClick={() => show({ ...applied, sort: m })}
                      >
                        {LABELS[m]}
                      </button>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.targetId} className="border-t border-slate-100 align-top">
                    <td className="py-2 pr-2 text-slate-600">{r.rank}</td>
                    <td className="py-2 pr-3">
                      <div className="flex max-w-md gap-2">
                        {r.mediaUrls[0] ? (
                          <MediaThumb
                            url={r.mediaUrls[0]}
                            label={`Media of the post on ${platformLabel(r.platform)}`}
                            className="size-12 shrink-0 rounded object-cover"
                          />
                        ) : null}
                        <div className="min-w-0">
                          <p className="line-clamp-2">{r.content}</p>
                          <p className="mt-0.5 text-xs text-slate-600">
                            {platformLabel(r.platform)} · {r.accountName} · {formatIn(r.publishedAt, tz)}
                            {r.permalink ? (
                              <>
                                {' · '}
                                <a href={r.permalink} target="_blank" rel="noreferrer" className="underline">
                                  view<span className="sr-only"> on {platformLabel(r.platform)}</span>
                                </a>
                              </>
                            ) : null}
                            {' · '}
                            <a href={`/posts/${r.postId}`} className="underline">
                              post<span className="sr-only"> in Herald</span>
                            </a>
                          </p>
                        </div>
                      </div>
                    </td>
                    {COLUMNS.map((m) => {
                      const value = m === 'engagement' ? r.latest.engagement : r.latest.metrics[m];
                      const reason = m === 'engagement' ? 'The network reported none of the engagement metrics' : r.latest.nullReasons[m];
                      return (
                        <td key={m} className="py-2 pr-3 text-right tabular-nums">
                          {value === null ? (
                            <span title={reason ?? 'No reading'} className="text-slate-500">
                              —<span className="sr-only"> not reported{reason ? `: ${reason}` : ''}</span>
                            </span>
                          ) : (
                            count.format(value)
                          )}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      )}
      {top.data && top.data.networks.length > 0 ? <Networks networks={top.data.networks} /> : null}
    </div>
  );
}

type NetworkTotals = NonNullable<Awaited<ReturnType<typeof trpc.postMetrics.top.query>>>['networks'][number];

/** How the networks compare over the window: engagement as a bar against the best one, and the counters beside it. */
function Networks({ networks }: { networks: NetworkTotals[] }) {
  const best = Math.max(...networks.map((n) => n.engagement ?? 0), 1);
  return (
    <Card className="min-w-0">
      <h2 className="font-semibold text-slate-900">By network</h2>
      <p className="mt-1 text-xs text-slate-600">Totals of each account’s latest reading; “—” where the network reports no such number.</p>
      <ul className="mt-3 space-y-3" data-testid="post-results-networks">
        {networks.map((n) => (
          <li key={n.platform} className="text-sm">
            <div className="flex flex-wrap items-baseline justify-between gap-x-3">
              <span className="font-medium">{platformLabel(n.platform)}</span>
              <span className="text-xs text-slate-600">
                {n.posts} published · {n.withReading} with a reading
              </span>
            </div>
            <div className="mt-1 h-2 w-full rounded bg-slate-100" aria-hidden>
              <div className="h-2 rounded bg-blue-700" style={{ width: `${Math.round(((n.engagement ?? 0) / best) * 100)}%` }} />
            </div>
            <p className="mt-1 flex flex-wrap gap-x-3 text-xs text-slate-700">
              {(['engagement', 'impressions', 'reach', 'views', 'comments', 'shares', 'saves'] as Sort[]).map((m) => (
                <span key={m}>
                  {LABELS[m]}: <span className="font-semibold tabular-nums">{n[m] === null ? '—' : count.format(n[m]!)}</span>
                </span>
              ))}
            </p>
          </li>
        ))}
      </ul>
    </Card>
  );
}
