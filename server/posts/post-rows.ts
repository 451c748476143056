// A post row together with its targets, in one round trip: the shape every post read and the
// post insert come back in. PostgreSQL builds the targets as one JSON column; timestamps are
// formatted in SQL (the columns hold UTC) as ISO 8601 strings, the form post-dto.ts sends.
import { randomUUID } from 'node:crypto';
import type { Tx } from '@/server/db/client';
import { sqlRows, type IsoTimestamps } from '@/server/db/sql';
import { Prisma, type Post, type PostTarget } from '@/server/generated/prisma/client';

const ts = (column: string) => Prisma.raw(`to_char(t."${column}", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** The targets of the rows `from` yields, as a JSON array ordered like the table's reads. */
const targetsJson = (from: Prisma.Sql) => Prisma.sql`COALESCE((
  SELECT json_agg(json_build_object(
    'id', t."id", 'postId', t."postId", 'connectionId', t."connectionId", 'platform', t."platform", 'status', t."status",
    'postedId', t."postedId", 'permalink', t."permalink", 'error', t."error", 'attempts', t."attempts",
    'attemptStartedAt', ${ts('attemptStartedAt')}, 'publishedAt', ${ts('publishedAt')},
    'confirmedAt', ${ts('confirmedAt')}, 'settlement', t."settlement",
    'firstCommentStatus', t."firstCommentStatus", 'firstCommentId', t."firstCommentId",
    'firstCommentPermalink', t."firstCommentPermalink", 'firstCommentError', t."firstCommentError",
    'thread', (SELECT json_agg(json_build_object('position', x."position", 'status', x."status", 'postedId', x."postedId",
        'permalink', x."permalink", 'error', x."error", 'confirmedAt', to_char(x."confirmedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY x."position")
      FROM "PostThreadPart" x WHERE x."targetId" = t."id"),
    'createdAt', ${ts('createdAt')}, 'updatedAt', ${ts('updatedAt')}
  ) ORDER BY t."createdAt", t."id")
  FROM ${from}), '[]'::json) AS "targets"`;

/** `SELECT p.*, ${TARGETS_JSON} FROM "Post" p …`: each post with its targets. */
export const TARGETS_JSON = targetsJson(Prisma.sql`"PostTarget" t WHERE t."postId" = p."id"`);

/**
 * A target as the JSON column gives it: timestamps stay the ISO 8601 strings SQL formatted,
 * which is exactly what the wire shapes send (post-dto.ts takes them as they are), instead
 * of a Date per timestamp that is only turned back into the same string.
 */
export type TargetJson = Omit<
  PostTarget,
  | 'attemptStartedAt'
  | 'publishedAt'
  | 'createdAt'
  | 'updatedAt'
  | 'engagement'
  | 'engagementCollectedAt'
  | 'firstCommentAttempts'
  | 'firstCommentStartedAt'
  | 'trackedContent'
  | 'trackedFirstComment'
  | 'trackedParts'
> &
  Record<'attemptStartedAt' | 'publishedAt', string | null> &
  Record<'createdAt' | 'updatedAt', string> & { thread: ThreadPartJson[] | null };
/** A thread's later part on a target, as the JSON column gives it. */
export interface ThreadPartJson {
  position: number;
  status: string;
  postedId: string | null;
  permalink: string | null;
  error: string | null;
  confirmedAt: string | null;
}
export type PostWithTargets = Post & { targets: TargetJson[] };
/** A post as the hot reads give it: every timestamp an ISO 8601 string (server/db/sql.ts). */
export type PostReadRow = IsoTimestamps<Post> & { targets: TargetJson[] };

export interface NewPost {
  workspaceId: string;
  content: string;
  variants: unknown;
  media: unknown;
  mediaUrls: string[];
  platforms: string[];
  connections: { id: string; platform: string }[];
  status: 'draft' | 'scheduled';
  /** Placed by the posting queue. */
  queued?: boolean;
  approvalStatus: 'none' | 'pending';
  approvalRequestedBy: string | null;
  approvalRequestedAt: Date | null;
  requireApproval: boolean;
  scheduledAt: Date | null;
  platformSettings: unknown;
  firstComment?: string | null;
  /** A thread's later parts, as stored (thread-parts.ts). */
  parts?: unknown;
  /** The published post an evergreen repeat copies. */
  evergreenOf?: string | null;
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/**
 * Inserts a post and one pending target per connection, and returns them, in one statement
 * (a data-modifying CTE): atomic on its own, and one round trip instead of Prisma's nested
 * create (insert, insert, select, select). The post-count triggers see it like any insert.
 * Inside `tx` when the caller writes more with it; otherwise on the driver (server/db/sql.ts).
 */
export async function insertPostRow(p: NewPost, tx?: Pick<Tx, '$queryRaw'>): Promise<PostWithTargets> {
  const id = randomUUID();
  const now = new Date();
  const statement = Prisma.sql`
    WITH p AS (
      INSERT INTO "Post" ("id", "workspaceId", "content", "variants", "media", "mediaUrls", "platforms", "connectionIds", "status",
        "approvalStatus", "approvalRequestedBy", "approvalRequestedAt", "requireApproval", "scheduledAt", "platformSettings", "firstComment", "parts", "queued", "evergreenOf", "createdAt", "updatedAt")
      VALUES (${id}::uuid, ${p.workspaceId}::uuid, ${p.content}, ${json(p.variants)}::jsonb, ${json(p.media) ?? '[]'}::jsonb, ${p.mediaUrls}::text[],
        ${p.platforms}::text[], ${p.connections.map((c) => c.id)}::text[], ${p.status}, ${p.approvalStatus}, ${p.approvalRequestedBy},
        ${p.approvalRequestedAt}, ${p.requireApproval}, ${p.scheduledAt}, ${json(p.platformSettings)}::jsonb, ${p.firstComment ?? null}, ${json(p.parts) ?? '[]'}::jsonb, ${p.queued ?? false}, ${p.evergreenOf ?? null}::uuid, ${now}, ${now})
      RETURNING *
    ), t AS (
      INSERT INTO "PostTarget" ("id", "postId", "connectionId", "platform", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), ${id}::uuid, c.id, c.platform, ${now}, ${now}
      FROM unnest(${p.connections.map((c) => c.id)}::uuid[], ${p.connections.map((c) => c.platform)}::text[]) AS c(id, platform)
      RETURNING *
    )
    SELECT p.*, ${targetsJson(Prisma.sql`t`)} FROM p`;
  const rows = tx ? await tx.$queryRaw<PostWithTargets[]>(statement) : await sqlRows<PostWithTargets>(statement);
  return rows[0]!;
}
