// GET /posts/export: the posts of any list filter as a CSV file, one row per post, in the
// import's columns (so the file reads back through POST /posts/import) followed by what an
// import ignores: the post's state and its results, summed over its accounts from each
// published target's newest reading (PostTargetResult); an empty cell is no value.
import { sqlRows } from '@/server/db/sql';
import { AppError } from '@/server/errors/app-error';
import { Prisma } from '@/server/generated/prisma/client';
import { POST_METRICS } from '@/server/platforms/insights';
import { csvCell } from '@/server/shared/csv';
import { PLATFORMS, type Platform } from '@/server/shared/platforms';
import { EXPORT_ONLY_COLUMNS, MAX_EXPORT_ROWS, type ExportPostsQuery } from './post-import.schemas';
import { listFilter } from './read-posts';

interface ExportRow {
  id: string;
  content: string;
  variants: Partial<Record<Platform, { content: string }>> | null;
  mediaUrls: string[];
  status: string;
  approvalStatus: string;
  requireApproval: boolean;
  queued: boolean;
  scheduledAt: Date | null;
  publishedAt: Date | null;
  createdAt: Date;
  platformSettings: unknown;
  accounts: { platform: string | null; accountName: string | null; id: string }[];
  readings: number;
  results: Record<string, number | null>;
}

const metricSums = Prisma.raw([...POST_METRICS, 'engagement'].map((m) => `'${m}', sum(r."${m}")`).join(', '));

export async function exportPostsCsv(workspaceId: string, query: ExportPostsQuery) {
  const rows = await sqlRows<ExportRow>(Prisma.sql`
    SELECT p.id, p.content, p.variants, p."mediaUrls", p.status, p."approvalStatus", p."requireApproval", p.queued,
           p."scheduledAt", p."publishedAt", p."createdAt", p."platformSettings",
           COALESCE((SELECT json_agg(json_build_object('platform', c.platform, 'accountName', c."accountName", 'id', a.id) ORDER BY a.n)
                       FROM unnest(p."connectionIds") WITH ORDINALITY AS a(id, n) LEFT JOIN "Connection" c ON c.id::text = a.id), '[]'::json) AS accounts,
           (SELECT count(r."readingId")::int FROM "PostTargetResult" r WHERE r."postId" = p.id) AS readings,
           (SELECT json_build_object(${metricSums}) FROM "PostTargetResult" r WHERE r."postId" = p.id) AS results
      FROM (SELECT * FROM "Post" WHERE ${listFilter(workspaceId, query)}) p
     ORDER BY p."createdAt" DESC, p.id DESC
     LIMIT ${MAX_EXPORT_ROWS + 1}`);
  if (rows.length > MAX_EXPORT_ROWS) {
    throw new AppError('VALIDATION_FAILED', `More than ${MAX_EXPORT_ROWS} posts match: narrow the filter (status, platform, from, to)`, { field: 'from' });
  }
  // Only the variant columns some exported post uses.
  const variantPlatforms = PLATFORMS.filter((p) => rows.some((r) => r.variants?.[p]));
  const header = [
    'id',
    'content',
    'accounts',
    ...variantPlatforms.map((p) => `variant.${p}`),
    'media',
    'scheduledAt',
    'requireApproval',
    'platformSettings',
    ...EXPORT_ONLY_COLUMNS,
  ];
  const lines = [header.join(',')];
  for (const r of rows) {
    lines.push(
      [
        r.id,
        r.content,
        // platform:handle names an account unambiguously in any workspace that has it; the id when it is gone.
        r.accounts.map((a) => (a.accountName && a.platform ? `${a.platform}:${a.accountName}` : a.id)).join('; '),
        ...variantPlatforms.map((p) => r.variants?.[p]?.content ?? null),
        r.mediaUrls.join(' ') || null,
        r.scheduledAt?.toISOString() ?? null,
        r.requireApproval,
        r.platformSettings ? JSON.stringify(r.platformSettings) : null,
        r.status,
        r.approvalStatus,
        r.queued,
        r.publishedAt?.toISOString() ?? null,
        r.createdAt.toISOString(),
        ...[...POST_METRICS, 'engagement'].map((m) => (r.readings > 0 ? (r.results?.[m] ?? null) : null)),
      ]
        .map(csvCell)
        .join(','),
    );
  }
  const day = new Date().toISOString().slice(0, 10);
  return { filename: `posts-${day}.csv`, contentType: 'text/csv' as const, rows: rows.length, csv: `${lines.join('\r\n')}\r\n` };
}
