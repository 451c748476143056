// Wire shapes of /crawl/*. Every response carries `provenance`; an empty changes list
// carries `provenance.emptyMeans`.
import { z } from 'zod';
import { ZProvenance } from '@/server/analytics/analytics.schemas';
import { checkWindow, ZDay, ZLimit } from '@/server/shared/analytics-window';
import { storableText, ZIdOf, ZIdParam, ZNullableTimestamp, ZText, ZTimestamp } from '@/server/shared/schemas';
import { CRAWL_OUTCOMES } from './outcomes';

export const ZCrawlProvenance = ZProvenance.extend({
  userAgent: z.string().describe('The user agent the crawler sends'),
}).meta({ id: 'CrawlProvenance', description: 'Where crawl data came from: the crawler, its user agent and its newest visit.' });

export const ZOutcome = z
  .string()
  .describe(`The crawler's outcome, verbatim (today one of ${CRAWL_OUTCOMES.join(', ')}; new codes may appear — treat unknown ones as failures)`);

export const ZLastVisit = z
  .object({
    visitId: z.uuid().describe('The visit, as in GET /crawl/pages/{pageId}/timeline'),
    visitedAt: ZTimestamp.describe('When the visit finished, in ISO 8601'),
    outcome: ZOutcome,
    detail: z.string().nullable().describe("The crawler's own words about the outcome, verbatim"),
    statusCode: z.number().int().nullable().describe('The HTTP status the page answered; null when no response came (DNS, TLS, timeout, robots.txt)'),
  })
  .meta({ id: 'CrawlLastVisit', description: 'The newest visit of a page, whatever its outcome.' });

export const ZCrawlSite = z
  .object({
    id: z.uuid().describe('The site, for the siteId of GET /crawl/pages and GET /crawl/changes'),
    name: z.string().describe('The name staff gave the site'),
    origin: z.string().describe('Scheme and host the tracked pages live on, e.g. `https://example.com`'),
    pageCount: z.number().int().describe('How many pages of the site are tracked'),
    state: z
      .object({
        status: z
          .enum(['never_crawled', 'crawling', 'idle'])
          .describe('never_crawled: no crawl has started yet; crawling: a crawl started and has not finished; idle: the last crawl finished'),
        lastCrawlStartedAt: ZNullableTimestamp.describe('When the last crawl started, in ISO 8601; null until the first'),
        lastCrawlFinishedAt: ZNullableTimestamp.describe('When the last crawl that finished did so, in ISO 8601; null until one has'),
        lastVisitAt: ZNullableTimestamp.describe('When any page of the site was last visited, in ISO 8601; null until one is'),
        visitsInLastRun: z.number().int().describe('Visits recorded since the last crawl started'),
        failedInLastRun: z.number().int().describe('Of those, visits whose outcome is not ok'),
      })
      .describe('Where the crawler is with this site'),
    createdAt: ZTimestamp.describe('When the site was added, in ISO 8601'),
  })
  .meta({ id: 'CrawlSite', description: 'A website whose pages Herald visits, with where its crawl stands.' });

export const ZCrawlPage = z
  .object({
    id: z.uuid().describe('The tracked page, for the pageId of its timeline and of GET /crawl/changes'),
    siteId: z.uuid().describe('The site the page belongs to'),
    url: z.string().describe('The address the crawler visits'),
    createdAt: ZTimestamp.describe('When the page was added for tracking, in ISO 8601'),
    lastVisit: ZLastVisit.nullable().describe('The newest visit, whatever its outcome; null until the page is first visited'),
  })
  .meta({ id: 'CrawlPage', description: 'A page of a site the crawler visits, with its newest visit.' });

export const ZHeading = z.object({
  level: z.number().int().describe('1 to 6, from the h1–h6 tag'),
  text: z.string().describe('The heading’s text, whitespace collapsed'),
});

export const ZCrawlVisit = z
  .object({
    id: z.uuid().describe('The visit'),
    pageId: z.uuid().describe('The tracked page visited'),
    outcome: ZOutcome,
    detail: z.string().nullable().describe("The crawler's own words about the outcome, verbatim; null when it had none"),
    statusCode: z.number().int().nullable().describe('The HTTP status the page answered; null when no response came (DNS, TLS, timeout, robots.txt)'),
    contentType: z.string().nullable().describe('The Content-Type header of the answer, verbatim; null when no response came'),
    bytes: z.number().int().nullable().describe('Size of the response body in bytes; null when no response came'),
    durationMs: z.number().int().describe('How long the visit took, in milliseconds'),
    startedAt: ZTimestamp.describe('When the visit started, in ISO 8601'),
    finishedAt: ZTimestamp.describe('When the visit ended, in ISO 8601'),
    extracted: z
      .object({
        title: z.string().nullable().describe('The <title> of the page; null when it has none'),
        metaDescription: z.string().nullable().describe('The meta description; null when the page has none'),
        canonical: z.string().nullable().describe('The canonical URL the page declares, made absolute; null when it declares none'),
        headings: z.array(ZHeading).describe('The h1–h6 headings in page order (at most 200)'),
        textLength: z.number().int().describe('Characters of main text extracted (at most 100,000 are kept); 0 when none was found'),
        textExcerpt: z.string().nullable().describe('The first 300 characters of the main text'),
      })
      .nullable()
      .describe('What the visit extracted; null when it returned nothing to extract'),
  })
  .meta({ id: 'CrawlVisit', description: 'One visit of a tracked page: the outcome, verbatim, and what it extracted.' });

