// The shape of one platform's entry in the catalogue: what the platform accepts through its
// publishing API. The post rules (server/posts/platform-limits.ts, platform-settings.ts) refuse
// a post that breaks it when it is written; the adapters publish within it. Numbers and their
// sources: docs/platform-limits.md.
import type { z } from 'zod';
import type { NetworkComments } from './comments';
import type { NetworkMessages, NetworkReviews } from './conversations';
import type { NetworkPostMetrics } from './post-metrics';
import type { ReconcileCapability } from './reconcile';

export const MB = 1024 * 1024;
export const GB = 1024 * MB;

export interface TextRules {
  /** The most characters, as the platform counts them. */
  maxChars: number;
  /** How the platform counts the characters of a text (text-length.ts). */
  count: (text: string) => number;
  /** A lower limit for a text that rides with media (a Telegram caption: 1,024 against a message's 4,096). */
  maxCharsWithMedia?: number;
  /** What `count` counts, in messages: Bluesky counts graphemes, YouTube UTF-8 bytes, the others characters. */
  unit?: 'characters' | 'graphemes' | 'UTF-8 bytes';
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
  /** The largest image, in bytes, where the platform caps images below Herald's own upload limit. */
  maxImageBytes?: number;
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
  /**
   * Keys of `settings` every post to this platform must carry (a YouTube or Reddit title):
   * a post without one is refused at creation, naming the setting.
   */
  requiredSettings?: readonly string[];
  /**
   * Keys of `settings` a post with a video must carry (a Reddit video's poster image): such a
   * post without one is refused at creation, naming the setting.
   */
  requiredSettingsWithVideo?: readonly string[];
  /**
   * false: the platform's grant does not lapse by itself (a Telegram bot, a Discord or Slack
   * webhook, a Mastodon token), so an account without an expiry is known valid, not unknown.
   */
  tokensExpire?: boolean;
  /**
   * What the network reports of a published post, metric by metric (post-metrics.ts). The
   * network's insights reader takes the reasons of what it never reports from here, and a demo
   * (sandbox) account reports exactly the metrics read here, so a demo never shows a number
   * its network would not give.
   */
  postMetrics: NetworkPostMetrics;
  /**
   * What an app may do with the comments under the account's published posts (read, reply,
   * hide, delete, like), each with the network's call and its documentation page, or why not
   * (comments.ts). Read by the inbox, its API and its screen.
   */
  comments: NetworkComments;
  /**
   * The account's direct messages: read, answer (limit, images, the network's reply window),
   * pushed or polled (conversations.ts). Absent: the network has none an app can read.
   */
  messages?: NetworkMessages;
  /** Reviews of the account (stars or recommendations), their answers, pushed or polled. Absent: none. */
  reviews?: NetworkReviews;
  /**
   * An article network (Dev.to, Ghost, …): a post becomes an article with a title, its
   * `title` setting or else the text's first line (long-form.ts `articleOf`), cut at
   * `maxTitle`. The composer previews it as the article it makes.
   */
  article?: { maxTitle: number };
  /**
   * How an interrupted publish is settled: sent again safely with the same key, asked of the
   * network, or not at all (and why) (reconcile.ts). Read by delivery and docs/reliability.md.
   */
  reconcile: ReconcileCapability;
  /**
   * Days during which the network refuses (or would take as spam) a text the account already
   * published; null where the network documents no such window. Evergreen repeats never send a
   * text inside it (server/evergreen).
   */
  duplicateWindowDays: number | null;
}
