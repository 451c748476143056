// Media for posts on X, uploaded through the v2 media endpoints with the user's token. X takes
// bytes, so each file is read from our storage first (guarded client).
//
//   https://docs.x.com/x-api/media/introduction        (Image 5 MB, GIF 15 MB, Video 512 MB;
//                                                      up to 4 photos, 1 animated GIF or 1 video)
//   https://docs.x.com/x-api/media/upload-media        (simple upload, images: POST /2/media/upload
//                                                      multipart media + media_category)
//   https://docs.x.com/x-api/media/quickstart/media-upload-chunked (INIT, APPEND, FINALIZE, STATUS)
//     POST /2/media/upload/initialize { media_type, total_bytes, media_category }
//     POST /2/media/upload/{id}/append  (https://docs.x.com/x-api/media/append-media-upload)
//     POST /2/media/upload/{id}/finalize (https://docs.x.com/x-api/media/finalize-media-upload)
//     GET  /2/media/upload?command=STATUS&media_id=…
// A FINALIZE answer with processing_info means: poll STATUS until state is succeeded or failed.
import { PlatformError } from '../publisher';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { jsonAt, jsonString, multipartBody, pollUntil, UPLOAD_TIMEOUT_MS, type Fetcher } from '../http';
import { downloadMedia, type MediaItem } from '../media';
import type { XClient } from './x-api';

const MB = 1024 * 1024;
/** Which upload a file takes depends on these; the video cap is the catalogue's. */
const MAX_BYTES = { image: 5 * MB, gif: 15 * MB, video: PLATFORM_CATALOGUE.twitter.media.maxVideoBytes } as const;
/** APPEND takes chunks of at most 5 MB; 4 MB leaves room for the multipart envelope. */
const CHUNK_BYTES = 4 * MB;

export interface XUploadContext {
  api: XClient;
  fetch: Fetcher;
  polling: { intervalMs: number; attempts: number };
}

export async function uploadMedia(ctx: XUploadContext, item: MediaItem): Promise<string> {
  const media = await downloadMedia(ctx.fetch, item, item.kind === 'video' ? MAX_BYTES.video : MAX_BYTES.gif);
  if (item.kind === 'video') return chunkedUpload(ctx, media.bytes, media.contentType, 'tweet_video');
  // Animated GIFs have their own category and, like video, go through the chunked flow.
  if (media.contentType === 'image/gif') return chunkedUpload(ctx, media.bytes, media.contentType, 'tweet_gif');
  if (media.bytes.length > MAX_BYTES.image) throw new PlatformError('X accepts images up to 5 MB');
  return simpleUpload(ctx, media.bytes, media.contentType);
}

async function simpleUpload(ctx: XUploadContext, bytes: Buffer, contentType: string): Promise<string> {
  const form = multipartBody([
    { name: 'media', value: bytes, filename: 'media', contentType },
    { name: 'media_category', value: 'tweet_image' },
    { name: 'media_type', value: contentType },
  ]);
  const answer = await ctx.api.call('/2/media/upload', {
    method: 'POST',
    headers: { 'content-type': form.contentType },
    body: form.body,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
  return requireMediaId(answer.json);
}

async function chunkedUpload(ctx: XUploadContext, bytes: Buffer, contentType: string, category: 'tweet_video' | 'tweet_gif'): Promise<string> {
  const init = await ctx.api.call('/2/media/upload/initialize', {
    method: 'POST',
    json: { media_type: contentType, total_bytes: bytes.length, media_category: category },
  });
  const mediaId = requireMediaId(init.json);

  for (let offset = 0, segment = 0; offset < bytes.length; offset += CHUNK_BYTES, segment += 1) {
    const form = multipartBody([
      { name: 'segment_index', value: String(segment) },
      { name: 'media', value: bytes.subarray(offset, offset + CHUNK_BYTES), filename: 'chunk', contentType: 'application/octet-stream' },
    ]);
    await ctx.api.call(`/2/media/upload/${mediaId}/append`, {
      method: 'POST',
      headers: { 'content-type': form.contentType },
      body: form.body,
      timeoutMs: UPLOAD_TIMEOUT_MS,
    });
  }

  const finalized = await ctx.api.call(`/2/media/upload/${mediaId}/finalize`, { method: 'POST' });
  if (jsonAt(finalized.json, 'data', 'processing_info') !== undefined && !processed(finalized.json)) {
    const done = await pollUntil(ctx.polling, async () => {
      const status = await ctx.api.call(`/2/media/upload?command=STATUS&media_id=${encodeURIComponent(mediaId)}`);
      return processed(status.json) ? true : undefined;
    });
    if (!done) {
      throw new PlatformError(
        `X was still processing the media after ${Math.round((ctx.polling.intervalMs * ctx.polling.attempts) / 1000)} s; nothing was posted`,
      );
    }
  }
  return mediaId;
}

/** True once X finished; throws X's own reason when processing failed. */
function processed(json: unknown): boolean {
  const state = jsonString(json, 'data', 'processing_info', 'state');
  if (state === 'succeeded') return true;
  if (state === 'failed') {
    const message = jsonString(json, 'data', 'processing_info', 'error', 'message') ?? 'X could not process the media';
    throw new PlatformError(message);
  }
  return false;
}

function requireMediaId(json: unknown): string {
  const id = jsonString(json, 'data', 'id');
  if (!id) throw new PlatformError('X accepted the upload but returned no media id');
  return id;
}
