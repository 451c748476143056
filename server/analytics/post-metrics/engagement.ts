// Engagement, defined once (docs/analytics.md): the interactions a network reported for a post,
// reactions + comments + shares + saves. A part the network does not report is left out of the
// sum; when none of the four has a value, engagement is null (never 0 in place of unknown).
// Every reading stores it, and PostTarget.engagement keeps the newest non-null one for best times.
import type { PostMetricName } from '@/server/platforms/insights';

export const ENGAGEMENT_PARTS = ['reactions', 'comments', 'shares', 'saves'] as const satisfies readonly PostMetricName[];
// In words a client reads too (the report's footer): what is null when none is reported is
// the value's own rule (the schemas say so), not the formula's.
export const ENGAGEMENT_FORMULA = 'reactions + comments + shares + saves (those the network reports)';

export function engagementOf(values: Partial<Record<PostMetricName, number | null>>): number | null {
  let sum: number | null = null;
  for (const part of ENGAGEMENT_PARTS) {
    const v = values[part];
    if (typeof v === 'number' && Number.isFinite(v)) sum = (sum ?? 0) + v;
  }
  return sum;
}
