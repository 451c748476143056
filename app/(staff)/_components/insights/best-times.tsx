'use client';
// Suggested times to post (bestTimes.get), each with the number of past deliveries behind it,
// so a suggestion from three posts is not mistaken for one from three hundred. Used on the
// analytics screen and, as clickable suggestions, in the composer's schedule picker.
import { useQuery } from '@tanstack/react-query';
import { Badge, ErrorState, Skeleton } from '@/app/_ui/primitives';
import { cn } from '@/app/_ui/cn';
import type { BestTimePlatform } from '@/server/best-times/best-times.schemas';
import { formatIn } from '../../_lib/time';
import { serverError, trpc } from '../../_lib/trpc';
import { Provenance } from './provenance';

const METHOD_WORDS = {
  engagement: 'ranked by the engagement of your own posts',
  publish_outcomes: 'ranked by how often your posts published',
  platform_defaults: 'too little history: general platform patterns, not your data',
} as const;

export function useBestTimes(platform?: BestTimePlatform) {
  return useQuery({
    queryKey: ['bestTimes.get', platform ?? null],
    queryFn: () => trpc.bestTimes.get.query(platform ? { platform } : {}),
    staleTime: 5 * 60_000,
  });
}

type Slot = NonNullable<ReturnType<typeof useBestTimes>['data']>['data']['slots'][number];

const sample = (n: number) => `${n} past deliver${n === 1 ? 'y' : 'ies'}`;

/** The slots as buttons when `onPick` is given (composer), as a list otherwise (analytics). */
export function BestTimes({ platform, tz, onPick, compact }: { platform?: BestTimePlatform; tz: string; onPick?: (slot: Slot) => void; compact?: boolean }) {
  const q = useBestTimes(platform);
  if (q.isPending) return <Skeleton className="h-16 w-full" />;
  if (q.isError) return <ErrorState title="Best times unavailable" message={serverError(q.error).message} onRetry={() => void q.refetch()} />;
  const { data, provenance } = q.data;
  return (
    <div className="space-y-2" data-testid="best-times">
      <p className="text-xs text-slate-600">
        {METHOD_WORDS[data.inputs.method]} · {sample(data.inputs.sampleSize)} in the last {data.inputs.window.days} days
      </p>
      {data.slots.length === 0 ? (
        <p className="text-sm text-slate-600">No suggestion yet.</p>
      ) : (
        <ul className={cn('flex flex-wrap gap-2', !compact && 'sm:grid sm:grid-cols-2')} aria-label="Suggested times">
          {data.slots.map((s) => {
            const text = formatIn(s.startsAt, tz, 'EEE d MMM, HH:mm');
            const detail = data.insufficientHistory ? 'platform default' : sample(s.sampleSize);
            return (
              <li key={s.rank}>
                {onPick ? (
                  <button
                    type="button"
                    onClick={() => onPick(s)}
                    className="rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-left text-sm hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
                    data-testid="best-time-suggestion"
                  >
                    <span className="block font-medium">{text}</span>
                    <span className="block text-xs text-slate-600">{detail}</span>
                  </button>
                ) : (
                  <div className="flex items-center gap-2 rounded-md border border-slate-200 px-2.5 py-1.5 text-sm" data-testid="best-time-slot">
                    <Badge tone="info">#{s.rank}</Badge>
                    <span className="font-medium capitalize">
                      {s.dayOfWeek} {String(s.hour).padStart(2, '0')}:00
                    </span>
                    <span className="text-xs text-slate-600">{detail}</span>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {compact ? null : <Provenance p={provenance} tz={tz} />}
    </div>
  );
}
