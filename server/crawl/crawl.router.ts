// /crawl/* read routes (scope analytics:read), and the staff-only procedures that add and
// remove sites and tracked pages (the app; no REST route).
import { z } from 'zod';
import { writeEnvelope } from '@/server/shared/schemas';
import { apiProcedure, router } from '@/server/trpc/init';
import type { HeraldMeta } from '@/server/trpc/meta';
import {
  ZAddPageInput,
  ZAddSiteInput,
  ZChangesProvenance,
  ZChangeQuery,
  ZChangesQuery,
  ZCrawlChange,
  ZCrawlChangeDetail,
  ZCrawlPage,
  ZCrawlProvenance,
  ZCrawlSite,
  ZCrawlVisit,
  ZPagesQuery,
  ZRemoveInput,
  ZTimelineQuery,
} from './crawl.schemas';
import { getChange, listChanges, listPages, listSites, pageTimeline } from './read-crawl';
import { addPage, addSite, crawlSiteNow, removePage, removeSite } from './sites';

const base = { scope: 'analytics:read', inputErrors: 'field' } as const satisfies Partial<HeraldMeta>;
const tags = ['Crawl'];
const ZSiteRecord = z.object({ id: z.uuid(), name: z.string(), origin: z.string() });
const ZPageRecord = z.object({ id: z.uuid(), siteId: z.uuid(), url: z.string() });

export const crawlRouter = router({
  sites: apiProcedure
    .meta({
      ...base,
      openapi: {
        method: 'GET',
        path: '/crawl/sites',
        description:
          'Lists the sites the landing-page crawl visits for the workspace, each with its crawl state (when last and next visited, and how that went).',
        successDescription: 'The crawled sites.',
        tags,
        protect: true,
        summary: 'Crawled sites, each with its crawl state',
      },
    })
    .input(z.strictObject({}).optional())
    .output(z.object({ data: z.array(ZCrawlSite).describe('The workspace’s sites, oldest first'), provenance: ZCrawlProvenance }))
    .query(({ ctx }) => listSites(ctx.actor.workspaceId)),

  pages: apiProcedure
    .meta({
      ...base,
      errors: ['VALIDATION_FAILED', 'CRAWL_SITE_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/crawl/pages',
        description: 'Lists the tracked URLs of one site with their last visit; the outcome is passed through verbatim from the crawler.',
        successDescription: 'The site’s tracked pages.',
        tags,
        protect: true,
        summary: 'Tracked URLs of a site and their last visit, outcome verbatim from the crawler',
      },
    })
    .input(ZPagesQuery)
    .output(z.object({ data: z.array(ZCrawlPage).describe('The site’s tracked pages, oldest first, up to limit'), provenance: ZCrawlProvenance }))
    .query(({ ctx, input }) => listPages(ctx.actor.workspaceId, input)),

  timeline: apiProcedure
    .meta({
      ...base,
      errors: ['VALIDATION_FAILED', 'CRAWL_PAGE_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/crawl/pages/{pageId}/timeline',
        description: 'Every visit to one tracked page, newest first, including visits that returned nothing, so a gap in the record is visible.',
        successDescription: 'The visits, newest first, with provenance.',
        tags,
        protect: true,
        summary: 'Every visit to one page, newest first, including visits that returned nothing',
      },
    })
    .input(ZTimelineQuery)
    .output(z.object({ data: z.array(ZCrawlVisit).describe('The page’s visits, newest first, up to limit'), provenance: ZCrawlProvenance }))
    .query(({ ctx, input }) => pageTimeline(ctx.actor.workspaceId, input)),

  changes: apiProcedure
    .meta({
      ...base,
      errors: ['VALIDATION_FAILED', 'CRAWL_SITE_NOT_FOUND', 'CRAWL_PAGE_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/crawl/changes',
        description:
          'Detected changes of a site’s pages, newest first. When the list is empty, read provenance.emptyMeans before concluding that nothing changed: the page may not have been visited in the window.',
        successDescription: 'The changes, newest first, with provenance.',
        tags,
        protect: true,
        summary: 'Detected changes of a page, newest first; when the list is empty, provenance.emptyMeans says why',
      },
    })
    .input(ZChangesQuery)
    .output(
      z.object({
        data: z.array(ZCrawlChange).describe('The page’s changes detected in the window, newest first, up to limit; provenance.emptyMeans says why when empty'),
        provenance: ZChangesProvenance,
      }),
    )
    .query(({ ctx, input }) => listChanges(ctx.actor.workspaceId, input)),

  change: apiProcedure
    .meta({
      ...base,
      errors: ['CRAWL_CHANGE_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/crawl/changes/{changeId}',
        successDescription: 'The change with both visits.',
        tags,
        protect: true,
        summary: 'Herald extension: one change with both visits it compares, their main text whole',
        description:
          'Not part of the v1 contract. The change as GET /crawl/changes lists it, plus `before` and `after`: what the two compared visits extracted, with the whole main text (the list keeps the first 500 characters of each side).',
      },
    })
    .input(ZChangeQuery)
    .output(z.object({ data: ZCrawlChangeDetail, provenance: ZCrawlProvenance }))
    .query(({ ctx, input }) => getChange(ctx.actor.workspaceId, input.changeId)),

  // ── Staff only (the app) ──
  addSite: apiProcedure
    .meta({ scope: 'analytics:read', errors: ['FORBIDDEN', 'VALIDATION_FAILED'] })
    .input(ZAddSiteInput)
    .output(writeEnvelope(ZSiteRecord))
    .mutation(async ({ ctx, input }) => {
      const s = await addSite(ctx.actor, input);
      return { data: { id: s.id, name: s.name, origin: s.origin }, warnings: [] };
    }),

  removeSite: apiProcedure
    .meta({ scope: 'analytics:read', errors: ['FORBIDDEN', 'CRAWL_SITE_NOT_FOUND'] })
    .input(ZRemoveInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await removeSite(ctx.actor, input.id);
    }),

  addPage: apiProcedure
    .meta({ scope: 'analytics:read', errors: ['FORBIDDEN', 'VALIDATION_FAILED', 'CRAWL_SITE_NOT_FOUND'] })
    .input(ZAddPageInput)
    .output(writeEnvelope(ZPageRecord))
    .mutation(async ({ ctx, input }) => {
      const p = await addPage(ctx.actor, input);
      return { data: { id: p.id, siteId: p.siteId, url: p.url }, warnings: [] };
    }),

  crawlNow: apiProcedure
    .meta({ scope: 'analytics:read', errors: ['FORBIDDEN', 'CRAWL_SITE_NOT_FOUND'] })
    .input(ZRemoveInput)
    .output(writeEnvelope(z.object({ queued: z.literal(true) })))
    .mutation(async ({ ctx, input }) => ({ data: await crawlSiteNow(ctx.actor, input.id), warnings: [] })),

  removePage: apiProcedure
    .meta({ scope: 'analytics:read', errors: ['FORBIDDEN', 'CRAWL_PAGE_NOT_FOUND'] })
    .input(ZRemoveInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await removePage(ctx.actor, input.id);
    }),
});
