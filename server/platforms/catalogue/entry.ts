// The shape of one platform's entry in the catalogue: what the platform accepts through its
// publishing API. The post rules (server/posts/platform-limits.ts, platform-settings.ts) refuse
// a post that breaks it when it is written; the adapters publish within it. Numbers and their
// sources: docs/platform-limits.md.
import type { z } from 'zod';

export const MB = 1024 * 1024;
export const GB = 1024 * MB;

export interface TextRules {
  /** The most characters, as the platform counts them. */
  maxChars: number;
  /** How the platform counts the characters of a text (text-length.ts). */
  count: (text: string) => number;
}

/** Instagram stories: one item, shorter and smaller videos than the feed's. */
export interface StoryRules {
  maxItems: number;
  maxVideoSeconds: number;
  maxVideoBytes: number;
}

export interface MediaRules {
  maxImages: number;
  maxVideos: number;
  /** The most media of any kind in one post (a carousel's cap). */
  maxItems: number;
  /** Whether images and videos may ride in one post. */
  mixed: boolean;
  /** Whether a post needs at least one image or video. */
  required: boolean;
  /** The longest video the platform accepts, in seconds. */
  maxVideoSeconds: number;
  /** The largest video the platform accepts by API, in bytes. */
  maxVideoBytes: number;
  story?: StoryRules;
}

export interface PlatformCatalogueEntry {
  /** The platform's name in Herald's messages ("X (Twitter) allows 280 characters…"). */
  label: string;
  text: TextRules;
  media: MediaRules;
  /**
   * The platform's keys of a post's platformSettings and their values. Every key is optional;
   * the type the adapters read is inferred from it (PlatformSettingsOf in index.ts).
   */
  settings: z.ZodObject;
}
