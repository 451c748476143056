// robots.txt, read with robots-parser (RFC 9309 matching). What the crawler does with it:
//   - 2xx: the rules apply to HeraldBot (its own group, else `*`), Crawl-delay included;
//   - 4xx (404 and the like): no rules, everything allowed (RFC 9309 §2.3.1.3);
//   - 3xx (not followed), 5xx, timeout or no connection: the site is treated as disallowing
//     everything for this run (RFC 9309 §2.3.1.4), and each page's visit records why.
import robotsParser from 'robots-parser';
import { classifyFailure, type CrawlFetch } from './visit';

export const CRAWLER_TOKEN = 'HeraldBot';
const ROBOTS_MAX_BYTES = 512 * 1024;
/** Longest Crawl-delay honoured; a longer one is read as this. */
export const MAX_CRAWL_DELAY_SECONDS = 60;

export interface RobotsRules {
  allowed(url: string): boolean;
  /** Crawl-delay for HeraldBot in milliseconds, if the file sets one. */
  crawlDelayMs: number | undefined;
  /** Why every URL is refused (robots.txt unreachable), or null. */
  unreachable: string | null;
}

const disallowAll = (why: string): RobotsRules => ({
  allowed: () => false,
  crawlDelayMs: undefined,
  unreachable: `robots.txt could not be read (${why}), so the site is treated as disallowing everything`,
});

export async function loadRobots(fetch: CrawlFetch, origin: string, opts: { userAgent: string; timeoutMs: number }): Promise<RobotsRules> {
  const robotsUrl = `${origin}/robots.txt`;
  let status: number;
  let text: string;
  try {
    const res = await fetch(robotsUrl, { headers: { 'user-agent': opts.userAgent, accept: 'text/plain' }, timeoutMs: opts.timeoutMs, maxBytes: ROBOTS_MAX_BYTES });
    status = res.status;
    text = res.body.toString('utf8');
  } catch (error) {
    const { outcome, detail } = classifyFailure(error);
    return disallowAll(`${outcome}: ${detail}`);
  }
  if (status >= 400 && status < 500) return { allowed: () => true, crawlDelayMs: undefined, unreachable: null };
  if (status < 200 || status >= 300) return disallowAll(`HTTP ${status}`);
  const robots = robotsParser(robotsUrl, text);
  const delay = robots.getCrawlDelay(CRAWLER_TOKEN);
  return {
    allowed: (url) => robots.isAllowed(url, CRAWLER_TOKEN) !== false,
    crawlDelayMs: typeof delay === 'number' && Number.isFinite(delay) && delay > 0 ? Math.min(delay, MAX_CRAWL_DELAY_SECONDS) * 1000 : undefined,
    unreachable: null,
  };
}
