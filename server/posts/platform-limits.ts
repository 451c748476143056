// What each platform accepts, checked at creation and on every edit (never first at the
// scheduled minute). The numbers are the platform catalogue's (server/platforms/catalogue/),
// which the adapters publish within too; sources are listed in docs/platform-limits.md.
import type { Platform } from '@/server/shared/platforms';
import { AppError } from '@/server/errors/app-error';
import type { ResolvedMedia } from '@/server/media/media.types';
import {
  catalogueEntry,
  PLATFORM_CATALOGUE,
  postsThreads,
  replyLimit,
  THREAD_POSTING,
  type PlatformSettingsByPlatform,
  type StoryRules,
} from '@/server/platforms/catalogue';
import { firstCommentField, firstCommentFor } from './first-comment';

const MB = 1024 * 1024;

interface LimitInput {
  platforms: readonly Platform[];
  content: string;
  variants: Partial<Record<Platform, { content: string }>> | null | undefined;
  media: readonly ResolvedMedia[];
  settings?: PlatformSettingsByPlatform | null;
  /** The post's first comment (first-comment.ts), checked against each network's comment limit. */
  firstComment?: string | null;
  /** A thread's later parts (thread-parts.ts), each checked as a post of its own on every targeted network. */
  parts?: readonly { content: string; media: readonly ResolvedMedia[] }[];
  /**
   * Text limits of the targeted accounts themselves, where their server sets its own (a
   * Mastodon instance's max_characters, stored at connect as platformData.maxChars).
   */
  accountTextLimits?: Partial<Record<Platform, number>>;
}

/** The lowest own text limit among the targeted accounts of each platform (see LimitInput). */
export function accountTextLimits(connections: readonly { platform: string; platformData?: unknown }[]): Partial<Record<Platform, number>> {
  const limits: Partial<Record<Platform, number>> = {};
  for (const c of connections) {
    const own = (c.platformData as { maxChars?: unknown } | null | undefined)?.maxChars;
    if (typeof own !== 'number' || !Number.isInteger(own) || own <= 0) continue;
    const platform = c.platform as Platform;
    limits[platform] = Math.min(limits[platform] ?? own, own);
  }
  return limits;
}

/** Refuses the post with the first problem (the API answers one error per request). */
export function checkPlatformLimits(opts: LimitInput): void {
  const [first] = platformLimitProblems(opts);
  if (first) throw first;
}

/**
 * Every problem of the post against each platform's limits, in platform order, each with
 * the field it concerns: the composer shows them all at once, next to their fields.
 */
export function platformLimitProblems(opts: LimitInput): AppError[] {
  const problems: AppError[] = [];
  for (const platform of new Set(opts.platforms)) {
    try {
      checkPlatform(platform, opts);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      problems.push(error);
    }
  }
  return problems;
}

/** One platform's first problem, thrown. */
function checkPlatform(platform: Platform, opts: LimitInput): void {
  const { label, media, requiredSettings, requiredSettingsWithVideo } = catalogueEntry(platform);
  const variant = opts.variants?.[platform]?.content;
  checkText(platform, variant ?? opts.content, variant !== undefined ? `variants.${platform}.content` : 'content', opts);
  const comment = firstCommentFor(platform, { firstComment: opts.firstComment, platformSettings: opts.settings });
  if (comment !== null) {
    const limit = replyLimit(platform);
    const commentLength = limit.count(comment);
    if (commentLength > limit.maxChars) {
      throw new AppError('CONTENT_TOO_LONG', `A first comment on ${label} allows ${limit.maxChars} ${limit.unit}; this one counts ${commentLength}`, {
        field: firstCommentField(platform, opts.settings),
      });
    }
  }
  const settings = (opts.settings?.[platform] ?? {}) as Record<string, unknown>;
  for (const key of requiredSettings ?? []) {
    if (settings[key] === undefined || settings[key] === '') {
      throw new AppError('VALIDATION_FAILED', `${label} posts need platformSettings.${platform}.${key}`, { field: `platformSettings.${platform}.${key}` });
    }
  }
  const videos = opts.media.filter((m) => m.kind === 'video');
  for (const key of videos.length > 0 && media.maxVideos > 0 ? (requiredSettingsWithVideo ?? []) : []) {
    if (settings[key] === undefined || settings[key] === '') {
      throw new AppError('VALIDATION_FAILED', `${label} video posts need platformSettings.${platform}.${key}`, {
        field: `platformSettings.${platform}.${key}`,
      });
    }
  }
  if (media.required && opts.media.length === 0) {
    const what = media.maxImages === 0 ? 'a video' : media.maxVideos === 0 ? 'an image' : 'at least one image or video';
    throw new AppError('MEDIA_REQUIRED', `${label} posts need ${what}`, { field: 'mediaIds' });
  }
  checkMedia(platform, opts.media, 'mediaIds', '');
  if (platform === 'instagram' && opts.settings?.instagram?.videoType === 'story') checkInstagramStory(opts.media, PLATFORM_CATALOGUE.instagram.media.story);
  checkParts(platform, opts);
}

