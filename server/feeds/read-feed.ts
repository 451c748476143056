// One read of a feed's address through the outbound guard (https only, public addresses
// checked at connect time, no redirects, deadline and size cap), parsed. Tests swap in a
// guarded client of their own (simulated DNS, a self-signed local site).
import { checkOutboundDestination, guardedFetch, OutboundFailedError, OutboundRefusedError, type OutboundClient } from '@/server/outbound';
import { FeedParseError, parseFeed, type ParsedFeed } from './parse-feed';

export type FeedFetcher = Pick<OutboundClient, 'check' | 'fetch'>;

const guarded: FeedFetcher = { check: checkOutboundDestination, fetch: guardedFetch };
let override: FeedFetcher | undefined;

export function feedFetcher(): FeedFetcher {
  return override ?? guarded;
}

export function setFeedFetcherForTests(fetcher: FeedFetcher | undefined): void {
  override = fetcher;
}

/** Why a read failed, in words for the feed's row (lastError) and FEED_UNREADABLE. */
export class FeedReadError extends Error {}

export const FEED_READ_LIMITS = { timeoutMs: 15_000, maxBytes: 5 * 1024 * 1024 } as const;
const ACCEPT = 'application/rss+xml, application/atom+xml, application/rdf+xml;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.1';

export async function readFeed(url: string): Promise<ParsedFeed> {
  let res;
  try {
    res = await feedFetcher().fetch(url, { headers: { accept: ACCEPT, 'user-agent': 'Herald feed reader' }, ...FEED_READ_LIMITS });
  } catch (error) {
    if (error instanceof OutboundRefusedError || error instanceof OutboundFailedError) throw new FeedReadError(error.message);
    throw error;
  }
  if (res.status >= 300 && res.status < 400) {
    const to = res.headers.get('location');
    throw new FeedReadError(`The feed answered ${res.status}, a redirect${to ? ` to ${to}` : ''}: use the address it moved to.`);
  }
  if (res.status < 200 || res.status >= 300) throw new FeedReadError(`The feed answered ${res.status}.`);
  try {
    return parseFeed(res.body.toString('utf8'));
  } catch (error) {
    if (error instanceof FeedParseError) throw new FeedReadError(error.message);
    throw new FeedReadError('The feed could not be read as XML.');
  }
}
