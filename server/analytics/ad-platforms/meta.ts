// Meta Marketing API: ad account insights, one row per day.
// GET /act_<AD_ACCOUNT_ID>/insights?level=account&time_increment=1&time_range={"since","until"}
//   &fields=impressions,reach,clicks,spend,conversions,account_currency,date_start,date_stop
// https://developers.facebook.com/docs/marketing-api/insights
// Numbers arrive as strings; a day without delivery is left out of `data` (no reading); pages
// follow `paging.cursors.after` against the configured base.
import { baseUrlFromEnv, callApi, defaultFetch, isSuccess, withQuery } from '@/server/platforms/http';
import { AdSourceError, decimalOrNull, numberOrNull, requireToken, type AdInsightsSource, type AdSourceOptions, type DailyReading } from './port';

export const META_MARKETING_DEFAULT_BASE_URL = 'https://graph.facebook.com/v25.0';
const FIELDS = 'impressions,reach,clicks,spend,conversions,account_currency,date_start,date_stop';
const MAX_PAGES = 50;

interface InsightsRow {
  impressions?: string;
  reach?: string;
  clicks?: string;
  spend?: string;
  conversions?: { action_type: string; value: string }[];
  account_currency?: string;
  date_start?: string;
}

export function metaErrorText(json: unknown, status: number): string {
  const error = (json as { error?: { message?: string; code?: number; error_subcode?: number; fbtrace_id?: string } } | null)?.error;
  if (error?.message) return `Meta API error ${error.code ?? status}${error.error_subcode ? `/${error.error_subcode}` : ''}: ${error.message}`;
  return `Meta API answered HTTP ${status}`;
}

export function metaInsightsSource(options: AdSourceOptions = {}): AdInsightsSource {
  return {
    id: 'meta',
    async fetchDaily(account, from, to) {
      const fetch = options.fetch ?? defaultFetch();
      const base = options.baseUrl ?? baseUrlFromEnv('META_MARKETING_API_BASE_URL', META_MARKETING_DEFAULT_BASE_URL);
      const token = requireToken(account, 'Meta');
      const id = account.externalId.replace(/^act_/, '');
      const readings: DailyReading[] = [];
      let after: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const url = withQuery(`${base}/act_${id}/insights`, {
          level: 'account',
          time_increment: 1,
          time_range: JSON.stringify({ since: from, until: to }),
          fields: FIELDS,
          limit: 100,
          after,
          access_token: token,
        });
        const res = await callApi(fetch, url);
        if (!isSuccess(res)) throw new AdSourceError(metaErrorText(res.json, res.status));
        const body = res.json as { data?: InsightsRow[]; paging?: { cursors?: { after?: string }; next?: string } } | null;
        if (!body || !Array.isArray(body.data)) throw new AdSourceError('Meta API answered without a data list');
        for (const row of body.data) {
          if (!row.date_start) continue;
          readings.push({
            day: row.date_start,
            impressions: numberOrNull(row.impressions),
            reach: numberOrNull(row.reach),
            clicks: numberOrNull(row.clicks),
            spend: decimalOrNull(row.spend),
            conversions: Array.isArray(row.conversions) ? row.conversions.reduce((sum, c) => sum + (numberOrNull(c.value) ?? 0), 0) : null,
            currency: row.account_currency ?? account.currency,
          });
        }
        after = body.paging?.next ? body.paging.cursors?.after : undefined;
        if (!after) break;
      }
      return readings;
    },
  };
}
