// Where a number came from and when: shown under every analytics and crawl figure, because a
// figure without its source (demo data, a platform, defaults) cannot be judged.
import type { Provenance as ProvenanceDto } from '@/server/analytics/analytics.schemas';
import { cn } from '@/app/_ui/cn';
import { formatIn } from '../../_lib/time';

export function Provenance({ p, tz, className }: { p: ProvenanceDto; tz: string; className?: string }) {
  return (
    <p className={cn('text-xs text-slate-600', className)} data-testid="provenance">
      Source: {p.label} · {p.collectedAt ? `collected ${formatIn(p.collectedAt, tz)}` : 'nothing collected yet'}
    </p>
  );
}
