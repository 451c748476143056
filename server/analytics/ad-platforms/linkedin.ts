// LinkedIn Marketing API: ad analytics of one sponsored account, daily.
// GET /rest/adAnalytics?q=analytics&pivot=ACCOUNT&timeGranularity=DAILY
//   &dateRange=(start:(year:Y,month:M,day:D),end:(year:Y,month:M,day:D))
//   &accounts=List(urn%3Ali%3AsponsoredAccount%3A<id>)&fields=…
// Headers Linkedin-Version and X-Restli-Protocol-Version: 2.0.0.
// https://learn.microsoft.com/en-us/linkedin/marketing/integrations/ads-reporting/ads-reporting
// A day without activity has no element (no reading); `approximateMemberReach` is only
// reported for some granularities, so a missing value stays null.
import { env } from '@/server/config/env';
import { baseUrlFromEnv, callApi, defaultFetch, isSuccess } from '@/server/platforms/http';
import { LINKEDIN_DEFAULT_BASE_URL, LINKEDIN_DEFAULT_VERSION } from '@/server/platforms/linkedin/linkedin-api';
import { AdSourceError, decimalOrNull, numberOrNull, requireToken, type AdInsightsSource, type AdSourceOptions, type DailyReading } from './port';

const FIELDS = 'dateRange,impressions,clicks,costInLocalCurrency,externalWebsiteConversions,approximateMemberReach';

interface LinkedInDate {
  year: number;
  month: number;
  day: number;
}
interface AnalyticsElement {
  dateRange?: { start?: LinkedInDate };
  impressions?: number;
  clicks?: number;
  costInLocalCurrency?: string;
  externalWebsiteConversions?: number;
  approximateMemberReach?: number;
}

const restliDate = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return `(year:${y},month:${m},day:${d})`;
};
const pad = (n: number) => String(n).padStart(2, '0');

export function linkedinErrorText(json: unknown, status: number): string {
  const body = json as { message?: string; serviceErrorCode?: number; code?: string } | null;
  if (body?.message) return `LinkedIn API error ${body.code ?? status}${body.serviceErrorCode ? ` (${body.serviceErrorCode})` : ''}: ${body.message}`;
  return `LinkedIn API answered HTTP ${status}`;
}

export function linkedinAdsSource(options: AdSourceOptions = {}): AdInsightsSource {
  return {
    id: 'linkedin',
    async fetchDaily(account, from, to) {
      const fetch = options.fetch ?? defaultFetch();
      const base = options.baseUrl ?? baseUrlFromEnv('LINKEDIN_API_BASE_URL', LINKEDIN_DEFAULT_BASE_URL);
      const token = requireToken(account, 'LinkedIn');
      const urn = encodeURIComponent(`urn:li:sponsoredAccount:${account.externalId}`);
      // Rest.li values are written raw: only the URN inside List(...) is percent-encoded.
      const url =
        `${base}/rest/adAnalytics?q=analytics&pivot=ACCOUNT&timeGranularity=DAILY` +
        `&dateRange=(start:${restliDate(from)},end:${restliDate(to)})&accounts=List(${urn})&fields=${FIELDS}`;
      const res = await callApi(fetch, url, {
        headers: {
          authorization: `Bearer ${token}`,
          'linkedin-version': env.linkedinApiVersion() ?? LINKEDIN_DEFAULT_VERSION,
          'x-restli-protocol-version': '2.0.0',
        },
      });
      if (!isSuccess(res)) throw new AdSourceError(linkedinErrorText(res.json, res.status));
      const body = res.json as { elements?: AnalyticsElement[] } | null;
      if (!body || !Array.isArray(body.elements)) throw new AdSourceError('LinkedIn API answered without an elements list');
      const readings: DailyReading[] = [];
      for (const e of body.elements) {
        const start = e.dateRange?.start;
        if (!start) continue;
        readings.push({
          day: `${start.year}-${pad(start.month)}-${pad(start.day)}`,
          impressions: numberOrNull(e.impressions),
          reach: numberOrNull(e.approximateMemberReach),
          clicks: numberOrNull(e.clicks),
          spend: decimalOrNull(e.costInLocalCurrency),
          conversions: numberOrNull(e.externalWebsiteConversions),
          currency: account.currency,
        });
      }
      return readings;
    },
  };
}
