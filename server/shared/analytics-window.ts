// Calendar dates of the analytics and crawl query parameters: `YYYY-MM-DD`, read as days of
// the workspace's time zone, windows inclusive at both ends. Primitives only (no Herald
// imports): the analytics, crawl and best-times domains share them.
import { z } from 'zod';

/** The longest window a query may span, both ends included (a leap year). */
export const MAX_WINDOW_DAYS = 366;
/** Bounds of `limit` on every analytics and crawl list. */
export const LIMIT_MIN = 1;
export const LIMIT_MAX = 100;

/** Earliest and latest dates accepted (PostgreSQL has no year 0; nothing Herald reads is older). */
export const FIRST_DAY = '1970-01-01';
export const LAST_DAY = '2999-12-31';

export const ZDay = z.iso
  .date()
  .refine((d) => d >= FIRST_DAY && d <= LAST_DAY, { message: `must be between ${FIRST_DAY} and ${LAST_DAY}` })
  .describe('A calendar date, YYYY-MM-DD, in the workspace’s time zone');
export const ZLimit = z.number().int().min(LIMIT_MIN).max(LIMIT_MAX).describe(`How many rows to return, ${LIMIT_MIN} to ${LIMIT_MAX}`);

const DAY_MS = 86_400_000;

/** Days from `from` to `to`, both included (1 for the same day). */
export function daysBetweenInclusive(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** `day` moved by `n` days (negative moves back). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Today's date in `timeZone` (an IANA name). */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return dayIn(timeZone, now);
}

/** The calendar date of `instant` in `timeZone`. */
export function dayIn(timeZone: string, instant: Date): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

/** True for a time zone name the runtime knows. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The window rule as a zod check on an object with `from` and `to`: `from` not after `to`,
 * at most MAX_WINDOW_DAYS days. The failure names `to`.
 */
export function checkWindow(value: { from?: string; to?: string }, ctx: z.core.$RefinementCtx): void {
  const { from, to } = value;
  if (from === undefined || to === undefined) return;
  if (from > to) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: `must not be before from (${from})` });
    return;
  }
  const span = daysBetweenInclusive(from, to);
  if (span > MAX_WINDOW_DAYS) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: `the window spans ${span} days; at most ${MAX_WINDOW_DAYS} are allowed` });
  }
}
