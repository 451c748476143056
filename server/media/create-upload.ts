// POST /media/upload-url: an asset awaiting its bytes, and where to PUT them.
import { randomUUID } from 'node:crypto';
import { fallbackName, nameFromFilename } from './asset-name';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import {
  acceptedType,
  ACCEPTED_CONTENT_TYPES,
  megabytes,
  normaliseContentType,
  storageKey,
  UPLOAD_MAX_BYTES,
  UPLOAD_URL_TTL_MS,
  type AcceptedContentType,
} from './media-rules';
import { toMediaAssetDto, type MediaAssetWithUploadDto, type UploadUrlInput } from './media.schemas';
import { mediaStorage } from './storage';

/** The declaration's own rules, before anything is stored. */
function checkDeclaration(input: UploadUrlInput): AcceptedContentType {
  const contentType = normaliseContentType(input.contentType);
  const accepted = acceptedType(contentType);
  if (!accepted) {
    throw new AppError('VALIDATION_FAILED', `contentType "${input.contentType}" is not accepted; use one of ${ACCEPTED_CONTENT_TYPES.join(', ')}`, {
      field: 'contentType',
    });
  }
  if (accepted.kind !== input.kind) {
    throw new AppError(
      'VALIDATION_FAILED',
      `contentType ${contentType} is ${accepted.kind === 'image' ? 'an image' : 'a video'} type, but kind is ${input.kind}`,
      { field: 'contentType' },
    );
  }
  const max = UPLOAD_MAX_BYTES[input.kind];
  if (input.bytes > max) {
    throw new AppError(
      'MEDIA_TOO_LARGE',
      `${input.kind === 'image' ? 'Images' : 'Videos'} may be at most ${megabytes(max)} (${max} bytes); this one is ${input.bytes} bytes`,
      { field: 'bytes' },
    );
  }
  return contentType as AcceptedContentType;
}

export async function createUpload(workspaceId: string, input: UploadUrlInput): Promise<MediaAssetWithUploadDto> {
  const contentType = checkDeclaration(input);
  const id = randomUUID();
  const key = storageKey(workspaceId, id, contentType);
  const expiresAt = new Date(Date.now() + UPLOAD_URL_TTL_MS);
  // Presign first: an unavailable store answers 503 before any row exists.
  const upload = await mediaStorage().presignUpload({ key, contentType, bytes: input.bytes, expiresAt });
  const row = await db.mediaAsset.create({
    data: {
      id,
      workspaceId,
      name: nameFromFilename(input.filename) ?? fallbackName(input.kind, id, key),
      kind: input.kind,
      contentType,
      bytes: input.bytes,
      status: 'awaiting_upload',
      source: 'upload',
      storageKey: key,
    },
  });
  return { ...toMediaAssetDto(row), upload: { ...upload, expiresAt: expiresAt.toISOString() } } as MediaAssetWithUploadDto;
}
