// Wire shapes of /crawl/*. Every response carries `provenance`; an empty changes list
// carries `provenance.emptyMeans`.
import { z } from 'zod';
import { ZProvenance } from '@/server/analytics/analytics.schemas';
import { checkWindow, ZDay, ZLimit } from '@/server/shared/analytics-window';
import { storableText, ZIdOf, ZIdParam, ZNullableTimestamp, ZText, ZTimestamp } from '@/server/shared/schemas';
import { CRAWL_OUTCOMES } from './outcomes';

export const ZCrawlProvenance = ZProvenance.extend({
  userAgent: z.string().describe('The user agent the crawler sends'),
}).meta({ id: 'CrawlProvenance' });

export const ZOutcome = z
  .string()
  .describe(`The crawler's outcome, verbatim (today one of ${CRAWL_OUTCOMES.join(', ')}; new codes may appear — treat unknown ones as failures)`);

export const ZLastVisit = z
  .object({
    visitId: z.uuid(),
    visitedAt: ZTimestamp,
    outcome: ZOutcome,
    detail: z.string().nullable().describe("The crawler's own words about the outcome, verbatim"),
    statusCode: z.number().int().nullable(),
  })
  .meta({ id: 'CrawlLastVisit' });

export const ZCrawlSite = z
  .object({
    id: z.uuid(),
    name: z.string(),
    origin: z.string(),
    pageCount: z.number().int(),
    state: z.object({
      status: z.enum(['never_crawled', 'crawling', 'idle']),
      lastCrawlStartedAt: ZNullableTimestamp,
      lastCrawlFinishedAt: ZNullableTimestamp,
      lastVisitAt: ZNullableTimestamp,
      visitsInLastRun: z.number().int().describe('Visits recorded since the last crawl started'),
      failedInLastRun: z.number().int().describe('Of those, visits whose outcome is not ok'),
    }),
    createdAt: ZTimestamp,
  })
  .meta({ id: 'CrawlSite' });

export const ZCrawlPage = z
  .object({ id: z.uuid(), siteId: z.uuid(), url: z.string(), createdAt: ZTimestamp, lastVisit: ZLastVisit.nullable() })
  .meta({ id: 'CrawlPage' });

export const ZHeading = z.object({ level: z.number().int(), text: z.string() });

export const ZCrawlVisit = z
  .object({
    id: z.uuid(),
    pageId: z.uuid(),
    outcome: ZOutcome,
    detail: z.string().nullable(),
    statusCode: z.number().int().nullable(),
    contentType: z.string().nullable(),
    bytes: z.number().int().nullable(),
    durationMs: z.number().int(),
    startedAt: ZTimestamp,
    finishedAt: ZTimestamp,
    extracted: z
      .object({
        title: z.string().nullable(),
        metaDescription: z.string().nullable(),
        canonical: z.string().nullable(),
        headings: z.array(ZHeading),
        textLength: z.number().int(),
        textExcerpt: z.string().nullable().describe('The first 300 characters of the main text'),
      })
      .nullable()
      .describe('What the visit extracted; null when it returned nothing to extract'),
  })
  .meta({ id: 'CrawlVisit' });

export const ZCrawlChange = z
  .object({
    id: z.uuid(),
    siteId: z.uuid(),
    pageId: z.uuid(),
    url: z.string(),
    detectedAt: ZTimestamp,
    fromVisitId: z.uuid(),
    toVisitId: z.uuid(),
    fields: z.array(z.enum(['title', 'metaDescription', 'canonical', 'headings', 'text'])),
    changes: z
      .record(z.string(), z.object({ before: z.unknown(), after: z.unknown() }))
      .describe('Per changed field; text before/after are the first 500 characters'),
    diffSummary: z.object({
      addedWords: z.number().int(),
      removedWords: z.number().int(),
      unchangedWords: z.number().int(),
      changeRatio: z.number(),
      excerpts: z.array(z.object({ type: z.enum(['added', 'removed']), text: z.string() })),
      truncated: z.boolean(),
    }),
  })
  .meta({ id: 'CrawlChange' });

/** One side of a change: what the visit extracted, the main text whole (at most 100,000 characters). */
export const ZVisitSnapshot = z
  .object({
    visitId: z.uuid(),
    visitedAt: ZTimestamp,
    title: z.string().nullable(),
    metaDescription: z.string().nullable(),
    canonical: z.string().nullable(),
    headings: z.array(ZHeading),
    text: z.string().nullable().describe('The whole extracted main text'),
  })
  .meta({ id: 'CrawlVisitSnapshot' });

export const ZCrawlChangeDetail = ZCrawlChange.extend({
  before: ZVisitSnapshot.describe('The earlier successful visit of the comparison'),
  after: ZVisitSnapshot.describe('The visit that detected the change'),
}).meta({ id: 'CrawlChangeDetail' });

export const EMPTY_MEANS = ['visited_no_changes', 'not_visited_in_window', 'fewer_than_two_successful_visits'] as const;
export type EmptyMeans = (typeof EMPTY_MEANS)[number];
/** emptyMeans in words, for people reading an empty list of changes (the app shows these). */
export const EMPTY_MEANS_WORDS: { readonly [K in EmptyMeans]: string } = {
  visited_no_changes: 'The page was visited successfully in this window and nothing changed since the successful visit before.',
  not_visited_in_window: 'The page was not visited in this window, so nothing can be said about changes.',
  fewer_than_two_successful_visits: 'The page was visited, but there are not yet two successful visits to compare.',
};

export const ZChangesProvenance = ZCrawlProvenance.extend({
  window: z.object({ from: ZDay, to: ZDay }),
  timeZone: z.string(),
  emptyMeans: z
    .enum(EMPTY_MEANS)
    .nullable()
    .describe(
      'Set when data is empty: visited_no_changes (at least two successful visits in the window, nothing changed), not_visited_in_window (no visit at all in the window), fewer_than_two_successful_visits (visited, but fewer than two successful visits to compare); null when data is not empty',
    ),
  visitsInWindow: z.number().int(),
  successfulVisitsInWindow: z.number().int(),
}).meta({ id: 'CrawlChangesProvenance' });

// ── Queries ──
const siteId = z.uuid().describe('An id from GET /crawl/sites');
export const ZPagesQuery = z.strictObject({ siteId, limit: ZLimit });
export const ZTimelineQuery = z.strictObject({ pageId: ZIdOf('tracked page', 'from crawl_pages'), limit: ZLimit });
export const ZChangesQuery = z
  .strictObject({
    siteId,
    pageId: z.uuid().describe('An id from GET /crawl/pages of that site'),
    limit: ZLimit,
    from: ZDay.optional().describe('First day of the window (default: 29 days before to)'),
    to: ZDay.optional().describe('Last day of the window (default: today in the workspace’s time zone)'),
  })
  .superRefine(checkWindow);
export type ChangesQuery = z.infer<typeof ZChangesQuery>;
// Like pageId in the timeline's path: any string is looked up, so a malformed id is simply not found.
export const ZChangeQuery = z.strictObject({ changeId: ZIdOf('change', 'from crawl_changes') });

// ── Staff procedures (the app; not in the REST contract) ──
const ZHttpsUrl = z
  .url({ protocol: /^https$/, message: 'must be an https URL' })
  .check(storableText)
  .max(2048);
export const ZAddSiteInput = z.strictObject({ name: ZText.trim().min(1).max(80), url: ZHttpsUrl.describe('Any URL of the site; its origin is kept') });
export const ZAddPageInput = z.strictObject({ siteId: z.uuid(), url: ZHttpsUrl });
export const ZRemoveInput = ZIdParam;
