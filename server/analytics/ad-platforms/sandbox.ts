// The sandbox ad source: deterministic demo data for the embedded default and tests. The same
// account and day always give the same numbers; about one day in nine has no reading at all,
// and about one in seven has no conversions reading, so the null rules are visible in demos.
import { createHash } from 'node:crypto';
import type { AdInsightsSource, DailyReading } from './port';
import { addDays } from '@/server/shared/analytics-window';

/** A number in [0, 1) derived from the account, the day and a salt. */
function unit(account: string, day: string, salt: string): number {
  return createHash('sha256').update(`${account}|${day}|${salt}`).digest().readUInt32BE(0) / 2 ** 32;
}

/** No reading at all for this account and day (a source outage, a paused account). */
export function sandboxHasNoReading(account: string, day: string): boolean {
  return unit(account, day, 'gap') < 1 / 9;
}

export function sandboxReading(account: string, day: string, currency: string): DailyReading | null {
  if (sandboxHasNoReading(account, day)) return null;
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  const weekly = weekday === 0 || weekday === 6 ? 0.7 : 1;
  const impressions = Math.round((4_000 + unit(account, day, 'imp') * 6_000) * weekly);
  const reach = Math.round(impressions * (0.55 + unit(account, day, 'reach') * 0.25));
  const clicks = Math.round(impressions * (0.008 + unit(account, day, 'ctr') * 0.02));
  const spend = (impressions * (0.004 + unit(account, day, 'cpm') * 0.006)).toFixed(2);
  const conversions = unit(account, day, 'conv-gap') < 1 / 7 ? null : Math.round(clicks * unit(account, day, 'cvr') * 0.08);
  return { day, impressions, reach, clicks, spend, conversions, currency };
}

export const sandboxAdSource: AdInsightsSource = {
  id: 'sandbox',
  fetchDaily(account, from, to) {
    const out: DailyReading[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) {
      const reading = sandboxReading(account.externalId, day, account.currency);
      if (reading) out.push(reading);
    }
    return Promise.resolve(out);
  },
};
