// Rows → wire shapes of Post and Target.
import type { Platform } from '@/server/shared/platforms';
import type { Post, PostTarget } from '@/server/generated/prisma/client';
import { postAlert } from './post-alerts';
import type { PostDto, PostListRowDto, TargetDto } from './posts.schemas';

export function toTargetDto(t: PostTarget): TargetDto {
  return {
    id: t.id,
    connectionId: t.connectionId,
    platform: t.platform as Platform,
    status: t.status as TargetDto['status'],
    postedId: t.postedId,
    permalink: t.permalink,
    error: t.error,
    attempts: t.attempts,
    publishedAt: t.publishedAt?.toISOString() ?? null,
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** What shipped and what failed, summarised from the targets (null when nothing yet). */
function outcomes(targets: PostTarget[] | undefined): Pick<PostDto, 'platformPostIds' | 'error'> {
  if (!targets) return { platformPostIds: null, error: null };
  const shipped = targets.filter((t) => t.status === 'published' && t.postedId);
  const failed = targets.filter((t) => t.status === 'failed');
  return {
    platformPostIds: shipped.length ? Object.fromEntries(shipped.map((t) => [t.connectionId, t.postedId!])) : null,
    error: failed.length ? failed.map((t) => `${t.platform}: ${t.error ?? 'failed'}`).join('; ') : null,
  };
}

export function toPostListRowDto(p: Post, targets?: PostTarget[]): PostListRowDto {
  return {
    // Scalar lists are nullable columns (Prisma writes NULL when a create leaves them out);
    // the wire shape is always an array.
    id: p.id,
    content: p.content,
    variants: (p.variants as PostDto['variants']) ?? null,
    mediaUrls: (p.mediaUrls as string[] | null) ?? [],
    platforms: ((p.platforms as string[] | null) ?? []) as Platform[],
    connectionIds: (p.connectionIds as string[] | null) ?? [],
    status: p.status as PostDto['status'],
    approvalStatus: p.approvalStatus as PostDto['approvalStatus'],
    scheduledAt: p.scheduledAt?.toISOString() ?? null,
    publishedAt: p.publishedAt?.toISOString() ?? null,
    platformSettings: (p.platformSettings as PostDto['platformSettings']) ?? null,
    ...outcomes(targets),
    alert: postAlert(p),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export function toPostDto(p: Post & { targets: PostTarget[] }): PostDto {
  const ids = p.connectionIds ?? [];
  const ordered = [...p.targets].sort((a, b) => ids.indexOf(a.connectionId) - ids.indexOf(b.connectionId));
  return { ...toPostListRowDto(p, ordered), targets: ordered.map(toTargetDto) };
}
