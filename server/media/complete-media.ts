// POST /media/{id}/complete: check what was uploaded against what was declared, read the
// size and duration, and make the asset ready. Completing a ready asset returns it as is.
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import type { MediaAsset } from '@/server/generated/prisma/client';
import { inspectObject } from './inspect/inspect-object';
import { sameFamily } from './inspect/sniff';
import { findMediaAsset } from './media-assets';
import { normaliseContentType, type AcceptedContentType } from './media-rules';
import { toMediaAssetDto, type MediaAssetDto } from './media.schemas';
import { mediaStorage, type MediaStorage } from './storage';

/**
 * Bytes that do not match the declaration are removed from storage (they must not stay at a
 * public URL) and the asset keeps waiting: the client can PUT the right file and complete again.
 */
async function refuse(storage: MediaStorage, asset: MediaAsset, error: AppError): Promise<never> {
  await storage.delete(asset.storageKey);
  throw error;
}

export async function completeMediaAsset(workspaceId: string, id: string): Promise<MediaAssetDto> {
  const asset = await findMediaAsset(workspaceId, id);
  if (asset.status === 'ready') return toMediaAssetDto(asset);

  const storage = mediaStorage();
  const stored = await storage.head(asset.storageKey);
  if (!stored) {
    throw new AppError('MEDIA_NOT_READY', `No bytes have been uploaded for media asset ${id} yet: PUT the file to its upload URL, then complete`);
  }
  if (stored.bytes !== asset.bytes) {
    await refuse(
      storage,
      asset,
      new AppError(
        'MEDIA_NOT_READY',
        `Storage received ${stored.bytes} bytes for media asset ${id}, but ${asset.bytes} were declared; they were discarded: PUT exactly ${asset.bytes} bytes, then complete`,
      ),
    );
  }
  if (normaliseContentType(stored.contentType) !== asset.contentType) {
    await refuse(
      storage,
      asset,
      new AppError('VALIDATION_FAILED', `The file was stored as ${stored.contentType}, but ${asset.contentType} was declared`, { field: 'contentType' }),
    );
  }

  const found = await inspectObject(storage, asset.storageKey);
  if (!found.ok) {
    await refuse(
      storage,
      asset,
      new AppError('VALIDATION_FAILED', `The uploaded file is ${found.problem}; ${asset.contentType} was declared`, { field: 'contentType' }),
    );
  } else if (!sameFamily(asset.contentType as AcceptedContentType, found.contentType)) {
    await refuse(
      storage,
      asset,
      new AppError('VALIDATION_FAILED', `The uploaded file is ${found.contentType}, not ${asset.contentType} as declared`, { field: 'contentType' }),
    );
  }
  const info = found as Extract<typeof found, { ok: true }>;

  await db.mediaAsset.updateMany({
    where: { id: asset.id, workspaceId, status: 'awaiting_upload' },
    data: {
      status: 'ready',
      url: storage.publicUrl(asset.storageKey),
      durationMs: info.durationMs,
      width: info.width,
      height: info.height,
      completedAt: new Date(),
    },
  });
  // Re-read: a concurrent completion or deletion may have got there first.
  return toMediaAssetDto(await findMediaAsset(workspaceId, id));
}