/** A thread's later parts: only where the network chains replies, each within the network's limits for a post. */
function checkParts(platform: Platform, opts: LimitInput): void {
  if (!opts.parts?.length) return;
  const posting = THREAD_POSTING[platform];
  if (!postsThreads(platform)) {
    const reason = 'none' in posting ? `: ${posting.none}` : '';
    throw new AppError('THREAD_NOT_SUPPORTED', `${catalogueEntry(platform).label} takes no threads${reason}. Post to it without parts`, { field: 'parts' });
  }
  opts.parts.forEach((part, index) => {
    const where = `Part ${index + 2} of the thread: `;
    checkText(platform, part.content, `parts[${index}].content`, { ...opts, media: part.media }, where);
    checkMedia(platform, part.media, `parts[${index}].mediaIds`, where);
  });
}

/** The text against the network's limit (and an account's own, where its server sets one). */
function checkText(platform: Platform, content: string, field: string, opts: Pick<LimitInput, 'media' | 'accountTextLimits'>, where = ''): void {
  const { label, text } = catalogueEntry(platform);
  const length = text.count(content);
  const unit = text.unit ?? 'characters';
  const own = opts.accountTextLimits?.[platform];
  if (own !== undefined && length > own) {
    throw new AppError('CONTENT_TOO_LONG', `${where}The ${label} server of a targeted account allows ${own} ${unit}; this text counts ${length}`, { field });
  }
  if (length > text.maxChars && own === undefined) {
    throw new AppError('CONTENT_TOO_LONG', `${where}${label} allows ${text.maxChars} ${unit}; this text counts ${length}`, { field });
  }
  if (text.maxCharsWithMedia !== undefined && opts.media.length > 0 && length > text.maxCharsWithMedia) {
    throw new AppError('CONTENT_TOO_LONG', `${where}${label} allows ${text.maxCharsWithMedia} ${unit} with media; this text counts ${length}`, { field });
  }
}

/** Counts, kinds, sizes and durations of one post's (or part's) media against the network's rules. */
function checkMedia(platform: Platform, items: readonly ResolvedMedia[], field: string, where: string): void {
  const { label, media } = catalogueEntry(platform);
  const images = items.filter((m) => m.kind === 'image');
  const videos = items.filter((m) => m.kind === 'video');
  if (!media.mixed && images.length > 0 && videos.length > 0) {
    throw new AppError('MEDIA_COUNT_EXCEEDED', `${where}${label} does not accept images and a video in one post`, { field });
  }
  if (images.length > media.maxImages) {
    const allows = media.maxImages === 0 ? 'does not accept images' : `allows at most ${media.maxImages} images per post`;
    throw new AppError('MEDIA_COUNT_EXCEEDED', `${where}${label} ${allows}; this post has ${images.length}`, { field });
  }
  if (media.maxVideos === 0 && videos.length > 0) {
    throw new AppError('MEDIA_COUNT_EXCEEDED', `${where}${label} does not accept videos; this post has ${videos.length}`, { field });
  }
  if (items.length > media.maxItems) {
    throw new AppError('MEDIA_COUNT_EXCEEDED', `${where}${label} allows at most ${media.maxItems} media per post; this post has ${items.length}`, { field });
  }
  const maxImageBytes = media.maxImageBytes;
  const largeImage = maxImageBytes === undefined ? undefined : images.find((m) => m.bytes > maxImageBytes);
  if (largeImage && maxImageBytes !== undefined) {
    throw new AppError(
      'MEDIA_TOO_LARGE',
      `${where}${label} allows images up to ${Math.round(maxImageBytes / MB)} MB; this one is ${Math.ceil(largeImage.bytes / MB)} MB`,
      { field },
    );
  }
  if (videos.length > media.maxVideos) {
    throw new AppError(
      'MEDIA_COUNT_EXCEEDED',
      `${where}${label} allows at most ${media.maxVideos} video${media.maxVideos === 1 ? '' : 's'} per post; this post has ${videos.length}`,
      { field },
    );
  }
  for (const video of videos) {
    if (video.durationMs !== null && video.durationMs > media.maxVideoSeconds * 1000) {
      throw new AppError(
        'MEDIA_TOO_LONG',
        `${where}${label} allows videos up to ${formatSeconds(media.maxVideoSeconds)}; this one is ${formatSeconds(Math.ceil(video.durationMs / 1000))}`,
        { field },
      );
    }
    if (video.bytes > media.maxVideoBytes) {
      throw new AppError(
        'MEDIA_TOO_LARGE',
        `${where}${label} allows videos up to ${Math.round(media.maxVideoBytes / MB)} MB; this one is ${Math.ceil(video.bytes / MB)} MB`,
        { field },
      );
    }
  }
}

/** A story is one item, and a story video is shorter and smaller than a reel. */
function checkInstagramStory(media: readonly ResolvedMedia[], story: StoryRules): void {
  if (media.length > story.maxItems)
    throw new AppError('MEDIA_COUNT_EXCEEDED', `An Instagram story takes one image or video; this post has ${media.length}`, { field: 'mediaIds' });
  const video = media.find((m) => m.kind === 'video');
  if (video?.durationMs && video.durationMs > story.maxVideoSeconds * 1000) {
    throw new AppError('MEDIA_TOO_LONG', `Instagram story videos are limited to ${story.maxVideoSeconds} seconds`, { field: 'mediaIds' });
  }
  if (video && video.bytes > story.maxVideoBytes) {
    throw new AppError('MEDIA_TOO_LARGE', `Instagram story videos are limited to ${Math.round(story.maxVideoBytes / MB)} MB`, { field: 'mediaIds' });
  }
}

function formatSeconds(s: number): string {
  if (s < 60 || s % 60 !== 0) return `${s} seconds`;
  return `${s / 60} minute${s === 60 ? '' : 's'}`;
}
