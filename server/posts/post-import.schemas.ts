// Wire schemas of importing and exporting posts (REST, tRPC, tools and the app's Import page
// share them; database-free, so the browser may import it). The columns are documented in
// docs/post-import.md.
import { z } from 'zod';
import { POST_METRICS } from '@/server/platforms/insights';
import { PLATFORMS } from '@/server/shared/platforms';
import { ZNullableTimestamp, ZText, ZWarning } from '@/server/shared/schemas';
import { ZListPostsQuery } from './posts.schemas';

export const IMPORT_FORMATS = ['csv', 'json'] as const;
/** Rows per file: the bench imports this many in well under a minute (docs/performance.md). */
export const MAX_IMPORT_ROWS = 10_000;
/**
 * A file of posts may be larger than the API's general body limit: 10,000 rows of a few
 * hundred characters are 1–3 MB. The import routes read bodies up to this (plus the JSON
 * around the text); the file's text itself is capped here.
 */
export const MAX_IMPORT_BYTES = 8 * 1024 * 1024;
export const MAX_IMPORT_BODY_BYTES = MAX_IMPORT_BYTES + 64 * 1024;
/** Posts per export: the same bound, so an export always reads back in one import. */
export const MAX_EXPORT_ROWS = MAX_IMPORT_ROWS;

/** The columns an import reads. `variant.<platform>` is one per platform. */
export const IMPORT_COLUMNS = [
  'id',
  'content',
  'accounts',
  ...PLATFORMS.map((p) => `variant.${p}` as const),
  'media',
  'scheduledAt',
  'queue',
  'requireApproval',
  'platformSettings',
] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];

/** What an export adds after the import columns: read back, they are ignored. */
export const EXPORT_ONLY_COLUMNS = ['status', 'approvalStatus', 'queued', 'publishedAt', 'createdAt', ...POST_METRICS, 'engagement'] as const;

export const ZImportInput = z
  .strictObject({
    format: z.enum(IMPORT_FORMATS).describe('csv (a header row, then a post per record) or json (an array of objects keyed by the columns)'),
    content: ZText.min(1)
      .max(MAX_IMPORT_BYTES)
      .describe(`The file's text: at most ${MAX_IMPORT_ROWS} posts and ${MAX_IMPORT_BYTES / 1024 / 1024} MiB (columns: docs/post-import.md)`),
  })
  .meta({
    example: {
      format: 'csv',
      content:
        'content,accounts,variant.twitter,media,scheduledAt\r\n"Our autumn menu is here: pumpkin spice is back from Monday.",linkedin:acme-coffee; twitter:acmecoffee,Pumpkin spice is back 🎃,https://acme-coffee.example/images/autumn-menu.jpg,2026-12-03 09:00\r\n',
    },
  });
export type ImportInput = z.infer<typeof ZImportInput>;

export const ZImportProblem = z
  .object({
    column: z.string().describe('The column it concerns'),
    code: z.string().describe('The code POST /posts answers for it'),
    message: z.string().describe('In words'),
  })
  .meta({ id: 'ImportProblem', description: 'A problem with one column of an import row.' });
export type ImportProblem = z.infer<typeof ZImportProblem>;

export const ZImportRow = z
  .object({
    row: z.number().int().describe('The post’s number in the file, from 1'),
    line: z.number().int().nullable().describe('The CSV line the record starts on; null for JSON'),
    status: z.enum(['ready', 'invalid', 'already_imported']).describe('already_imported: its post exists'),
    postId: z.uuid().nullable().describe('The existing post when already_imported'),
    content: z.string().describe('The text, as read'),
    accounts: z
      .array(
        z.object({
          id: z.uuid().describe('The connection the post will go to'),
          platform: z.enum(PLATFORMS).describe('Its platform'),
          name: z.string().describe('The account’s display name'),
        }),
      )
      .describe('The accounts, resolved'),
    when: z.enum(['draft', 'queue', 'at']).describe('draft, queue (next free slot) or at (scheduledAt)'),
    scheduledAt: ZNullableTimestamp.describe('The time, when `when` is at'),
    media: z.array(z.string()).describe('Media URLs, fetched by the import'),
    problems: z.array(ZImportProblem).describe('Every problem, per column'),
    warnings: z.array(ZWarning).describe('What the import will change'),
  })
  .meta({ id: 'ImportRow', description: 'One post of an import file: as read, resolved, and every problem found.' });
export type ImportRow = z.infer<typeof ZImportRow>;

export const ZImportPreview = z
  .object({
    rows: z.array(ZImportRow).describe('Every post of the file, in file order'),
    totals: z
      .object({
        rows: z.number().int().describe('Posts in the file'),
        ready: z.number().int().describe('Rows an import would create'),
        invalid: z.number().int().describe('Rows with at least one problem; any of them refuses the whole import'),
        alreadyImported: z.number().int().describe('Rows whose post an earlier import created'),
      })
      .describe('The rows counted by status'),
    ignoredColumns: z.array(z.string()).describe('Export-only columns, not read'),
  })
  .meta({ id: 'ImportPreview', description: 'What an import of the file would do, row by row; nothing is created.' });
export type ImportPreview = z.infer<typeof ZImportPreview>;

export const ZImportResult = z
  .object({
    created: z.number().int().describe('Posts created'),
    alreadyImported: z.number().int().describe('Rows whose post exists'),
    posts: z
      .array(
        z.object({
          row: z.number().int().describe('The post’s number in the file, from 1'),
          postId: z.uuid().describe('The post the row made, or made earlier'),
          status: z.enum(['created', 'already_imported']).describe('created: by this import; already_imported: by an earlier one, left as it is'),
        }),
      )
      .describe('Each row’s post'),
  })
  .meta({ id: 'ImportResult', description: 'What an import did: every row’s post, created now or by an earlier import.' });
export type ImportResult = z.infer<typeof ZImportResult>;

/** GET /posts/export: the list's filters, without paging (every matching post, newest first). */
export const ZExportPostsQuery = ZListPostsQuery.omit({ page: true, limit: true });
export type ExportPostsQuery = z.infer<typeof ZExportPostsQuery>;

export const ZPostsCsv = z
  .object({
    filename: z.string(),
    contentType: z.literal('text/csv'),
    rows: z.number().int(),
    csv: z.string(),
  })
  .meta({ id: 'PostsCsv' });
