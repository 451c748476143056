// A post's first comment: the text Herald posts under the post once it has landed, on every
// network that lets Herald comment (the catalogue's comments.reply: LinkedIn, YouTube, X,
// Bluesky, Threads, Mastodon, Reddit, Instagram, Facebook). Networks that take a firstComment
// setting of their own (Facebook, Instagram) use it instead of the post's. One rule for the
// check at writing (platform-limits.ts) and for delivery (delivery/first-comments.ts).
import type { Platform } from '@/server/shared/platforms';
import { canComment } from '@/server/platforms/catalogue';

/** The first comment this network gets for the post, or null: none written, or the network takes none. */
export function firstCommentFor(platform: Platform, post: { firstComment?: string | null; platformSettings?: unknown }): string | null {
  if (!canComment(platform)) return null;
  const own = ((post.platformSettings ?? {}) as Partial<Record<string, { firstComment?: unknown }>>)[platform]?.firstComment;
  const text = typeof own === 'string' && own.trim() ? own : post.firstComment;
  return text?.trim() ? text : null;
}

/** Where a network's first comment was written: its own setting, or the post's field. */
export function firstCommentField(platform: Platform, settings: unknown): string {
  const own = ((settings ?? {}) as Partial<Record<string, { firstComment?: unknown }>>)[platform]?.firstComment;
  return typeof own === 'string' && own.trim() ? `platformSettings.${platform}.firstComment` : 'firstComment';
}
