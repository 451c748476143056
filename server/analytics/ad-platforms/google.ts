// Google Ads API: customer metrics by day through GoogleAdsService.SearchStream.
// POST /customers/<customer id>/googleAds:searchStream  { query: "SELECT segments.date, … FROM customer WHERE segments.date BETWEEN …" }
// Headers: Authorization, developer-token, login-customer-id (through a manager account).
// https://developers.google.com/google-ads/api/rest/reference/rest/v22/customers.googleAds/searchStream
// The answer is a JSON array of batches with `results`. Proto3 JSON leaves out fields whose
// value is 0, so inside a returned row a missing metric is a zero reading; a day without a
// row has no reading. Cost is in micros; Google Ads has no reach at customer level (null).
import { env } from '@/server/config/env';
import { baseUrlFromEnv, callApi, defaultFetch, isSuccess } from '@/server/platforms/http';
import { AdSourceError, numberOrNull, requireToken, type AdInsightsSource, type AdSourceOptions, type DailyReading } from './port';

export const GOOGLE_ADS_DEFAULT_BASE_URL = 'https://googleads.googleapis.com/v22';

interface SearchRow {
  segments?: { date?: string };
  metrics?: { impressions?: string; clicks?: string; costMicros?: string; conversions?: number };
  customer?: { currencyCode?: string };
}

export function googleErrorText(json: unknown, status: number): string {
  const first = Array.isArray(json) ? json[0] : json;
  const error = (first as { error?: { code?: number; status?: string; message?: string } } | null)?.error;
  if (error?.message) return `Google Ads API error ${error.code ?? status} ${error.status ?? ''}: ${error.message}`.replace(/\s+:/, ':');
  return `Google Ads API answered HTTP ${status}`;
}

/** Micros (an integer string) to an exact decimal string. */
export function microsToDecimal(micros: string): string {
  const negative = micros.startsWith('-');
  const digits = (negative ? micros.slice(1) : micros).padStart(7, '0');
  const whole = digits.slice(0, -6).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(-6).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export function googleAdsSource(options: AdSourceOptions & { developerToken?: string } = {}): AdInsightsSource {
  return {
    id: 'google',
    async fetchDaily(account, from, to) {
      const fetch = options.fetch ?? defaultFetch();
      const base = options.baseUrl ?? baseUrlFromEnv('GOOGLE_ADS_API_BASE_URL', GOOGLE_ADS_DEFAULT_BASE_URL);
      const token = requireToken(account, 'Google Ads');
      const developerToken = options.developerToken ?? env.googleAdsDeveloperToken();
      if (!developerToken) throw new AdSourceError('GOOGLE_ADS_DEVELOPER_TOKEN is not configured on this deployment');
      const customerId = account.externalId.replace(/-/g, '');
      const query =
        'SELECT segments.date, customer.currency_code, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions ' +
        `FROM customer WHERE segments.date BETWEEN '${from}' AND '${to}' ORDER BY segments.date`;
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'developer-token': developerToken };
      if (account.loginCustomerId) headers['login-customer-id'] = account.loginCustomerId.replace(/-/g, '');
      const res = await callApi(fetch, `${base}/customers/${customerId}/googleAds:searchStream`, { json: { query }, headers });
      if (!isSuccess(res)) throw new AdSourceError(googleErrorText(res.json, res.status));
      if (!Array.isArray(res.json)) throw new AdSourceError(googleErrorText(res.json, res.status));
      const readings: DailyReading[] = [];
      for (const batch of res.json as { results?: SearchRow[] }[]) {
        for (const row of batch.results ?? []) {
          const day = row.segments?.date;
          if (!day) continue;
          const m = row.metrics ?? {};
          readings.push({
            day,
            impressions: numberOrNull(m.impressions ?? '0'),
            reach: null,
            clicks: numberOrNull(m.clicks ?? '0'),
            spend: microsToDecimal(m.costMicros ?? '0'),
            conversions: numberOrNull(m.conversions ?? 0),
            currency: row.customer?.currencyCode ?? account.currency,
          });
        }
      }
      return readings;
    },
  };
}
