// The workspace time zone: an IANA name the runtime knows (Intl), "UTC" by default; day and week starts in it.
import { TZDate } from '@date-fns/tz';
import { addDays, format, startOfDay, startOfWeek } from 'date-fns';
import { isTimeZone } from './analytics-window';
import { ZText } from './schemas';

/**
 * An IANA zone name the runtime knows. The pattern is documentation (what a zone name looks
 * like); the refinement is the rule, so `Mars/Olympus`, which fits the pattern, is refused.
 */
export const ZTimeZone = ZText.min(1).max(64).refine(isTimeZone, 'not a time zone (use an IANA name such as Europe/Paris)').meta({
  pattern: '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$',
  description: 'An IANA time zone name, such as Europe/Berlin or UTC; a name the server does not know (Mars/Olympus) is refused with 400',
  example: 'Europe/Berlin',
});

/**
 * ICU still answers a few zones by names IANA has since replaced (Asia/Calcutta for
 * Asia/Kolkata, Europe/Kiev for Europe/Kyiv …): people look for the current ones.
 */
const CURRENT_NAMES: Record<string, string> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Rangoon': 'Asia/Yangon',
  'Europe/Kiev': 'Europe/Kyiv',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'America/Godthab': 'America/Nuuk',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
  'Pacific/Enderbury': 'Pacific/Kanton',
};

/** The zone's one spelling: the runtime's canonical name, in its current IANA form ("asia/calcutta" → "Asia/Kolkata"). */
export function canonicalTimeZone(tz: string): string {
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  return CURRENT_NAMES[resolved] ?? resolved;
}

/** Every zone the runtime knows, by current names, sorted ("UTC" included). */
export function timeZoneNames(): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', ...known.map((z) => CURRENT_NAMES[z] ?? z)])].sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)));
}

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
