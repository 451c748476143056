// Which posts use a media asset, and the lock that keeps that answer true while an asset is
// deleted (docs/decisions.md → Media library).
//
// A post uses an asset when it is not cancelled and either its resolved `media` carries the
// asset's id (every post written since media were resolved) or its `mediaUrls` carry the
// asset's URL (what platforms are sent; also the only trace on a post written before `media`
// existed), or a part of its thread carries the asset's id. Matching either keeps the answer
// right whichever of the two a writer filled in.
import { Prisma } from '@/server/generated/prisma/client';
import type { Tx } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';

/** Post ids listed in a usage or a refusal; the count is always complete. */
export const USAGE_IDS_SHOWN = 20;

/** The condition on `p` (a Post) for "uses the asset `a`" (a MediaAsset), same workspace. */
export function postUsesAssetSql(p: string, a: string): Prisma.Sql {
  const post = Prisma.raw(`"${p}"`);
  const asset = Prisma.raw(`"${a}"`);
  return Prisma.sql`${post}."workspaceId" = ${asset}."workspaceId" AND ${post}."status" <> 'cancelled'
    AND (${post}."media" @> jsonb_build_array(jsonb_build_object('assetId', ${asset}."id"::text))
      OR ${post}."parts" @> jsonb_build_array(jsonb_build_object('media', jsonb_build_array(jsonb_build_object('assetId', ${asset}."id"::text))))
      OR (${asset}."url" IS NOT NULL AND ${post}."mediaUrls" @> ARRAY[${asset}."url"]))`;
}

/** `count` and the newest posts' ids (at most USAGE_IDS_SHOWN) as columns "usedBy" and "usedByIds", for a LATERAL join. */
export function usageColumnsSql(a: string): Prisma.Sql {
  return Prisma.sql`SELECT count(*)::int AS "usedBy",
      COALESCE((array_agg(u."id"::text ORDER BY u."createdAt" DESC, u."id" DESC))[1:${USAGE_IDS_SHOWN}], '{}') AS "usedByIds"
    FROM "Post" u WHERE ${postUsesAssetSql('u', a)}`;
}

/** In a write that references assets: hold each asset (KEY SHARE) until the write commits, so a concurrent delete waits and then sees the post, or has already removed the asset and the write is refused. */
export async function holdMediaAssets(tx: Tx, workspaceId: string, refs: readonly { assetId: string; field: string }[]): Promise<void> {
  if (refs.length === 0) return;
  const ids = [...new Set(refs.map((r) => r.assetId))];
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id"::text AS "id" FROM "MediaAsset" WHERE "workspaceId" = ${workspaceId}::uuid AND "id" = ANY(${ids}::uuid[]) FOR KEY SHARE`;
  const held = new Set(rows.map((r) => r.id));
  const gone = refs.find((r) => !held.has(r.assetId));
  if (gone) throw new AppError('MEDIA_NOT_FOUND', `Media asset ${gone.assetId} was deleted while this post was being saved`, { field: gone.field });
}
