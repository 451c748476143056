// The client report's numbers and notes as its reader sees them, the same on the page and in
// the PDF: a client reads these, so they say what a number means, never how it is stored.
import { ENGAGEMENT_FORMULA } from '@/server/analytics/post-metrics/engagement';

/** A number as the report prints it: thousands separated; no number is "n/a", never 0. */
export function formatCount(value: number | null): string {
  return value === null ? 'n/a' : new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(value);
}

/** What the headline totals stand on, after the coverage ("3 of 4 posts had a reading"). */
export const TOTALS_NOTE = 'Totals add up the newest numbers of each account.';

/** What "n/a" means wherever the report prints it. */
export const NOT_AVAILABLE_NOTE = 'n/a: the network does not report this number, or has not reported it yet.';

/** How engagement is counted, in the report's footer. */
export const ENGAGEMENT_NOTE = `Engagement is ${ENGAGEMENT_FORMULA}.`;
