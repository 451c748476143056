// /media: presigned direct uploads. The contract lists no scope for this family; Herald uses
// media:write (docs/decisions.md → Media).
import { z } from 'zod';
import { idParam, writeEnvelope } from '@/server/shared/schemas';
import { apiProcedure, router } from '@/server/trpc/init';
import type { HeraldMeta } from '@/server/trpc/meta';
import { completeMediaAsset } from './complete-media';
import { createUpload } from './create-upload';
import { deleteMediaAsset } from './media-assets';
import { ZMediaAsset, ZMediaAssetWithUpload, ZUploadUrlInput } from './media.schemas';

const base = { scope: 'media:write' } as const satisfies Partial<HeraldMeta>;
const tags = ['Media'];

export const mediaRouter = router({
  uploadUrl: apiProcedure
    .meta({
      ...base,
      successStatus: 201,
      errors: ['VALIDATION_FAILED', 'MEDIA_TOO_LARGE', 'MEDIA_STORAGE_UNAVAILABLE'],
      openapi: { method: 'POST', path: '/media/upload-url', tags, protect: true, summary: 'Create a media asset and a presigned URL to PUT its bytes to' },
    })
    .input(ZUploadUrlInput)
    .output(writeEnvelope(ZMediaAssetWithUpload))
    .mutation(async ({ ctx, input }) => ({ data: await createUpload(ctx.actor.workspaceId, input), warnings: [] })),

  complete: apiProcedure
    .meta({
      ...base,
      successStatus: 201,
      errors: ['MEDIA_NOT_FOUND', 'MEDIA_NOT_READY', 'VALIDATION_FAILED', 'MEDIA_STORAGE_UNAVAILABLE'],
      openapi: { method: 'POST', path: '/media/{id}/complete', tags, protect: true, summary: 'Check the uploaded bytes and make the asset ready to attach' },
    })
    .input(idParam('media asset', 'from media_upload_url'))
    .output(writeEnvelope(ZMediaAsset))
    .mutation(async ({ ctx, input }) => ({ data: await completeMediaAsset(ctx.actor.workspaceId, input.id), warnings: [] })),

  delete: apiProcedure
    .meta({
      ...base,
      successStatus: 204,
      errors: ['MEDIA_NOT_FOUND', 'MEDIA_STORAGE_UNAVAILABLE'],
      openapi: { method: 'DELETE', path: '/media/{id}', tags, protect: true, summary: 'Delete a media asset and its stored object' },
      assistant: { stage: true, title: (a) => `Delete media asset ${String(a.id)}` },
    })
    .input(idParam('media asset', 'from media_upload_url'))
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await deleteMediaAsset(ctx.actor.workspaceId, input.id);
    }),
});
