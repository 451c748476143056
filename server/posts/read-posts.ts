// GET /posts, GET /posts/{id}, GET /posts/{id}/targets.
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import type { Prisma } from '@/server/generated/prisma/client';
import { isUuid } from '@/server/http/schemas';
import { toPostDto, toPostListRowDto, toTargetDto } from './post-dto';
import type { ListPostsQuery, PostDto, PostListRowDto, TargetDto } from './posts.schemas';

export async function getPost(workspaceId: string, id: string): Promise<PostDto> {
  const post = isUuid(id) ? await db.post.findFirst({ where: { id, workspaceId }, include: { targets: true } }) : null;
  if (!post) throw new AppError('POST_NOT_FOUND', 'No post with that id in this workspace', { field: 'id' });
  return toPostDto(post);
}

export async function listPostTargets(workspaceId: string, id: string): Promise<TargetDto[]> {
  return (await getPost(workspaceId, id)).targets;
}

/**
 * Newest first. Every filter combination is served by an index on (workspaceId, …,
 * createdAt DESC), so a page stays fast at a million posts in a workspace; `total` is an
 * exact count over the same index.
 */
export async function listPosts(workspaceId: string, q: ListPostsQuery): Promise<{ data: PostListRowDto[]; page: number; limit: number; total: number }> {
  const where: Prisma.PostWhereInput = { workspaceId };
  if (q.status) where.status = q.status;
  if (q.platform) where.platforms = { has: q.platform };
  if (q.from || q.to) where.scheduledAt = { ...(q.from ? { gte: new Date(q.from) } : {}), ...(q.to ? { lte: new Date(q.to) } : {}) };
  const [rows, total] = await Promise.all([
    db.post.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: (q.page - 1) * q.limit, take: q.limit, include: { targets: true } }),
    db.post.count({ where }),
  ]);
  return { data: rows.map((p) => toPostListRowDto(p, p.targets)), page: q.page, limit: q.limit, total };
}
