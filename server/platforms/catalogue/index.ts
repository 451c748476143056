// The platform catalogue: for each platform, what its publishing API accepts (text length and
// how it is counted, media rules) and the platformSettings Herald takes for it. One record,
// read on both sides of publishing: the post rules refuse a post that breaks it when the post
// is written (server/posts), and the adapters publish within it (server/platforms/<platform>/),
// so a number changes in one place. Sources: docs/platform-limits.md, which
// catalogue.test.ts keeps in step.
import type { z } from 'zod';
import { isPlatform, type Platform } from '@/server/shared/platforms';
import type { PlatformCatalogueEntry } from './entry';
import { bluesky } from './bluesky';
import { devto } from './devto';
import { ghost } from './ghost';
import { hashnode } from './hashnode';
import { medium } from './medium';
import { wordpress } from './wordpress';
import { wordpress_com } from './wordpress_com';
import { discord } from './discord';
import { facebook } from './facebook';
import { google_business } from './google_business';
import { instagram } from './instagram';
import { instagram_login } from './instagram_login';
import { linkedin } from './linkedin';
import { pinterest } from './pinterest';
import { reddit } from './reddit';
import { threads } from './threads';
import { mastodon } from './mastodon';
import { lemmy } from './lemmy';
import { listmonk } from './listmonk';
import { tumblr } from './tumblr';
import { vk } from './vk';
import { farcaster } from './farcaster';
import { nostr } from './nostr';
import { twitch } from './twitch';
import { kick } from './kick';
import { dribbble } from './dribbble';
import { slack } from './slack';
import { telegram } from './telegram';
import { tiktok } from './tiktok';
import { twitter } from './twitter';
import { youtube } from './youtube';
import { noMessages, noReviews, type NetworkMessages, type NetworkReviews } from './conversations';

export type { MediaRules, PlatformCatalogueEntry, StoryRules, TextRules } from './entry';
export { COMMENT_ACTIONS, offeredCommentActions, type CommentAction, type CommentCapability, type NetworkComments } from './comments';
export { MAX_THREAD_PARTS, postsThreads, THREAD_POSTING, type ThreadPosting } from './thread-posting';
export { POST_METRICS, POST_METRIC_LABELS, reportedMetrics, type NetworkMetric, type NetworkPostMetrics, type PostMetricName } from './post-metrics';

/** Each entry keeps its own type, so the settings type of one platform can be inferred. */
export const PLATFORM_CATALOGUE = {
  instagram,
  facebook,
  linkedin,
  twitter,
  threads,
  tiktok,
  youtube,
  pinterest,
  google_business,
  bluesky,
  mastodon,
  reddit,
  telegram,
  discord,
  slack,
  devto,
  ghost,
  instagram_login,
  lemmy,
  listmonk,
  hashnode,
  medium,
  wordpress,
  tumblr,
  nostr,
  wordpress_com,
  vk,
  twitch,
  kick,
  dribbble,
  farcaster,
} satisfies Record<Platform, PlatformCatalogueEntry>;

/** A platform as people read its name ("LinkedIn", not linkedin): every screen, notice and report says it so. */
export const platformName = (platform: string): string => (isPlatform(platform) ? PLATFORM_CATALOGUE[platform].label : platform);

/** One platform's entry with every optional rule visible (the record above keeps each entry's own type). */
export const catalogueEntry = (platform: Platform): PlatformCatalogueEntry => PLATFORM_CATALOGUE[platform];

/**
 * The network's limit for a comment Herald writes (an inbox reply, a post's first comment),
 * counted its way: the comment's own cap where the catalogue names one, else the post's.
 */
export function replyLimit(platform: Platform): { maxChars: number; unit: string; count: (text: string) => number } {
  const entry = catalogueEntry(platform);
  const reply = entry.comments.reply;
  return { maxChars: ('maxChars' in reply && reply.maxChars) || entry.text.maxChars, unit: entry.text.unit ?? 'characters', count: entry.text.count };
}

/** What the network lets Herald do with the account's direct messages (conversations.ts). */
export function messagesOf(platform: Platform): NetworkMessages {
  const entry = catalogueEntry(platform);
  return entry.messages ?? noMessages(`${entry.label} has no direct messages an app can read`);
}

/** What the network lets Herald do with the account's reviews (conversations.ts). */
export function reviewsOf(platform: Platform): NetworkReviews {
  const entry = catalogueEntry(platform);
  return entry.reviews ?? noReviews(`${entry.label} has no reviews`);
}

/**
 * The network's limit for an inbox reply of this kind, counted its way: a comment's (replyLimit),
 * a direct message's or a review answer's own cap where the catalogue names one.
 */
export function inboxReplyLimit(platform: Platform, kind: string): { maxChars: number; unit: string; count: (text: string) => number } {
  const entry = catalogueEntry(platform);
  const own = kind === 'message' ? messagesOf(platform).reply : kind === 'review' ? reviewsOf(platform).reply : null;
  if (own && 'maxChars' in own) return { maxChars: own.maxChars, unit: entry.text.unit ?? 'characters', count: entry.text.count };
  return replyLimit(platform);
}

/** Days in which the network refuses a text the account already published; null: none documented. */
export const duplicateWindowDays = (platform: Platform): number | null => catalogueEntry(platform).duplicateWindowDays;

/** Whether Herald can write a comment under a published post of this network (the catalogue's reply). */
export const canComment = (platform: Platform): boolean => 'call' in catalogueEntry(platform).comments.reply;

/** The validated platformSettings of one platform, as adapters read them. */
export type PlatformSettingsOf<P extends Platform> = z.output<(typeof PLATFORM_CATALOGUE)[P]['settings']>;

/** A post's platformSettings: one object per targeted platform that was given settings. */
export type PlatformSettingsByPlatform = { [P in Platform]?: PlatformSettingsOf<P> };

/**
 * The settings stored with a post for one platform, typed for its adapter. They were checked
 * against the same schema when the post was written, so this fails only for a row changed by
 * other means; the delivery then fails that target before the platform is called.
 */
export function parseStoredSettings<P extends Platform>(platform: P, stored: unknown): PlatformSettingsOf<P> {
  const parsed = PLATFORM_CATALOGUE[platform].settings.safeParse(stored ?? {});
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new Error(`The stored ${platform} settings are not valid: ${where}${issue?.message ?? 'invalid'}`);
  }
  return parsed.data as PlatformSettingsOf<P>;
}
