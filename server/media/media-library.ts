// GET /media: the workspace's media library, newest first, searched by name, kind and
// creation time, each asset with the posts that use it (media-usage.ts says what "use" is).
import { sqlRows } from '@/server/db/sql';
import { Prisma, type MediaAsset } from '@/server/generated/prisma/client';
import { isUuid } from '@/server/shared/schemas';
import { usageColumnsSql } from './media-usage';
import { toMediaAssetDto, type ListMediaQuery, type MediaLibraryItemDto } from './media.schemas';

type LibraryRow = MediaAsset & { usedBy: number; usedByIds: string[] };

/** The filters as one condition on `a`, shared by the page and its total. */
function libraryFilter(workspaceId: string, q: ListMediaQuery): Prisma.Sql {
  const parts = [Prisma.sql`a."workspaceId" = ${workspaceId}::uuid`, Prisma.sql`a."status" = ${q.status}`];
  if (q.kind) parts.push(Prisma.sql`a."kind" = ${q.kind}`);
  if (q.from) parts.push(Prisma.sql`a."createdAt" >= ${new Date(q.from)}`);
  if (q.to) parts.push(Prisma.sql`a."createdAt" <= ${new Date(q.to)}`);
  if (q.search) {
    const like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(Prisma.sql`a."name" ILIKE ${like}`);
  }
  return Prisma.join(parts, ' AND ');
}

function toItems(rows: LibraryRow[]): MediaLibraryItemDto[] {
  return rows.map((r) => ({ ...toMediaAssetDto(r), usedBy: { posts: r.usedBy, postIds: r.usedByIds } }));
}

/** One page: an index range scan on (workspaceId, createdAt), the usage of just the page's assets. */
export async function listMediaLibrary(workspaceId: string, q: ListMediaQuery): Promise<{ assets: MediaLibraryItemDto[]; total: number }> {
  const where = libraryFilter(workspaceId, q);
  const [rows, [count]] = await Promise.all([
    sqlRows<LibraryRow>(Prisma.sql`
      SELECT a.*, usage."usedBy", usage."usedByIds"
      FROM (SELECT * FROM "MediaAsset" a WHERE ${where} ORDER BY a."createdAt" DESC, a."id" DESC LIMIT ${q.limit} OFFSET ${(q.page - 1) * q.limit}) a
      CROSS JOIN LATERAL (${usageColumnsSql('a')}) usage
      ORDER BY a."createdAt" DESC, a."id" DESC`),
    sqlRows<{ total: number }>(Prisma.sql`SELECT count(*)::int AS "total" FROM "MediaAsset" a WHERE ${where}`),
  ]);
  return {
    assets: toItems(rows),
    total: count?.total ?? 0,
  };
}

/** The staff app's composer opened with assets from the library: these ready ones of the workspace, in the order asked (others left out). */
export async function getMediaLibraryItems(workspaceId: string, ids: readonly string[]): Promise<MediaLibraryItemDto[]> {
  const wanted = [...new Set(ids)].filter(isUuid);
  if (wanted.length === 0) return [];
  const rows = await sqlRows<LibraryRow>(Prisma.sql`
    SELECT a.*, usage."usedBy", usage."usedByIds"
    FROM "MediaAsset" a CROSS JOIN LATERAL (${usageColumnsSql('a')}) usage
    WHERE a."workspaceId" = ${workspaceId}::uuid AND a."status" = 'ready' AND a."id" = ANY(${wanted}::uuid[])`);
  const byId = new Map(toItems(rows).map((a) => [a.id, a]));
  return wanted.flatMap((id) => byId.get(id) ?? []);
}
