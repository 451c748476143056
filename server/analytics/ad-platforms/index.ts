// Which insights source serves an ad account.
import type { AdSourceId } from '../analytics.schemas';
import { googleAdsSource } from './google';
import { linkedinAdsSource } from './linkedin';
import { metaInsightsSource } from './meta';
import type { AdInsightsSource } from './port';
import { sandboxAdSource } from './sandbox';

export function adSourceFor(source: AdSourceId): AdInsightsSource {
  switch (source) {
    case 'meta':
      return metaInsightsSource();
    case 'linkedin':
      return linkedinAdsSource();
    case 'google':
      return googleAdsSource();
    case 'sandbox':
      return sandboxAdSource;
  }
}
