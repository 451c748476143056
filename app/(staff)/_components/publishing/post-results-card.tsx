'use client';
// A published post's results per account: the latest reading of each metric the network
// reports ("—" with the reason where it does not: never 0), engagement, and a small chart of
// the readings so far (its first hours and days), plus "Collect now" for a fresh reading.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { toast } from 'sonner';
import { Button } from '@/app/_ui/button';
import { Card, ErrorState, LoadingRows } from '@/app/_ui/primitives';
import { POST_METRIC_LABELS, POST_METRICS } from '@/server/platforms/insights';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { platformLabel } from './post-bits';

const LABELS = POST_METRIC_LABELS;
const count = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

export function PostResultsCard({ postId, tz, canCollect }: { postId: string; tz: string; canCollect: boolean }) {
  const queryClient = useQueryClient();
  const q = useQuery({ queryKey: ['postMetrics.get', postId], queryFn: () => trpc.postMetrics.get.query({ id: postId }) });
  const collect = useMutation({
    mutationFn: () => trpc.postMetrics.collect.mutate({ id: postId }),
    onSuccess: (r) => {
      toast.success(
        r.data.queued.length
          ? `Reading ${r.data.queued.length} account${r.data.queued.length === 1 ? '' : 's'} now; results update in a moment`
          : 'Nothing to read yet',
      );
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: ['postMetrics.get', postId] }), 3000);
    },
    onError: (e) => toast.error(serverError(e).message),
  });
  if (q.isPending) return <LoadingRows label="Loading results" />;
  if (q.isError) return <ErrorState message={serverError(q.error).message} onRetry={() => void q.refetch()} />;
  const targets = q.data.data.targets.filter((t) => t.status === 'published');
  if (targets.length === 0) return null;

  return (
    <section aria-labelledby="results-heading" className="mt-6">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id="results-heading" className="text-lg font-semibold">
          Results
        </h2>
        {canCollect ? (
          <Button size="sm" variant="secondary" onClick={() => collect.mutate()} disabled={collect.isPending}>
            Collect now
          </Button>
        ) : null}
      </div>
      <p className="mb-2 text-xs text-slate-600">
        {q.data.provenance.label}
        {q.data.provenance.collectedAt ? ` · newest reading ${formatIn(q.data.provenance.collectedAt, tz)}` : ' · no reading yet'} · engagement ={' '}
        {q.data.provenance.engagementFormula}
      </p>
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
        {targets.map((t) => {
          const points = t.history.map((r) => ({ at: r.collectedAt, engagement: r.engagement }));
          return (
            <Card key={t.targetId} className="min-w-0 space-y-2 text-sm" data-testid="post-result">
              <h3 className="font-medium">
                {platformLabel(t.platform)} · {t.accountName}
              </h3>
              {t.latest ? (
                <>
                  <dl className="grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-3">
                    <div>
                      <dt className="text-xs text-slate-600">Engagement</dt>
                      <dd className="font-semibold tabular-nums">{t.latest.engagement === null ? '—' : count.format(t.latest.engagement)}</dd>
                    </div>
                    {POST_METRICS.map((m) => {
                      const value = t.latest!.metrics[m];
                      const reason = t.latest!.nullReasons[m];
                      return (
                        <div key={m}>
                          <dt className="text-xs text-slate-600">{LABELS[m]}</dt>
                          <dd className="tabular-nums" title={value === null ? (reason ?? 'No reading') : undefined}>
                            {value === null ? (
                              <span className="text-slate-500">
                                —<span className="sr-only"> not reported{reason ? `: ${reason}` : ''}</span>
                              </span>
                            ) : (
                              count.format(value)
                            )}
                          </dd>
                        </div>
                      );
                    })}
                  </dl>
                  {points.length > 1 ? (
                    <figure className="min-w-0">
                      <div className="h-32 w-full min-w-0">
                        <ResponsiveContainer width="100%" height="100%">
                          <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: 0 }} accessibilityLayer>
                            <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" />
                            <XAxis
                              dataKey="at"
                              tick={{ fontSize: 10, fill: '#475569' }}
                              tickFormatter={(d: string) => formatIn(d, tz, 'd MMM', { zone: false })}
                              minTickGap={12}
                            />
                            <YAxis tick={{ fontSize: 10, fill: '#475569' }} width={40} />
                            <Tooltip
                              labelFormatter={(d) => formatIn(String(d), tz)}
                              formatter={(v) => (typeof v === 'number' ? count.format(v) : 'not reported')}
                            />
                            <Line
                              type="linear"
                              dataKey="engagement"
                              name="Engagement"
                              stroke="#1d4ed8"
                              strokeWidth={2}
                              dot={{ r: 2 }}
                              connectNulls={false}
                              isAnimationActive={false}
                            />
                          </LineChart>
                        </ResponsiveContainer>
                      </div>
                      <figcaption className="text-xs text-slate-600">Engagement at each of {points.length} readings since publishing.</figcaption>
                    </figure>
                  ) : (
                    <p className="text-xs text-slate-600">One reading so far; the chart fills in as more arrive (1 h, 24 h, 7 and 28 days after publishing).</p>
                  )}
                </>
              ) : (
                <p className="text-slate-600">No reading yet: the first comes an hour after publishing.</p>
              )}
            </Card>
          );
        })}
      </div>
    </section>
  );
}
