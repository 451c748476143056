// Media for LinkedIn posts: LinkedIn takes bytes, not URLs, so each file is read from our
// storage (guarded client) and uploaded to the upload URL LinkedIn hands out.
//
// Images: POST /rest/images?action=initializeUpload { initializeUploadRequest: { owner } }
//   → value.uploadUrl, value.image (urn:li:image:…); PUT the bytes to uploadUrl.
//   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/images-api
// Videos: POST /rest/videos?action=initializeUpload { initializeUploadRequest: { owner,
//   fileSizeBytes, uploadCaptions, uploadThumbnail } } → value.video, value.uploadToken,
//   value.uploadInstructions[{ uploadUrl, firstByte, lastByte }]; PUT each byte range and keep
//   its ETag; POST /rest/videos?action=finalizeUpload { finalizeUploadRequest: { video,
//   uploadToken, uploadedPartIds } }; then GET /rest/videos/{urn} until status AVAILABLE.
//   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api
//   (video: MP4, 3 s to 30 min, 75 KB to 500 MB)
import { PlatformError } from '../publisher';
import { PLATFORM_CATALOGUE } from '../catalogue';
import { isSuccess, jsonAt, jsonString, pollUntil, UPLOAD_TIMEOUT_MS, type Fetcher } from '../http';
import { downloadMedia, type MediaItem } from '../media';
import { linkedinError, type LinkedInClient } from './linkedin-api';

/** Images have a pixel limit rather than a byte one, so the cap on reading one is generous. */
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const MAX_VIDEO_BYTES = PLATFORM_CATALOGUE.linkedin.media.maxVideoBytes;

export interface UploadContext {
  api: LinkedInClient;
  fetch: Fetcher;
  accessToken: string;
  owner: string;
  polling: { intervalMs: number; attempts: number };
}

export async function uploadImage(ctx: UploadContext, item: MediaItem): Promise<string> {
  const media = await downloadMedia(ctx.fetch, item, MAX_IMAGE_BYTES);
  const init = await ctx.api.call('POST', '/rest/images?action=initializeUpload', { initializeUploadRequest: { owner: ctx.owner } });
  const uploadUrl = jsonString(init.json, 'value', 'uploadUrl');
  const image = jsonString(init.json, 'value', 'image');
  if (!uploadUrl || !image) throw new PlatformError('LinkedIn returned no upload URL for the image');
  await putBytes(ctx.fetch, uploadUrl, media.bytes, { authorization: `Bearer ${ctx.accessToken}`, 'content-type': media.contentType });
  return image;
}

interface UploadInstruction {
  uploadUrl: string;
  firstByte: number;
  lastByte: number;
}

export async function uploadVideo(ctx: UploadContext, item: MediaItem): Promise<string> {
  const media = await downloadMedia(ctx.fetch, item, MAX_VIDEO_BYTES);
  const init = await ctx.api.call('POST', '/rest/videos?action=initializeUpload', {
    initializeUploadRequest: { owner: ctx.owner, fileSizeBytes: media.bytes.length, uploadCaptions: false, uploadThumbnail: false },
  });
  const video = jsonString(init.json, 'value', 'video');
  const uploadToken = jsonString(init.json, 'value', 'uploadToken') ?? '';
  const instructions = (jsonAt(init.json, 'value', 'uploadInstructions') ?? []) as UploadInstruction[];
  if (!video || !Array.isArray(instructions) || instructions.length === 0) {
    throw new PlatformError('LinkedIn returned no upload instructions for the video');
  }

  const uploadedPartIds: string[] = [];
  for (const part of instructions) {
    const etag = await putBytes(ctx.fetch, part.uploadUrl, media.bytes.subarray(part.firstByte, part.lastByte + 1), {
      'content-type': 'application/octet-stream',
    });
    if (!etag) throw new PlatformError('LinkedIn did not confirm a video part (no ETag)');
    uploadedPartIds.push(etag);
  }
  await ctx.api.call('POST', '/rest/videos?action=finalizeUpload', { finalizeUploadRequest: { video, uploadToken, uploadedPartIds } });
  await waitUntilAvailable(ctx, video);
  return video;
}

async function putBytes(fetch: Fetcher, url: string, bytes: Uint8Array, headers: Record<string, string>): Promise<string | null> {
  const response = await fetch(url, { method: 'PUT', headers, body: bytes, timeoutMs: UPLOAD_TIMEOUT_MS, maxBytes: 1024 * 1024 });
  if (!isSuccess(response)) {
    const text = response.body.toString('utf8');
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // Upload hosts may answer plain text.
    }
    throw linkedinError({ status: response.status, headers: response.headers, text, json });
  }
  return response.headers.get('etag');
}

async function waitUntilAvailable(ctx: UploadContext, video: string): Promise<void> {
  const check = async () => {
    const answer = await ctx.api.call('GET', `/rest/videos/${encodeURIComponent(video)}`);
    const status = jsonString(answer.json, 'status');
    if (status === 'AVAILABLE') return true;
    if (status === 'PROCESSING_FAILED') {
      const reason = jsonString(answer.json, 'processingFailureReason') ?? 'PROCESSING_FAILED';
      throw new PlatformError(reason);
    }
    return undefined;
  };
  if (await check()) return;
  if (await pollUntil(ctx.polling, check)) return;
  throw new PlatformError(
    `LinkedIn was still processing the video after ${Math.round((ctx.polling.intervalMs * ctx.polling.attempts) / 1000)} s; nothing was published`,
  );
}
