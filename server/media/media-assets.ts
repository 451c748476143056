// Finding and deleting a workspace's media assets.
import { db, type Tx } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import type { MediaAsset } from '@/server/generated/prisma/client';
import { Prisma } from '@/server/generated/prisma/client';
import { isUuid } from '@/server/shared/schemas';
import { postUsesAssetSql, USAGE_IDS_SHOWN } from './media-usage';
import { mediaStorage } from './storage';

/** The asset, or MEDIA_NOT_FOUND for anything that is not this workspace's (ids that are not uuids too). */
export async function findMediaAsset(workspaceId: string, id: string): Promise<MediaAsset> {
  const row = isUuid(id) ? await db.mediaAsset.findFirst({ where: { id, workspaceId } }) : null;
  if (!row) throw new AppError('MEDIA_NOT_FOUND', `No media asset ${id} in this workspace`, { field: 'id' });
  return row;
}

/** "post a, post b and 3 more": the ids a refusal names. */
function listed(ids: readonly string[], total: number): string {
  const more = total - ids.length;
  return `${ids.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** MEDIA_IN_USE, naming the posts, while a post that is not cancelled uses the asset (media-usage.ts). */
async function refuseIfInUse(q: Pick<Tx, '$queryRaw'>, id: string): Promise<void> {
  const users = await q.$queryRaw<{ id: string; total: number }[]>(Prisma.sql`
    SELECT p."id"::text AS "id", (count(*) OVER ())::int AS "total" FROM "Post" p, "MediaAsset" a
    WHERE a."id" = ${id}::uuid AND ${postUsesAssetSql('p', 'a')}
    ORDER BY p."createdAt" DESC, p."id" DESC LIMIT ${USAGE_IDS_SHOWN}`);
  if (!users.length) return;
  const total = users[0]!.total;
  const them = total === 1 ? 'it' : 'them';
  throw new AppError(
    'MEDIA_IN_USE',
    `Media asset ${id} is used by ${total} post${total === 1 ? '' : 's'} (${listed(
      users.map((u) => u.id),
      total,
    )}): remove it from ${total === 1 ? 'that post' : 'those posts'}, or cancel ${them}, before deleting it`,
    { field: 'id' },
  );
}

/** Whether DELETE /media/{id} would run now (checked before an assistant's delete is staged). */
export async function checkDeleteMediaAsset(workspaceId: string, id: string): Promise<void> {
  const asset = await findMediaAsset(workspaceId, id);
  await refuseIfInUse(db, asset.id);
}

/** Long enough for a slow store's delete while the asset row is locked. */
const DELETE_TIMEOUT_MS = 30_000;

/**
 * DELETE /media/{id}: refused with MEDIA_IN_USE while a post that is not cancelled uses the
 * asset (the message lists them). Otherwise the stored object, then the row, under the row's
 * lock: a post saved meanwhile either commits first (and this sees it and refuses) or waits
 * and finds the asset gone (MEDIA_NOT_FOUND; media-usage.ts). When the store cannot be
 * reached nothing is deleted (503), so the call can simply be retried.
 */
export async function deleteMediaAsset(workspaceId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw new AppError('MEDIA_NOT_FOUND', `No media asset ${id} in this workspace`, { field: 'id' });
  await db.$transaction(
    async (tx) => {
      const [asset] = await tx.$queryRaw<Pick<MediaAsset, 'id' | 'storageKey'>[]>`
        SELECT "id"::text AS "id", "storageKey" FROM "MediaAsset" WHERE "id" = ${id}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR UPDATE`;
      if (!asset) throw new AppError('MEDIA_NOT_FOUND', `No media asset ${id} in this workspace`, { field: 'id' });
      await refuseIfInUse(tx, id);
      await mediaStorage().delete(asset.storageKey);
      await tx.mediaAsset.delete({ where: { id } });
    },
    { timeout: DELETE_TIMEOUT_MS },
  );
}
