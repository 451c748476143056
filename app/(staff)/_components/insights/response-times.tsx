'use client';
// How quickly the team answered comments, direct messages and reviews over the last 30 days
// (GET /inbox/response-times): the median time to first reply and the share within the
// workspace's target (Settings), in all and kind by kind.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Card, ErrorState, LoadingRows } from '@/app/_ui/primitives';
import { formatMinutes } from '@/server/client-report/report-words';
import { serverError, trpc } from '../../_lib/trpc';

export function ResponseTimesCard() {
  const q = useQuery({ queryKey: ['inbox.responseTimes'], queryFn: async () => (await trpc.inbox.responseTimes.query()).data });
  if (q.isPending) return <LoadingRows rows={1} label="Loading response times" />;
  if (q.isError) return <ErrorState message={serverError(q.error).message} onRetry={() => void q.refetch()} />;
  const rt = q.data;
  const figures: [string, string][] = [
    ['Median time to first reply', rt.medianMinutes === null ? 'n/a' : formatMinutes(rt.medianMinutes)],
    [`Answered within ${formatMinutes(rt.targetMinutes)}`, rt.withinTarget === null ? 'n/a' : `${Math.round(rt.withinTarget * 100)}%`],
    ['Items answered', `${rt.answered} of ${rt.answered + rt.unanswered}`],
  ];
  const kinds = (
    [
      ['Comments', rt.byKind.comment],
      ['Messages', rt.byKind.message],
      ['Reviews', rt.byKind.review],
    ] as const
  ).filter(([, k]) => k.answered + k.unanswered > 0);
  return (
    <Card className="mb-4" data-testid="response-times">
      <h2 className="text-lg font-semibold">Response times</h2>
      <p className="text-sm text-slate-600">
        Comments, messages and reviews written {rt.from} to {rt.to}, from when each was written to the account’s first reply. The target is set in{' '}
        <Link className="underline" href="/settings">
          Settings
        </Link>
        .
      </p>
      <dl className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-3">
        {figures.map(([label, value]) => (
          <div key={label} className="rounded-md border border-slate-200 p-3">
            <dt className="text-xs text-slate-600">{label}</dt>
            <dd className="text-xl font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
      {kinds.length ? (
        <table className="mt-3 w-full text-sm" aria-label="Response times by kind">
          <thead>
            <tr className="text-left text-xs text-slate-600">
              <th className="py-1 font-medium">Kind</th>
              <th className="py-1 font-medium">Median</th>
              <th className="py-1 font-medium">Within target</th>
              <th className="py-1 font-medium">Answered</th>
            </tr>
          </thead>
          <tbody>
            {kinds.map(([label, k]) => (
              <tr key={label} className="border-t border-slate-100">
                <td className="py-1">{label}</td>
                <td className="py-1">{k.medianMinutes === null ? 'n/a' : formatMinutes(k.medianMinutes)}</td>
                <td className="py-1">{k.withinTarget === null ? 'n/a' : `${Math.round(k.withinTarget * 100)}%`}</td>
                <td className="py-1">
                  {k.answered} of {k.answered + k.unanswered}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Card>
  );
}
