// The workspace time zone: an IANA name the runtime knows (Intl), "UTC" by default; day and week starts in it.
import { TZDate } from '@date-fns/tz';
import { addDays, format, startOfDay, startOfWeek } from 'date-fns';
import { isTimeZone } from './analytics-window';
import { ZText } from './schemas';

export const ZTimeZone = ZText.min(1).max(64).refine(isTimeZone, 'not a time zone (use an IANA name such as Europe/Paris)');

/** Midnight at the start of `at`'s day in `tz` (plus `days` days), as an instant. */
export function dayStart(at: Date, tz: string, days = 0): Date {
  return new Date(addDays(startOfDay(new TZDate(at, tz)), days).getTime());
}

/** Monday 00:00 of `at`'s week in `tz`. */
export function weekStart(at: Date, tz: string): Date {
  return new Date(startOfWeek(new TZDate(at, tz), { weekStartsOn: 1 }).getTime());
}

/**
 * The zone's short name at that instant, as people read it beside a time: "UTC", "GMT+5:30",
 * "CET", "EST" (Intl's short names in English; daylight saving follows the instant).
 */
export function zoneLabel(at: Date, tz: string): string {
  const part = new Intl.DateTimeFormat('en-GB', { timeZone: tz, timeZoneName: 'short' }).formatToParts(at).find((p) => p.type === 'timeZoneName');
  return part?.value ?? tz;
}

/** The default way Herald writes a moment: "Wed 25 Nov 2026, 13:30". */
export const WHEN_PATTERN = 'EEE d MMM yyyy, HH:mm';

/**
 * A moment as a person reads it in `tz`: the pattern, and when it shows a time of day, the
 * zone it is in ("Wed 25 Nov 2026, 13:30 GMT+5:30"). Every screen and page writes times
 * through this, so two people never read one moment in different zones without seeing it.
 */
export function formatInZone(at: string | Date, tz: string, pattern: string = WHEN_PATTERN, opts: { zone?: boolean } = {}): string {
  const instant = new Date(at);
  const text = format(new TZDate(instant.getTime(), tz), pattern);
  const showsTime = /[Hh]/.test(pattern.replace(/'[^']*'/g, ''));
  return showsTime && opts.zone !== false ? `${text} ${zoneLabel(instant, tz)}` : text;
}
