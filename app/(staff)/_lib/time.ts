// Times in the workspace's time zone (date-fns with @date-fns/tz). A time of day always
// carries its zone (server/shared/time-zone.ts, the one rule for every screen and page).
import { TZDate } from '@date-fns/tz';
import { formatDistanceToNowStrict } from 'date-fns';
import { formatInZone, WHEN_PATTERN } from '@/server/shared/time-zone';
export { browserTimeZone } from '@/app/_ui/browser-time-zone';

/** `iso` in `tz`; with a time of day, the zone follows it unless `zone: false` (a grid already labelled with it). */
export function formatIn(iso: string | Date, tz: string, pattern = WHEN_PATTERN, opts: { zone?: boolean } = {}): string {
  return formatInZone(iso, tz, pattern, opts);
}

/** `yyyy-MM-ddTHH:mm` for a datetime-local input showing `iso` in `tz`. */
export function toLocalInput(iso: string | Date, tz: string): string {
  return formatIn(iso, tz, "yyyy-MM-dd'T'HH:mm", { zone: false });
}

/** The instant a datetime-local value means in `tz`, as an ISO string (null when empty or malformed). */
export function fromLocalInput(value: string, tz: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  return new Date(new TZDate(y, mo - 1, d, h, mi, tz).getTime()).toISOString();
}

export function ago(iso: string): string {
  return formatDistanceToNowStrict(new Date(iso), { addSuffix: true });
}
