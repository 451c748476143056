// Rows → wire shapes of Post and Target.
import type { Platform } from '@/server/shared/platforms';
import { iso, isoOrNull, type Stamp } from '@/server/shared/schemas';
import type { Post, PostTarget } from '@/server/generated/prisma/client';
import { postAlert } from './post-alerts';
import type { ThreadPartJson } from './post-rows';
import { storedParts } from './thread-parts';
import type { PostDto, PostListRowDto, TargetDto } from './posts.schemas';

/** A post row from Prisma (Dates) or from a hot read (server/db/sql.ts, ISO strings). */
export type PostRow = { [K in keyof Post]: Post[K] extends Date ? Stamp : Post[K] extends Date | null ? Stamp | null : Post[K] };

/** The target fields the wire shapes need, from a Prisma row or a post-rows.ts JSON row alike. */
export type TargetRow = Pick<
  PostTarget,
  | 'id'
  | 'connectionId'
  | 'platform'
  | 'status'
  | 'postedId'
  | 'permalink'
  | 'error'
  | 'attempts'
  | 'settlement'
  | 'firstCommentStatus'
  | 'firstCommentId'
  | 'firstCommentPermalink'
  | 'firstCommentError'
> & {
  publishedAt: Stamp | null;
  confirmedAt: Stamp | null;
  updatedAt: Stamp;
  /** The thread's later parts (post-rows.ts reads them); absent or null for a single post. */
  thread?: readonly ThreadPartJson[] | null;
};

export function toTargetDto(t: TargetRow): TargetDto {
  return {
    id: t.id,
    connectionId: t.connectionId,
    platform: t.platform as Platform,
    status: t.status as TargetDto['status'],
    postedId: t.postedId,
    permalink: t.permalink,
    error: t.error,
    attempts: t.attempts,
    publishedAt: isoOrNull(t.publishedAt),
    confirmedAt: isoOrNull(t.confirmedAt),
    settlement: t.settlement,
    firstComment:
      t.firstCommentStatus && t.firstCommentStatus !== 'none'
        ? {
            status: t.firstCommentStatus as NonNullable<TargetDto['firstComment']>['status'],
            commentId: t.firstCommentId,
            permalink: t.firstCommentPermalink,
            error: t.firstCommentError,
          }
        : null,
    thread: t.thread?.length
      ? t.thread.map((part) => ({
          position: part.position,
          status: part.status as NonNullable<TargetDto['thread']>[number]['status'],
          postedId: part.postedId,
          permalink: part.permalink,
          error: part.error,
          confirmedAt: isoOrNull(part.confirmedAt),
        }))
      : null,
    updatedAt: iso(t.updatedAt),
  };
}

/** What shipped and what failed, summarised from the targets (null when nothing yet). */
function outcomes(targets: TargetRow[] | undefined): Pick<PostDto, 'platformPostIds' | 'error'> {
  if (!targets) return { platformPostIds: null, error: null };
  const shipped = targets.filter((t) => t.status === 'published' && t.postedId);
  // A target fails as a whole, or its thread stops at a part the network refused.
  const failed = targets.flatMap((t) => {
    if (t.status === 'failed') return [`${t.platform}: ${t.error ?? 'failed'}`];
    const part = t.thread?.find((p) => p.status === 'failed');
    return part ? [`${t.platform}: ${part.error ?? `part ${part.position} failed`}`] : [];
  });
  return {
    platformPostIds: shipped.length ? Object.fromEntries(shipped.map((t) => [t.connectionId, t.postedId!])) : null,
    error: failed.length ? failed.join('; ') : null,
  };
}

export function toPostListRowDto(p: PostRow, targets?: TargetRow[], now?: Date): PostListRowDto {
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
    scheduledAt: isoOrNull(p.scheduledAt),
    queued: p.queued ?? false,
    publishedAt: isoOrNull(p.publishedAt),
    platformSettings: (p.platformSettings as PostDto['platformSettings']) ?? null,
    firstComment: p.firstComment ?? null,
    parts: storedParts(p.parts).map((part) => ({ content: part.content, mediaUrls: part.mediaUrls })),
    ...outcomes(targets),
    alert: postAlert(p, now),
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
  };
}

export function toPostDto(p: PostRow & { targets: TargetRow[] }): PostDto {
  const ids = p.connectionIds ?? [];
  const ordered = [...p.targets].sort((a, b) => ids.indexOf(a.connectionId) - ids.indexOf(b.connectionId));
  return { ...toPostListRowDto(p, ordered), targets: ordered.map(toTargetDto) };
}
