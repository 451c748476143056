// The media of a publish request as adapters need them: each URL with its kind, and (for the
// platforms that take bytes rather than a URL: LinkedIn, X) the bytes themselves, fetched
// from our storage through the guarded client.
import { PlatformError, type PublishRequest } from './publisher';
import type { MediaRules } from './catalogue';
import { isSuccess, UPLOAD_TIMEOUT_MS, type Fetcher } from './http';

export type MediaKind = 'image' | 'video';

export interface MediaItem {
  url: string;
  kind: MediaKind;
}

const VIDEO_ENDING = /\.(mp4|m4v|mov|webm|avi|mkv)$/i;

/** The kind comes from mediaKinds; a URL ending is only the fallback when it is missing. */
export function mediaItems(request: PublishRequest): MediaItem[] {
  return request.mediaUrls.map((url, index) => ({
    url,
    kind: request.mediaKinds?.[index] ?? (VIDEO_ENDING.test(new URL(url).pathname) ? 'video' : 'image'),
  }));
}

/** How an adapter words the refusals of imagesOrOneVideo, in the platform's terms. */
export interface ImagesOrVideoRefusals {
  /** A video mixed with images or with other videos. */
  mixed: string;
  /** More images than the catalogue's maxImages. */
  tooManyImages: string;
}

/**
 * The media of a post on a platform that takes images (up to the catalogue's maxImages) or
 * one video, never both (LinkedIn, X, TikTok: `mixed: false`, `maxVideos: 1`). The post rules
 * refuse such posts when they are written; this is the adapter's own guard, before any call.
 */
export function imagesOrOneVideo(
  items: MediaItem[],
  media: Pick<MediaRules, 'maxImages' | 'maxVideos' | 'mixed'>,
  refusals: ImagesOrVideoRefusals,
): MediaItem[] {
  const videos = items.filter((i) => i.kind === 'video').length;
  const mixed = !media.mixed && videos > 0 && videos < items.length;
  if (mixed || videos > media.maxVideos) throw new PlatformError(refusals.mixed);
  if (items.length > media.maxImages) throw new PlatformError(refusals.tooManyImages);
  return items;
}

export interface DownloadedMedia {
  bytes: Buffer;
  /** As our storage declared it; a default by kind when it declared none. */
  contentType: string;
}

/**
 * Reads one media file into memory. `maxBytes` is the platform's own cap for that kind, so a
 * file the platform would refuse anyway is never read in full.
 */
export async function downloadMedia(fetch: Fetcher, item: MediaItem, maxBytes: number): Promise<DownloadedMedia> {
  const response = await fetch(item.url, { method: 'GET', timeoutMs: UPLOAD_TIMEOUT_MS, maxBytes });
  if (!isSuccess(response)) {
    throw new Error(`Could not read the media file ${item.url}: our storage answered HTTP ${response.status}`);
  }
  const declared = response.headers.get('content-type')?.split(';')[0]?.trim();
  const contentType = declared && declared !== 'application/octet-stream' ? declared : item.kind === 'video' ? 'video/mp4' : 'image/jpeg';
  return { bytes: response.body, contentType };
}
