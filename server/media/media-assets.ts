// Finding and deleting a workspace's media assets.
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import type { MediaAsset } from '@/server/generated/prisma/client';
import { isUuid } from '@/server/shared/schemas';
import { mediaStorage } from './storage';

/** The asset, or MEDIA_NOT_FOUND for anything that is not this workspace's (ids that are not uuids too). */
export async function findMediaAsset(workspaceId: string, id: string): Promise<MediaAsset> {
  const row = isUuid(id) ? await db.mediaAsset.findFirst({ where: { id, workspaceId } }) : null;
  if (!row) throw new AppError('MEDIA_NOT_FOUND', `No media asset ${id} in this workspace`, { field: 'id' });
  return row;
}

/**
 * DELETE /media/{id}: the stored object first, then the row. When the store cannot be
 * reached nothing is deleted (503), so the call can simply be retried.
 */
export async function deleteMediaAsset(workspaceId: string, id: string): Promise<void> {
  const asset = await findMediaAsset(workspaceId, id);
  await mediaStorage().delete(asset.storageKey);
  await db.mediaAsset.deleteMany({ where: { id: asset.id, workspaceId } });
}
