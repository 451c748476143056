// The workspace time zone: an IANA name the runtime knows (Intl), "UTC" by default; day and week starts in it.
import { TZDate } from '@date-fns/tz';
import { addDays, startOfDay, startOfWeek } from 'date-fns';
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
