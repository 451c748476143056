import { z } from 'zod';
import type { MediaAsset } from '@/server/generated/prisma/client';
import { isoOrNull, ZNullableTimestamp, ZText, ZTimestamp } from '@/server/shared/schemas';
import { ACCEPTED_CONTENT_TYPES } from './media-rules';

export const ZMediaKind = z.enum(['image', 'video']);

export const ZUploadUrlInput = z.strictObject({
  kind: ZMediaKind.describe('image or video'),
  contentType: ZText.min(1)
    .max(255)
    .meta({ description: `The Content-Type the PUT will send. Accepted: ${ACCEPTED_CONTENT_TYPES.join(', ')}.` }),
  bytes: z.number().int().min(1).meta({ description: 'Exact byte length of the PUT. At most 15 MB (15 × 1024 × 1024 bytes) for images, 500 MB for video.' }),
});
export type UploadUrlInput = z.infer<typeof ZUploadUrlInput>;

export const ZMediaAsset = z
  .object({
    id: z.uuid(),
    kind: ZMediaKind,
    contentType: z.string(),
    bytes: z.number().int(),
    status: z.enum(['awaiting_upload', 'ready']),
    source: z.enum(['upload', 'url']),
    sourceUrl: z.string().nullable().meta({ description: 'The URL the bytes were downloaded from (mediaUrls), else null.' }),
    url: z.string().nullable().meta({ description: 'Where the stored object is served; null until completed.' }),
    durationMs: z.number().int().nullable().meta({ description: 'Video duration from the container; null for images.' }),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    createdAt: ZTimestamp,
    completedAt: ZNullableTimestamp,
  })
  .meta({ id: 'MediaAsset' });
export type MediaAssetDto = z.infer<typeof ZMediaAsset>;

export const ZUploadTarget = z
  .object({
    url: z.string(),
    method: z.literal('PUT'),
    headers: z
      .object({ 'Content-Type': z.string(), 'Content-Length': z.string() })
      .catchall(z.string())
      .meta({ description: 'Send every header listed, with exactly these values (the store may add its own, e.g. Authorization).' }),
    expiresAt: ZTimestamp,
  })
  .meta({ id: 'MediaUploadTarget', description: 'PUT the bytes here before expiresAt, then POST /media/{id}/complete.' });

export const ZMediaAssetWithUpload = ZMediaAsset.extend({ upload: ZUploadTarget }).meta({ id: 'MediaAssetWithUpload' });
export type MediaAssetWithUploadDto = z.infer<typeof ZMediaAssetWithUpload>;

export function toMediaAssetDto(a: MediaAsset): MediaAssetDto {
  return {
    id: a.id,
    kind: a.kind as MediaAssetDto['kind'],
    contentType: a.contentType,
    bytes: a.bytes,
    status: a.status as MediaAssetDto['status'],
    source: a.source as MediaAssetDto['source'],
    sourceUrl: a.sourceUrl,
    url: a.url,
    durationMs: a.durationMs,
    width: a.width,
    height: a.height,
    createdAt: a.createdAt.toISOString(),
    completedAt: isoOrNull(a.completedAt),
  };
}