export const ZCrawlChange = z
  .object({
    id: z.uuid().describe('The change, for GET /crawl/changes/{changeId}'),
    siteId: z.uuid().describe('The site of the page'),
    pageId: z.uuid().describe('The tracked page that changed'),
    url: z.string().describe('The page’s address'),
    detectedAt: ZTimestamp.describe('When the visit that saw the change finished, in ISO 8601'),
    fromVisitId: z.uuid().describe('The earlier successful visit compared'),
    toVisitId: z.uuid().describe('The successful visit that saw the change'),
    fields: z
      .array(z.enum(['title', 'metaDescription', 'canonical', 'headings', 'text']))
      .describe('Which extracted fields differ between the two visits; never empty'),
    changes: z
      .record(
        z.string(),
        z.object({
          before: z.unknown().describe('The field in the earlier visit (headings as a list, text its first 500 characters); null when absent'),
          after: z.unknown().describe('The field in the later visit, in the same form; null when absent'),
        }),
      )
      .describe('Per changed field; text before/after are the first 500 characters'),
    diffSummary: z
      .object({
        addedWords: z.number().int().describe('Words of main text the later visit added'),
        removedWords: z.number().int().describe('Words of main text the later visit removed'),
        unchangedWords: z.number().int().describe('Words of main text both visits share'),
        changeRatio: z.number().describe('Share of words added or removed, 0 to 1 (4 decimals); 0 when the text did not change'),
        excerpts: z
          .array(
            z.object({
              type: z.enum(['added', 'removed']).describe('Whether the passage appears only in the later visit (added) or only in the earlier (removed)'),
              text: z.string().describe('The passage, at most 200 characters'),
            }),
          )
          .describe('The first added and removed passages (at most 10), in page order'),
        truncated: z
          .boolean()
          .describe('True when the texts differed too much to compare word by word: counts are then the whole texts, changeRatio is 1, no excerpts'),
      })
      .describe('A word-level comparison of the main text; all zero but unchangedWords when the text did not change'),
  })
  .meta({ id: 'CrawlChange', description: 'A change the crawler saw between two successful visits of a page.' });

/** One side of a change: what the visit extracted, the main text whole (at most 100,000 characters). */
export const ZVisitSnapshot = z
  .object({
    visitId: z.uuid().describe('The visit this side comes from'),
    visitedAt: ZTimestamp.describe('When that visit finished, in ISO 8601'),
    title: z.string().nullable().describe('The <title> of the page; null when it had none'),
    metaDescription: z.string().nullable().describe('The meta description; null when the page had none'),
    canonical: z.string().nullable().describe('The canonical URL the page declared, made absolute; null when none'),
    headings: z.array(ZHeading).describe('The h1–h6 headings in page order (at most 200)'),
    text: z.string().nullable().describe('The whole extracted main text'),
  })
  .meta({ id: 'CrawlVisitSnapshot', description: 'One side of a change: what that visit extracted.' });

export const ZCrawlChangeDetail = ZCrawlChange.extend({
  before: ZVisitSnapshot.describe('The earlier successful visit of the comparison'),
  after: ZVisitSnapshot.describe('The visit that detected the change'),
}).meta({ id: 'CrawlChangeDetail', description: 'A change with both sides whole: the two visits’ extracted fields and main text.' });

export const EMPTY_MEANS = ['visited_no_changes', 'not_visited_in_window', 'fewer_than_two_successful_visits'] as const;
export type EmptyMeans = (typeof EMPTY_MEANS)[number];
/** emptyMeans in words, for people reading an empty list of changes (the app shows these). */
export const EMPTY_MEANS_WORDS: { readonly [K in EmptyMeans]: string } = {
  visited_no_changes: 'The page was visited successfully in this window and nothing changed since the successful visit before.',
  not_visited_in_window: 'The page was not visited in this window, so nothing can be said about changes.',
  fewer_than_two_successful_visits: 'The page was visited, but there are not yet two successful visits to compare.',
};

export const ZChangesProvenance = ZCrawlProvenance.extend({
  window: z
    .object({ from: ZDay.describe('First day of the window, inclusive'), to: ZDay.describe('Last day of the window, inclusive') })
    .describe('The days the changes were looked for, in timeZone'),
  timeZone: z.string().describe('The workspace’s IANA time zone the window’s days are read in'),
  emptyMeans: z
    .enum(EMPTY_MEANS)
    .nullable()
    .describe(
      'Set when data is empty: visited_no_changes (at least two successful visits in the window, nothing changed), not_visited_in_window (no visit at all in the window), fewer_than_two_successful_visits (visited, but fewer than two successful visits to compare); null when data is not empty',
    ),
  visitsInWindow: z.number().int().describe('Visits of the page in the window, whatever their outcome'),
  successfulVisitsInWindow: z.number().int().describe('Of those, visits whose outcome was ok (the only ones compared)'),
}).meta({ id: 'CrawlChangesProvenance', description: 'Where the changes came from, their window, and what an empty list means.' });

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
