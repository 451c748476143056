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

/** Minutes as a reader says them: "45 min", "3 h 20 min", "2 d 4 h". */
export function formatMinutes(minutes: number): string {
  const m = Math.round(minutes);
  if (m < 60) return `${m} min`;
  if (m < 24 * 60) return m % 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m / 60} h`;
  const h = Math.round(m / 60);
  return h % 24 ? `${Math.floor(h / 24)} d ${h % 24} h` : `${h / 24} d`;
}

/** The response-times figure in one sentence, the same on the page and in the PDF. */
export function responseTimesText(rt: {
  answered: number;
  unanswered: number;
  medianMinutes: number | null;
  withinTarget: number | null;
  targetMinutes: number;
}): string {
  if (rt.answered + rt.unanswered === 0) return 'No comments, messages or reviews were written to the accounts in this period.';
  const median = rt.medianMinutes === null ? 'none answered yet' : `median time to first reply ${formatMinutes(rt.medianMinutes)}`;
  const within = rt.withinTarget === null ? '' : `; ${Math.round(rt.withinTarget * 100)}% answered within ${formatMinutes(rt.targetMinutes)}`;
  return `${rt.answered} of ${rt.answered + rt.unanswered} comments, messages and reviews answered: ${median}${within}.`;
}

/** How engagement is counted, in the report's footer. */
export const ENGAGEMENT_NOTE = `Engagement is ${ENGAGEMENT_FORMULA}.`;
