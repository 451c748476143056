// The crawl job: every tracked page of every (or one) workspace, one request at a time per
// host with at least the politeness delay between the end of one request to it and the start
// of the next (robots.txt Crawl-delay can only lengthen it), several hosts in parallel. Every visit is recorded, whatever its
// outcome. A site is claimed for the run (lastCrawlStartedAt) so two runs never crawl it at once.
import { setTimeout as sleep } from 'node:timers/promises';
import { env } from '@/server/config/env';
import { db } from '@/server/db/client';
import { guardedFetch } from '@/server/outbound';
import { recordVisit } from './record-visit';
import { loadRobots } from './robots';
import { visitUrl, type CrawlFetch } from './visit';

/** A claim older than this belongs to a run that died; the site may be crawled again. */
export const CRAWL_CLAIM_MINUTES = 60;

export function crawlerUserAgent(): string {
  return `Mozilla/5.0 (compatible; HeraldBot/1.0; +${env.baseUrl()}/bot)`;
}

export interface CrawlClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: CrawlClock = { now: () => Date.now(), sleep: (ms) => sleep(ms).then(() => undefined) };

export interface CrawlOptions {
  fetch?: CrawlFetch;
  clock?: CrawlClock;
  politenessMs?: number;
  hostConcurrency?: number;
  timeoutMs?: number;
  /** Only this workspace's sites (tests, a staff "crawl now"). */
  workspaceId?: string;
  /** Only these sites. */
  siteIds?: string[];
}

export interface CrawlRunSummary {
  sites: number;
  hosts: number;
  visits: number;
  changes: number;
  /** Every request sent, robots.txt included, per host, in order: start and end on the run's clock. */
  requests: { host: string; url: string; at: number; done: number }[];
}

interface QueuedPage {
  id: string;
  workspaceId: string;
  siteId: string;
  url: string;
}

/** Runs `work` over `items` with at most `limit` at once. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  });
  await Promise.all(workers);
}

async function claimSites(opts: CrawlOptions, now: Date): Promise<string[]> {
  const stale = new Date(now.getTime() - CRAWL_CLAIM_MINUTES * 60_000);
  const candidates = await db.crawlSite.findMany({
    where: { ...(opts.workspaceId ? { workspaceId: opts.workspaceId } : {}), ...(opts.siteIds ? { id: { in: opts.siteIds } } : {}) },
    select: { id: true },
  });
  if (candidates.length === 0) return [];
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE "CrawlSite" SET "lastCrawlStartedAt" = ${now}
     WHERE id = ANY(${candidates.map((c) => c.id)}::uuid[])
       AND ("lastCrawlStartedAt" IS NULL OR "lastCrawlStartedAt" < ${stale} OR "lastCrawlFinishedAt" >= "lastCrawlStartedAt")
    RETURNING id`;
  return rows.map((r) => r.id);
}

export async function runCrawl(opts: CrawlOptions = {}): Promise<CrawlRunSummary> {
  const fetch = opts.fetch ?? guardedFetch;
  const clock = opts.clock ?? realClock;
  const politenessMs = opts.politenessMs ?? env.crawlPolitenessMs();
  const timeoutMs = opts.timeoutMs ?? env.crawlTimeoutMs();
  const userAgent = crawlerUserAgent();
  const siteIds = await claimSites(opts, new Date());
  const summary: CrawlRunSummary = { sites: siteIds.length, hosts: 0, visits: 0, changes: 0, requests: [] };
  if (siteIds.length === 0) return summary;

  const pages = await db.crawlPage.findMany({ where: { siteId: { in: siteIds } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const byHost = new Map<string, QueuedPage[]>();
  for (const p of pages) {
    const url = new URL(p.url);
    const key = url.origin;
    byHost.set(key, [...(byHost.get(key) ?? []), { id: p.id, workspaceId: p.workspaceId, siteId: p.siteId, url: p.url }]);
  }
  summary.hosts = byHost.size;
  const failures: unknown[] = [];

  try {
    await pool([...byHost.entries()], opts.hostConcurrency ?? env.crawlHostConcurrency(), async ([origin, hostPages]) => {
      const host = new URL(origin).host;
      // The delay runs from the end of one request to the start of the next, so the host sees
      // at least that much quiet between two requests however long each one took.
      let lastDone: number | undefined;
      let delayMs = politenessMs;
      const politely = async <T>(url: string, request: () => Promise<T>): Promise<T> => {
        if (lastDone !== undefined) {
          const wait = lastDone + delayMs - clock.now();
          if (wait > 0) await clock.sleep(wait);
        }
        const entry = { host, url, at: clock.now(), done: clock.now() };
        summary.requests.push(entry);
        try {
          return await request();
        } finally {
          lastDone = entry.done = clock.now();
        }
      };
      const robots = await politely(`${origin}/robots.txt`, () => loadRobots(fetch, origin, { userAgent, timeoutMs }));
      if (robots.crawlDelayMs !== undefined) delayMs = Math.max(politenessMs, robots.crawlDelayMs);
      for (const page of hostPages) {
        const startedAt = new Date();
        let result;
        if (robots.failure) {
          result = { ...robots.failure, statusCode: null, contentType: null, bytes: null, html: null };
        } else if (!robots.allowed(page.url)) {
          result = {
            outcome: 'blocked_by_robots' as const,
            detail: robots.unreachable ?? `robots.txt disallows ${new URL(page.url).pathname} for HeraldBot`,
            statusCode: null,
            contentType: null,
            bytes: null,
            html: null,
          };
        } else {
          result = await politely(page.url, () => visitUrl(fetch, page.url, { userAgent, timeoutMs }));
        }
        try {
          const { changeId } = await recordVisit({ page, result, userAgent, startedAt, finishedAt: new Date() });
          summary.visits += 1;
          if (changeId) summary.changes += 1;
        } catch (error) {
          // A page removed by staff mid-run is simply skipped; anything else (the database) is
          // reported once every host is done, so one failure does not cut other hosts short.
          if (await db.crawlPage.findUnique({ where: { id: page.id }, select: { id: true } }).catch(() => 'unknown')) failures.push(error);
        }
      }
    });
  } finally {
    await db.crawlSite.updateMany({ where: { id: { in: siteIds } }, data: { lastCrawlFinishedAt: new Date() } });
  }
  if (failures.length) throw new AggregateError(failures, `${failures.length} visit(s) could not be recorded`);
  return summary;
}
