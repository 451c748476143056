// /media: presigned direct uploads and the media library. The contract lists no scope for this
// family; Herald uses media:write for writes and posts:read for the library (docs/decisions.md → Media).
import { z } from 'zod';
import { idParam, listEnvelope, readEnvelope, writeEnvelope } from '@/server/shared/schemas';
import { apiProcedure, router } from '@/server/trpc/init';
import type { HeraldMeta } from '@/server/trpc/meta';
import { completeMediaAsset } from './complete-media';
import { createUpload } from './create-upload';
import { deleteMediaAsset } from './media-assets';
import { MAX_MEDIA_URLS } from './import-media-urls';
import { getMediaLibraryItems, listMediaLibrary } from './media-library';
import { ZListMediaQuery, ZMediaAsset, ZMediaAssetWithUpload, ZMediaLibraryItem, ZUploadUrlInput } from './media.schemas';

const base = { scope: 'media:write' } as const satisfies Partial<HeraldMeta>;
const tags = ['Media'];

export const mediaRouter = router({
  list: apiProcedure
    .meta({
      scope: 'posts:read',
      openapi: {
        method: 'GET',
        path: '/media',
        description:
          'The media library: the workspace’s uploaded and imported images and videos, newest first, searched by name, kind and creation time, a page at a time. Each asset says which posts use it (posts that are not cancelled, by id or by URL); an asset in use cannot be deleted. Attach one to a post through mediaIds.',
        successDescription: 'One page of assets, each with the posts using it, and the total across pages.',
        tags,
        protect: true,
        summary: 'List media assets with the posts using each',
      },
    })
    .input(ZListMediaQuery)
    .output(listEnvelope(ZMediaLibraryItem))
    .query(async ({ ctx, input }) => {
      const { assets, total } = await listMediaLibrary(ctx.actor.workspaceId, input);
      return { data: assets, page: input.page, limit: input.limit, total };
    }),

  /** Staff only (no REST route): the assets the composer was opened with (Media library → Use in a new post). */
  get: apiProcedure
    .meta({ scope: 'posts:read' })
    .input(z.strictObject({ ids: z.array(z.uuid()).max(MAX_MEDIA_URLS) }))
    .output(readEnvelope(z.array(ZMediaLibraryItem)))
    .query(async ({ ctx, input }) => ({ data: await getMediaLibraryItems(ctx.actor.workspaceId, input.ids) })),

  uploadUrl: apiProcedure
    .meta({
      errorWhen: { VALIDATION_FAILED: 'contentType is not one the upload accepts (field: contentType; the message lists them)' },
      ...base,
      successStatus: 201,
      errors: ['VALIDATION_FAILED', 'MEDIA_TOO_LARGE', 'MEDIA_STORAGE_UNAVAILABLE'],
      openapi: {
        method: 'POST',
        path: '/media/upload-url',
        description:
          'Step 1 of a direct upload: creates a media asset awaiting its bytes and answers a presigned URL. PUT the file there with exactly the declared Content-Type and byte length, then call POST /media/{id}/complete; the asset id then goes in a post’s mediaIds.',
        successDescription: 'Created: the asset and where to PUT its bytes.',
        tags,
        protect: true,
        summary: 'Create a media asset and a presigned URL to PUT its bytes to',
      },
    })
    .input(ZUploadUrlInput)
    .output(writeEnvelope(ZMediaAssetWithUpload))
    .mutation(async ({ ctx, input }) => ({ data: await createUpload(ctx.actor.workspaceId, input), warnings: [] })),

  complete: apiProcedure
    .meta({
      errorWhen: { VALIDATION_FAILED: 'the stored file is not of the declared contentType, or is not a readable image or video (field: contentType)' },
      ...base,
      successStatus: 201,
      errors: ['MEDIA_NOT_FOUND', 'MEDIA_NOT_READY', 'VALIDATION_FAILED', 'MEDIA_STORAGE_UNAVAILABLE'],
      openapi: {
        method: 'POST',
        path: '/media/{id}/complete',
        description:
          'Step 3 of a direct upload: checks the bytes PUT to the upload URL (present, of the declared type and size, a real image or video) and makes the asset ready to attach through mediaIds. Before this, a post using the asset is refused with MEDIA_NOT_READY.',
        successDescription: 'Completed: the asset, ready to attach.',
        tags,
        protect: true,
        summary: 'Check the uploaded bytes and make the asset ready to attach',
      },
    })
    .input(idParam('media asset', 'from media_upload_url'))
    .output(writeEnvelope(ZMediaAsset))
    .mutation(async ({ ctx, input }) => ({ data: await completeMediaAsset(ctx.actor.workspaceId, input.id), warnings: [] })),

  delete: apiProcedure
    .meta({
      ...base,
      successStatus: 204,
      errors: ['MEDIA_NOT_FOUND', 'MEDIA_IN_USE', 'MEDIA_STORAGE_UNAVAILABLE'],
      openapi: {
        method: 'DELETE',
        path: '/media/{id}',
        description:
          'Deletes a media asset and its stored object. Refused with MEDIA_IN_USE (409, the message lists the posts) while a post that is not cancelled uses it: GET /media shows each asset’s posts.',
        successDescription: 'Deleted; no body.',
        tags,
        protect: true,
        summary: 'Delete a media asset and its stored object',
      },
      assistant: { stage: true, title: (a) => `Delete media asset ${String(a.id)}` },
    })
    .input(idParam('media asset', 'from media_upload_url'))
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await deleteMediaAsset(ctx.actor.workspaceId, input.id);
    }),
});
