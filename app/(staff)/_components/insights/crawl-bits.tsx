'use client';
// The crawler's outcome shown verbatim (an unknown code is treated as a failure, as the
// contract asks).
import { Badge } from '@/app/_ui/primitives';

export function Outcome({ outcome, detail }: { outcome: string; detail: string | null }) {
  return (
    <span className="inline-flex min-w-0 flex-wrap items-center gap-1.5">
      <Badge tone={outcome === 'ok' ? 'good' : 'bad'} className="font-mono">
        {outcome}
      </Badge>
      {detail ? <span className="text-sm break-all text-slate-700">{detail}</span> : null}
    </span>
  );
}
