// The read side of the crawl (GET /crawl/*), each answer with its provenance.
import { SOURCE_LABELS } from '@/server/analytics/sources';
import { db } from '@/server/db/client';
import { addDays, todayIn } from '@/server/shared/analytics-window';
import { isoOrNull, isUuid } from '@/server/shared/schemas';
import { AppError } from '@/server/errors/app-error';
import type { ChangesQuery, EmptyMeans } from './crawl.schemas';
import { crawlerUserAgent } from './crawl-run';
import type { Heading } from './extract';
import { findPage, findSite } from './sites';

const TEXT_EXCERPT = 300;

function provenance(collectedAt: Date | null | undefined) {
  return { source: 'crawler' as const, label: SOURCE_LABELS.crawler, collectedAt: isoOrNull(collectedAt), userAgent: crawlerUserAgent() };
}

export async function listSites(workspaceId: string) {
  const sites = await db.crawlSite.findMany({ where: { workspaceId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const stats = await db.$queryRaw<{ site_id: string; pages: number; last_visit_at: Date | null; visits: number; failed: number }[]>`
    SELECT s.id AS site_id,
           (SELECT count(*)::int FROM "CrawlPage" p WHERE p."siteId" = s.id) AS pages,
           (SELECT max(p."lastVisitAt") FROM "CrawlPage" p WHERE p."siteId" = s.id) AS last_visit_at,
           count(v.id)::int AS visits,
           count(v.id) FILTER (WHERE v.outcome <> 'ok')::int AS failed
      FROM "CrawlSite" s
      LEFT JOIN "CrawlPage" p ON p."siteId" = s.id
      LEFT JOIN "CrawlVisit" v ON v."pageId" = p.id AND s."lastCrawlStartedAt" IS NOT NULL AND v."startedAt" >= s."lastCrawlStartedAt"
     WHERE s."workspaceId" = ${workspaceId}::uuid
     GROUP BY s.id`;
  const byId = new Map(stats.map((s) => [s.site_id, s]));
  let newest: Date | null = null;
  const data = sites.map((s) => {
    const st = byId.get(s.id);
    const lastVisitAt = st?.last_visit_at ?? null;
    if (lastVisitAt && (!newest || lastVisitAt > newest)) newest = lastVisitAt;
    const crawling = s.lastCrawlStartedAt !== null && (s.lastCrawlFinishedAt === null || s.lastCrawlFinishedAt < s.lastCrawlStartedAt);
    return {
      id: s.id,
      name: s.name,
      origin: s.origin,
      pageCount: st?.pages ?? 0,
      state: {
        status: s.lastCrawlStartedAt === null ? ('never_crawled' as const) : crawling ? ('crawling' as const) : ('idle' as const),
        lastCrawlStartedAt: isoOrNull(s.lastCrawlStartedAt),
        lastCrawlFinishedAt: isoOrNull(s.lastCrawlFinishedAt),
        lastVisitAt: isoOrNull(lastVisitAt),
        visitsInLastRun: st?.visits ?? 0,
        failedInLastRun: st?.failed ?? 0,
      },
      createdAt: s.createdAt.toISOString(),
    };
  });
  return { data, provenance: provenance(newest) };
}

export async function listPages(workspaceId: string, q: { siteId: string; limit: number }) {
  const site = await findSite(workspaceId, q.siteId);
  const pages = await db.crawlPage.findMany({ where: { siteId: site.id, workspaceId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: q.limit });
  const lastIds = pages.flatMap((p) => (p.lastVisitId ? [p.lastVisitId] : []));
  const visits = await db.crawlVisit.findMany({ where: { id: { in: lastIds } } });
  const byId = new Map(visits.map((v) => [v.id, v]));
  let newest: Date | null = null;
  const data = pages.map((p) => {
    const v = p.lastVisitId ? byId.get(p.lastVisitId) : undefined;
    if (v && (!newest || v.finishedAt > newest)) newest = v.finishedAt;
    return {
      id: p.id,
      siteId: p.siteId,
      url: p.url,
      createdAt: p.createdAt.toISOString(),
      lastVisit: v ? { visitId: v.id, visitedAt: v.finishedAt.toISOString(), outcome: v.outcome, detail: v.detail, statusCode: v.statusCode } : null,
    };
  });
  return { data, provenance: provenance(newest) };
}

export async function pageTimeline(workspaceId: string, q: { pageId: string; limit: number }) {
  const page = await findPage(workspaceId, q.pageId);
  const visits = await db.crawlVisit.findMany({ where: { pageId: page.id, workspaceId }, orderBy: [{ startedAt: 'desc' }, { id: 'desc' }], take: q.limit });
  const data = visits.map((v) => ({
    id: v.id,
    pageId: v.pageId,
    outcome: v.outcome,
    detail: v.detail,
    statusCode: v.statusCode,
    contentType: v.contentType,
    bytes: v.bytes,
    durationMs: v.durationMs,
    startedAt: v.startedAt.toISOString(),
    finishedAt: v.finishedAt.toISOString(),
    extracted:
      v.contentHash === null
        ? null
        : {
            title: v.title,
            metaDescription: v.metaDescription,
            canonical: v.canonical,
            headings: (Array.isArray(v.headings) ? v.headings : []) as unknown as Heading[],
            textLength: v.text?.length ?? 0,
            textExcerpt: v.text ? v.text.slice(0, TEXT_EXCERPT) : null,
          },
  }));
  return { data, provenance: provenance(visits[0]?.finishedAt) };
}

/** The window's bounds as instants: from's midnight to the midnight after to, in the time zone. */
async function windowInstants(from: string, to: string, timeZone: string): Promise<{ start: Date; end: Date }> {
  const [row] = await db.$queryRaw<{ start: Date; end: Date }[]>`
    SELECT (${from}::date::timestamp AT TIME ZONE ${timeZone}) AS start,
           ((${to}::date + 1)::timestamp AT TIME ZONE ${timeZone}) AS "end"`;
  return row!;
}

type ChangeRow = Awaited<ReturnType<typeof db.crawlChange.findMany>>[number];
type VisitRow = Awaited<ReturnType<typeof db.crawlVisit.findMany>>[number];

function changeDto(c: ChangeRow, url: string) {
  return {
    id: c.id,
    siteId: c.siteId,
    pageId: c.pageId,
    url,
    detectedAt: c.detectedAt.toISOString(),
    fromVisitId: c.fromVisitId,
    toVisitId: c.toVisitId,
    fields: c.fields as ('title' | 'metaDescription' | 'canonical' | 'headings' | 'text')[],
    changes: c.changes as Record<string, { before: unknown; after: unknown }>,
    diffSummary: c.diffSummary as never,
  };
}

function snapshot(v: VisitRow) {
  return {
    visitId: v.id,
    visitedAt: v.finishedAt.toISOString(),
    title: v.title,
    metaDescription: v.metaDescription,
    canonical: v.canonical,
    headings: (Array.isArray(v.headings) ? v.headings : []) as unknown as Heading[],
    text: v.text,
  };
}

/**
 * One change with both visits it compares, the main text whole: the change record keeps only
 * the first 500 characters of each side, which is too little to show what changed further down.
 */
export async function getChange(workspaceId: string, changeId: string) {
  const change = isUuid(changeId) ? await db.crawlChange.findFirst({ where: { id: changeId, workspaceId } }) : null;
  if (!change) throw new AppError('CRAWL_CHANGE_NOT_FOUND', 'No detected change with that id in this workspace', { field: 'changeId' });
  const [page, visits] = await Promise.all([
    db.crawlPage.findUniqueOrThrow({ where: { id: change.pageId }, select: { url: true } }),
    db.crawlVisit.findMany({ where: { id: { in: [change.fromVisitId, change.toVisitId] }, workspaceId } }),
  ]);
  const before = visits.find((v) => v.id === change.fromVisitId);
  const after = visits.find((v) => v.id === change.toVisitId);
  // Removing a page removes its visits and changes together, so both visits exist while the change does.
  if (!before || !after) throw new AppError('CRAWL_CHANGE_NOT_FOUND', 'The visits of that change are gone', { field: 'changeId' });
  return { data: { ...changeDto(change, page.url), before: snapshot(before), after: snapshot(after) }, provenance: provenance(after.finishedAt) };
}

export async function listChanges(workspaceId: string, q: ChangesQuery) {
  const site = await findSite(workspaceId, q.siteId);
  const page = await findPage(workspaceId, q.pageId, { siteId: site.id });
  const { timeZone } = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { timeZone: true } });
  const to = q.to ?? todayIn(timeZone);
  const from = q.from ?? addDays(to, -29);
  const { start, end } = await windowInstants(from, to, timeZone);
  const inWindow = { pageId: page.id, workspaceId, finishedAt: { gte: start, lt: end } };
  const [changes, visitsInWindow, successfulVisitsInWindow, newestVisit] = await Promise.all([
    db.crawlChange.findMany({
      where: { pageId: page.id, workspaceId, detectedAt: { gte: start, lt: end } },
      orderBy: [{ detectedAt: 'desc' }, { id: 'desc' }],
      take: q.limit,
    }),
    db.crawlVisit.count({ where: inWindow }),
    db.crawlVisit.count({ where: { ...inWindow, outcome: 'ok' } }),
    db.crawlVisit.findFirst({ where: inWindow, orderBy: { finishedAt: 'desc' }, select: { finishedAt: true } }),
  ]);
  let emptyMeans: EmptyMeans | null = null;
  if (changes.length === 0) {
    if (visitsInWindow === 0) emptyMeans = 'not_visited_in_window';
    else {
      // A comparison needs a successful visit in the window and a successful one before it
      // (which may predate the window).
      const okUpToEnd = await db.crawlVisit.count({ where: { pageId: page.id, outcome: 'ok', finishedAt: { lt: end } } });
      emptyMeans = successfulVisitsInWindow >= 1 && okUpToEnd >= 2 ? 'visited_no_changes' : 'fewer_than_two_successful_visits';
    }
  }
  return {
    data: changes.map((c) => changeDto(c, page.url)),
    provenance: { ...provenance(newestVisit?.finishedAt), window: { from, to }, timeZone, emptyMeans, visitsInWindow, successfulVisitsInWindow },
  };
}
