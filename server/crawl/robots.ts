// robots.txt, read with robots-parser (RFC 9309 matching). What the crawler does with it:
//   - 2xx: the rules apply to HeraldBot (its own group, else `*`), Crawl-delay included;
//   - 4xx (404 and the like): no rules, everything allowed (RFC 9309 §2.3.1.3);
//   - 3xx (not followed) or 5xx: the site is treated as disallowing everything for this run
//     (RFC 9309 §2.3.1.4); each page's visit is blocked_by_robots and says why;
//   - no answer at all (DNS, TLS, connection, timeout): the site is unreachable; each page's
//     visit records that transport outcome, and the page itself is not requested.
import robotsParser from 'robots-parser';
import { classifyFailure, type CrawlFetch, type CrawlOutcome } from './visit';

export const CRAWLER_TOKEN = 'HeraldBot';
const ROBOTS_MAX_BYTES = 512 * 1024;
/** Longest Crawl-delay honoured; a longer one is read as this. */
export const MAX_CRAWL_DELAY_SECONDS = 60;

export interface RobotsRules {
  allowed(url: string): boolean;
  /** Crawl-delay for HeraldBot in milliseconds, if the file sets one. */
  crawlDelayMs: number | undefined;
  /** Why every URL is refused (robots.txt answered 3xx/5xx), or null. */
  unreachable: string | null;
  /** The transport failure of the robots.txt request, which every page of the host shares. */
  failure: { outcome: CrawlOutcome; detail: string } | null;
}

const disallowAll = (why: string, failure: RobotsRules['failure'] = null): RobotsRules => ({
  allowed: () => false,
  crawlDelayMs: undefined,
  unreachable: `robots.txt could not be read (${why}), so the site is treated as disallowing everything`,
  failure,
});

export async function loadRobots(fetch: CrawlFetch, origin: string, opts: { userAgent: string; timeoutMs: number }): Promise<RobotsRules> {
  const robotsUrl = `${origin}/robots.txt`;
  let status: number;
  let text: string;
  try {
    const res = await fetch(robotsUrl, {
      headers: { 'user-agent': opts.userAgent, accept: 'text/plain' },
      timeoutMs: opts.timeoutMs,
      maxBytes: ROBOTS_MAX_BYTES,
    });
    status = res.status;
    text = res.body.toString('utf8');
  } catch (error) {
    const { outcome, detail } = classifyFailure(error);
    return disallowAll(`${outcome}: ${detail}`, { outcome, detail: `robots.txt: ${detail}` });
  }
  if (status >= 400 && status < 500) return { allowed: () => true, crawlDelayMs: undefined, unreachable: null, failure: null };
  if (status < 200 || status >= 300) return disallowAll(`HTTP ${status}`);
  const robots = robotsParser(robotsUrl, text);
  const delay = robots.getCrawlDelay(CRAWLER_TOKEN);
  return {
    allowed: (url) => robots.isAllowed(url, CRAWLER_TOKEN) !== false,
    crawlDelayMs: typeof delay === 'number' && Number.isFinite(delay) && delay > 0 ? Math.min(delay, MAX_CRAWL_DELAY_SECONDS) * 1000 : undefined,
    unreachable: null,
    failure: null,
  };
}
