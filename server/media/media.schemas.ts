import { z } from 'zod';
import type { MediaAsset } from '@/server/generated/prisma/client';
import { isoOrNull, ZNullableTimestamp, ZText, ZTimestamp } from '@/server/shared/schemas';
import { MAX_NAME_LENGTH } from './asset-name';
import { ACCEPTED_CONTENT_TYPES } from './media-rules';

export const ZMediaKind = z.enum(['image', 'video']);

export const ZUploadUrlInput = z.strictObject({
  kind: ZMediaKind.describe('image or video'),
  contentType: ZText.min(1)
    .max(255)
    .meta({ description: `The Content-Type the PUT will send. Accepted: ${ACCEPTED_CONTENT_TYPES.join(', ')}.` }),
  bytes: z.number().int().min(1).meta({ description: 'Exact byte length of the PUT. At most 15 MB (15 × 1024 × 1024 bytes) for images, 500 MB for video.' }),
  filename: ZText.trim()
    .min(1)
    .max(MAX_NAME_LENGTH)
    .optional()
    .meta({ description: 'File name, shown and searched in the media library (default: kind and id)' }),
});
export type UploadUrlInput = z.infer<typeof ZUploadUrlInput>;

export const ZMediaAsset = z
  .object({
    id: z.uuid().describe('The asset id posts take in mediaIds'),
    name: z.string().describe('The upload’s file name, or the imported URL’s last path segment'),
    kind: ZMediaKind.describe('image or video'),
    contentType: z.string().describe('The media type of the stored file'),
    bytes: z.number().int().describe('The file’s size in bytes'),
    status: z.enum(['awaiting_upload', 'ready']).describe('awaiting_upload until completed; ready to attach after'),
    source: z.enum(['upload', 'url']).describe('upload (presigned PUT) or url (downloaded from mediaUrls)'),
    sourceUrl: z.string().nullable().meta({ description: 'The URL the bytes were downloaded from (mediaUrls), else null.' }),
    url: z.string().nullable().meta({ description: 'Where the stored object is served; null until completed.' }),
    durationMs: z.number().int().nullable().meta({ description: 'Video duration from the container; null for images.' }),
    width: z.number().int().nullable().describe('Pixels across; null until completed'),
    height: z.number().int().nullable().describe('Pixels down; null until completed'),
    createdAt: ZTimestamp.describe('When the asset was created'),
    completedAt: ZNullableTimestamp.describe('When it became ready'),
  })
  .meta({ id: 'MediaAsset', description: 'An uploaded or imported image or video, to attach to posts by id.' });
export type MediaAssetDto = z.infer<typeof ZMediaAsset>;

export const ZUploadTarget = z
  .object({
    url: z.string().describe('The presigned address to PUT the bytes to'),
    method: z.literal('PUT').describe('Always PUT'),
    headers: z
      .object({
        'Content-Type': z.string().describe('The media type declared when the upload was created'),
        'Content-Length': z.string().describe('The size declared, in bytes: send exactly that many'),
      })
      .catchall(z.string())
      .meta({ description: 'Send every header listed, with exactly these values (the store may add its own, e.g. Authorization).' }),
    expiresAt: ZTimestamp.describe('The URL stops working at this time'),
  })
  .meta({ id: 'MediaUploadTarget', description: 'PUT the bytes here before expiresAt, then POST /media/{id}/complete.' });

export const ZMediaAssetWithUpload = ZMediaAsset.extend({ upload: ZUploadTarget }).meta({
  id: 'MediaAssetWithUpload',
  description: 'A media asset awaiting its bytes, with where to PUT them.',
});
export type MediaAssetWithUploadDto = z.infer<typeof ZMediaAssetWithUpload>;

export function toMediaAssetDto(a: MediaAsset): MediaAssetDto {
  return {
    id: a.id,
    name: a.name,
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

export const MEDIA_LIBRARY_STATUSES = ['ready', 'awaiting_upload'] as const;

export const ZListMediaQuery = z.strictObject({
  search: ZText.trim().min(1).max(200).optional().describe('Name contains this (any case)'),
  kind: ZMediaKind.optional().describe('image or video'),
  from: ZTimestamp.optional().describe('Created at or after (ISO 8601)'),
  to: ZTimestamp.optional().describe('Created at or before (ISO 8601)'),
  status: z.enum(MEDIA_LIBRARY_STATUSES).default('ready').describe('ready (default), or awaiting_upload: uploads never completed'),
  page: z.number().int().min(1).default(1).describe('Page number, from 1'),
  limit: z.number().int().min(1).max(200).default(50).describe('Per page (1–200)'),
});
export type ListMediaQuery = z.infer<typeof ZListMediaQuery>;

export const ZMediaUsage = z
  .object({
    posts: z.number().int().describe('Posts (not cancelled) using it; above 0 it cannot be deleted'),
    postIds: z.array(z.uuid()).describe('Their ids, newest first (at most 20)'),
  })
  .meta({ id: 'MediaUsage', description: 'The posts using the asset, by id or by URL.' });

export const ZMediaLibraryItem = ZMediaAsset.extend({ usedBy: ZMediaUsage }).meta({
  id: 'MediaLibraryItem',
  description: 'A media asset of the library with the posts that use it.',
});
export type MediaLibraryItemDto = z.infer<typeof ZMediaLibraryItem>;
