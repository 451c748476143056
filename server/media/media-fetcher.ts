// How mediaUrls are downloaded: through the outbound guard (https only, public addresses
// checked at connect time, no redirects, deadline and size cap). Tests swap in a guarded
// client of their own (simulated DNS, a self-signed local origin).
import { guardedStream, type OutboundClient } from '@/server/outbound';

export type MediaFetcher = Pick<OutboundClient, 'stream'>;

const guarded: MediaFetcher = { stream: guardedStream };
let override: MediaFetcher | undefined;

export function mediaFetcher(): MediaFetcher {
  return override ?? guarded;
}

export function setMediaFetcherForTests(fetcher: MediaFetcher | undefined): void {
  override = fetcher;
}
