// GET /posts, GET /posts/{id}, GET /posts/{id}/targets.
import { sqlRows } from '@/server/db/sql';
import { AppError } from '@/server/errors/app-error';
import { Prisma } from '@/server/generated/prisma/client';
import { isUuid } from '@/server/shared/schemas';
import { alertSql } from './post-alerts';
import { TARGETS_JSON, type PostReadRow } from './post-rows';
import { toPostDto, toPostListRowDto } from './post-dto';
import type { ListPostsQuery, PostDto, PostListRowDto, TargetDto } from './posts.schemas';

/** The post row with its targets, or POST_NOT_FOUND for anything outside this workspace. */
export async function findPostRow(workspaceId: string, id: string): Promise<PostReadRow> {
  const rows = isUuid(id)
    ? await sqlRows<PostReadRow>(Prisma.sql`SELECT p.*, ${TARGETS_JSON} FROM "Post" p WHERE p."id" = ${id}::uuid AND p."workspaceId" = ${workspaceId}::uuid`, {
        timestamps: 'iso',
      })
    : [];
  if (!rows[0]) throw new AppError('POST_NOT_FOUND', 'No post with that id in this workspace', { field: 'id' });
  return rows[0];
}

export async function getPost(workspaceId: string, id: string): Promise<PostDto> {
  return toPostDto(await findPostRow(workspaceId, id));
}

export async function listPostTargets(workspaceId: string, id: string): Promise<TargetDto[]> {
  return (await getPost(workspaceId, id)).targets;
}

/** The list filters as one SQL condition, shared by the page, its total and the export. */
export function listFilter(workspaceId: string, q: Omit<ListPostsQuery, 'page' | 'limit'>): Prisma.Sql {
  const parts = [Prisma.sql`"workspaceId" = ${workspaceId}::uuid`];
  if (q.status) parts.push(Prisma.sql`"status" = ${q.status}`);
  if (q.platform) parts.push(Prisma.sql`"platforms" @> ARRAY[${q.platform}]::text[]`);
  if (q.from) parts.push(Prisma.sql`"scheduledAt" >= ${new Date(q.from)}`);
  if (q.to) parts.push(Prisma.sql`"scheduledAt" <= ${new Date(q.to)}`);
  if (q.alert) parts.push(alertSql(q.alert));
  if (q.search) {
    const like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(Prisma.sql`("content" ILIKE ${like} OR coalesce("variants"::text, '') ILIKE ${like})`);
  }
  return Prisma.join(parts, ' AND ');
}

/**
 * `total` without counting rows: status and platform filters are read from the counters the
 * Post triggers keep (model PostCount). A time window (from/to) is counted directly on the
 * scheduledAt index — windows are narrow in practice; so are alert and text searches.
 */
async function countPosts(workspaceId: string, q: ListPostsQuery, where: Prisma.Sql): Promise<number> {
  if (q.from || q.to || q.alert || q.search) {
    const [row] = await sqlRows<{ total: number }>(Prisma.sql`SELECT count(*)::int AS "total" FROM "Post" WHERE ${where}`);
    return row?.total ?? 0;
  }
  const [row] = await sqlRows<{ total: number }>(Prisma.sql`
    SELECT COALESCE(SUM("n"), 0)::int AS "total" FROM "PostCount"
    WHERE "workspaceId" = ${workspaceId}::uuid AND "platform" = ${q.platform ?? '*'} ${q.status ? Prisma.sql`AND "status" = ${q.status}` : Prisma.empty}`);
  return row?.total ?? 0;
}

/**
 * Newest first. The page is an index range scan on (workspaceId, [status,] createdAt DESC);
 * the total comes from the counters. Numbers at a million posts: bench/list-posts.ts.
 */
export async function listPosts(workspaceId: string, q: ListPostsQuery): Promise<{ posts: PostListRowDto[]; total: number }> {
  const where = listFilter(workspaceId, q);
  const [rows, total] = await Promise.all([
    sqlRows<PostReadRow>(
      Prisma.sql`SELECT p.*, ${TARGETS_JSON} FROM "Post" p WHERE ${where}
      ORDER BY p."createdAt" DESC, p."id" DESC LIMIT ${q.limit} OFFSET ${(q.page - 1) * q.limit}`,
      { timestamps: 'iso' },
    ),
    countPosts(workspaceId, q, where),
  ]);
  const now = new Date();
  return {
    posts: rows.map((p) => toPostListRowDto(p, p.targets, now)),
    total,
  };
}
