// Sites and tracked pages of a workspace: staff add and remove them in the app (tRPC);
// the REST contract only reads them.
import { db } from '@/server/db/client';
import { getJobs } from '@/server/jobs';
import { AppError } from '@/server/errors/app-error';
import type { Actor } from '@/server/auth/actor';
import { checkOutboundUrl } from '@/server/outbound';
import { isUuid } from '@/server/shared/schemas';

/** Most tracked pages per site. */
export const MAX_PAGES_PER_SITE = 500;

export function requireStaff(actor: Actor): void {
  if (actor.kind !== 'staff') throw new AppError('FORBIDDEN', 'Sites and tracked pages are managed by a member in the app');
}

function checkedUrl(url: string, field: string): URL {
  const checked = checkOutboundUrl(url);
  if (!checked.ok) throw new AppError('VALIDATION_FAILED', checked.reason, { field });
  return checked.url;
}

export async function findSite(workspaceId: string, siteId: string, field = 'siteId') {
  const site = isUuid(siteId) ? await db.crawlSite.findFirst({ where: { id: siteId, workspaceId } }) : null;
  if (!site) throw new AppError('CRAWL_SITE_NOT_FOUND', 'No crawl site with that id in this workspace', { field });
  return site;
}

export async function findPage(workspaceId: string, pageId: string, opts: { siteId?: string; field?: string } = {}) {
  const page = isUuid(pageId) ? await db.crawlPage.findFirst({ where: { id: pageId, workspaceId, ...(opts.siteId ? { siteId: opts.siteId } : {}) } }) : null;
  if (!page)
    throw new AppError('CRAWL_PAGE_NOT_FOUND', opts.siteId ? 'No tracked page with that id on that site' : 'No tracked page with that id in this workspace', {
      field: opts.field ?? 'pageId',
    });
  return page;
}

export async function addSite(actor: Actor, input: { name: string; url: string }) {
  requireStaff(actor);
  const origin = checkedUrl(input.url, 'url').origin;
  const existing = await db.crawlSite.findUnique({ where: { workspaceId_origin: { workspaceId: actor.workspaceId, origin } } });
  if (existing) throw new AppError('VALIDATION_FAILED', `${origin} is already a crawl site of this workspace`, { field: 'url', status: 409 });
  return db.crawlSite.create({ data: { workspaceId: actor.workspaceId, name: input.name, origin } });
}

/** Removes the site with its pages, visits and changes. */
export async function removeSite(actor: Actor, siteId: string): Promise<void> {
  requireStaff(actor);
  const site = await findSite(actor.workspaceId, siteId, 'id');
  await db.$transaction([
    db.crawlChange.deleteMany({ where: { siteId: site.id } }),
    db.crawlVisit.deleteMany({ where: { page: { siteId: site.id } } }),
    db.crawlSite.delete({ where: { id: site.id } }),
  ]);
}

export async function addPage(actor: Actor, input: { siteId: string; url: string }) {
  requireStaff(actor);
  const site = await findSite(actor.workspaceId, input.siteId);
  const url = checkedUrl(input.url, 'url');
  url.hash = '';
  if (url.origin !== site.origin) throw new AppError('VALIDATION_FAILED', `The page must be on ${site.origin}`, { field: 'url' });
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "CrawlSite" WHERE id = ${site.id}::uuid FOR UPDATE`;
    if ((await tx.crawlPage.count({ where: { siteId: site.id } })) >= MAX_PAGES_PER_SITE) {
      throw new AppError('VALIDATION_FAILED', `A site tracks at most ${MAX_PAGES_PER_SITE} pages`, { field: 'url' });
    }
    const existing = await tx.crawlPage.findUnique({ where: { siteId_url: { siteId: site.id, url: url.toString() } } });
    if (existing) throw new AppError('VALIDATION_FAILED', `${url.toString()} is already tracked`, { field: 'url', status: 409 });
    return tx.crawlPage.create({ data: { workspaceId: actor.workspaceId, siteId: site.id, url: url.toString() } });
  });
}

export async function removePage(actor: Actor, pageId: string): Promise<void> {
  requireStaff(actor);
  const page = await findPage(actor.workspaceId, pageId, { field: 'id' });
  await db.$transaction([db.crawlChange.deleteMany({ where: { pageId: page.id } }), db.crawlPage.delete({ where: { id: page.id } })]);
}

/**
 * "Crawl now": queues a crawl of the site's pages (robots.txt and the per-host delay apply as
 * in the scheduled crawl). Keyed by the site, so pressing twice queues one crawl; a crawl of
 * the site already running finishes first.
 */
export async function crawlSiteNow(actor: Actor, siteId: string): Promise<{ queued: true }> {
  requireStaff(actor);
  const site = await findSite(actor.workspaceId, siteId, 'id');
  await getJobs().enqueue('crawl.site', { siteId: site.id }, { key: `crawl.site:${site.id}` });
  return { queued: true };
}
