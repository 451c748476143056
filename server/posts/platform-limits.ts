// What each platform accepts, checked at creation and on every edit (never first at the
// scheduled minute). Sources are listed in docs/platform-limits.md.
import type { Platform } from '@/server/shared/platforms';
import { AppError } from '@/server/errors/app-error';
import type { ResolvedMedia } from '@/server/media/media.types';
import { codePointLength, threadsLength, twitterWeightedLength, utf16Length } from './text-length';

interface PlatformRule {
  label: string;
  maxChars: number;
  /** How the platform counts characters. */
  countChars: (text: string) => number;
  maxImages: number;
  maxVideos: number;
  /** Whether images and a video may ride in one post. */
  mixedMedia: boolean;
  mediaRequired: boolean;
  /** Longest video the platform accepts, in seconds. */
  maxVideoSeconds: number;
  /** Largest video the platform accepts by API, in bytes. */
  maxVideoBytes: number;
}

const codePoints = codePointLength;
const MB = 1024 * 1024;
const GB = 1024 * MB;

export const PLATFORM_RULES: Record<Platform, PlatformRule> = {
  twitter: { label: 'X (Twitter)', maxChars: 280, countChars: twitterWeightedLength, maxImages: 4, maxVideos: 1, mixedMedia: false, mediaRequired: false, maxVideoSeconds: 140, maxVideoBytes: 512 * MB },
  threads: { label: 'Threads', maxChars: 500, countChars: threadsLength, maxImages: 20, maxVideos: 20, mixedMedia: true, mediaRequired: false, maxVideoSeconds: 5 * 60, maxVideoBytes: 1 * GB },
  linkedin: { label: 'LinkedIn', maxChars: 3000, countChars: codePoints, maxImages: 20, maxVideos: 1, mixedMedia: false, mediaRequired: false, maxVideoSeconds: 30 * 60, maxVideoBytes: 500 * MB },
  instagram: { label: 'Instagram', maxChars: 2200, countChars: codePoints, maxImages: 10, maxVideos: 10, mixedMedia: true, mediaRequired: true, maxVideoSeconds: 15 * 60, maxVideoBytes: 300 * MB },
  facebook: { label: 'Facebook', maxChars: 63_206, countChars: codePoints, maxImages: 10, maxVideos: 1, mixedMedia: false, mediaRequired: false, maxVideoSeconds: 20 * 60, maxVideoBytes: 10 * GB },
  tiktok: { label: 'TikTok', maxChars: 2200, countChars: utf16Length, maxImages: 35, maxVideos: 1, mixedMedia: false, mediaRequired: true, maxVideoSeconds: 10 * 60, maxVideoBytes: 4 * GB },
};

/** The limit of the whole post across targets: the contract's own 10 media. */
export function checkPlatformLimits(opts: {
  platforms: readonly Platform[];
  content: string;
  variants: Partial<Record<Platform, { content: string }>> | null | undefined;
  media: readonly ResolvedMedia[];
  settings?: Partial<Record<Platform, Record<string, unknown>>> | null;
}): void {
  const images = opts.media.filter((m) => m.kind === 'image');
  const videos = opts.media.filter((m) => m.kind === 'video');
  for (const platform of new Set(opts.platforms)) {
    const rule = PLATFORM_RULES[platform];
    const variant = opts.variants?.[platform]?.content;
    const text = variant ?? opts.content;
    const field = variant !== undefined ? `variants.${platform}.content` : 'content';
    const length = rule.countChars(text);
    if (length > rule.maxChars) {
      throw new AppError('CONTENT_TOO_LONG', `${rule.label} allows ${rule.maxChars} characters; this text counts ${length}`, { field });
    }
    if (rule.mediaRequired && opts.media.length === 0) {
      throw new AppError('MEDIA_REQUIRED', `${rule.label} posts need at least one image or video`, { field: 'mediaIds' });
    }
    if (!rule.mixedMedia && images.length > 0 && videos.length > 0) {
      throw new AppError('MEDIA_COUNT_EXCEEDED', `${rule.label} does not accept images and a video in one post`, { field: 'mediaIds' });
    }
    if (images.length > rule.maxImages) {
      throw new AppError('MEDIA_COUNT_EXCEEDED', `${rule.label} allows at most ${rule.maxImages} images per post; this post has ${images.length}`, { field: 'mediaIds' });
    }
    if (videos.length > rule.maxVideos) {
      throw new AppError('MEDIA_COUNT_EXCEEDED', `${rule.label} allows at most ${rule.maxVideos} video${rule.maxVideos === 1 ? '' : 's'} per post; this post has ${videos.length}`, { field: 'mediaIds' });
    }
    if (platform === 'instagram' && opts.settings?.instagram?.videoType === 'story') checkInstagramStory(opts.media);
    for (const video of videos) {
      if (video.durationMs !== null && video.durationMs > rule.maxVideoSeconds * 1000) {
        throw new AppError('MEDIA_TOO_LONG', `${rule.label} allows videos up to ${formatSeconds(rule.maxVideoSeconds)}; this one is ${formatSeconds(Math.ceil(video.durationMs / 1000))}`, { field: 'mediaIds' });
      }
      if (video.bytes > rule.maxVideoBytes) {
        throw new AppError('MEDIA_TOO_LARGE', `${rule.label} allows videos up to ${Math.round(rule.maxVideoBytes / MB)} MB; this one is ${Math.ceil(video.bytes / MB)} MB`, { field: 'mediaIds' });
      }
    }
  }
}

/** A story is one item; a story video is at most 60 s and 100 MB (Instagram content publishing docs). */
function checkInstagramStory(media: readonly ResolvedMedia[]): void {
  if (media.length > 1) throw new AppError('MEDIA_COUNT_EXCEEDED', `An Instagram story takes one image or video; this post has ${media.length}`, { field: 'mediaIds' });
  const video = media.find((m) => m.kind === 'video');
  if (video?.durationMs && video.durationMs > 60_000) throw new AppError('MEDIA_TOO_LONG', 'Instagram story videos are limited to 60 seconds', { field: 'mediaIds' });
  if (video && video.bytes > 100 * MB) throw new AppError('MEDIA_TOO_LARGE', 'Instagram story videos are limited to 100 MB', { field: 'mediaIds' });
}

function formatSeconds(s: number): string {
  if (s < 60 || s % 60 !== 0) return `${s} seconds`;
  return `${s / 60} minute${s === 60 ? '' : 's'}`;
}
