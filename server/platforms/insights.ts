// The post-insights port: how Herald asks a network how its published posts did. One reader
// per network (in that network's folder, listed in insights-readers.ts) plus the sandbox.
//
// A reader is given one connection and several of its published posts and answers, per
// posted id, either the normalised metrics or why it has none. Every metric is a value or
// null with the reason (the network does not offer it, the token's scope does not allow it,
// a newer API version no longer returns it): never 0 in place of "unknown". A failure of
// the whole connection (token refused, network down, rate limit not waited out) is thrown as
// a PlatformError; the collector records it on the connection and moves on to the others.
import type { Platform } from '@/server/shared/platforms';
import { catalogueEntry } from './catalogue';
import { POST_METRICS, type PostMetricName } from './catalogue/post-metrics';
import type { PublishableConnection, TokenStore } from './publisher';

export { POST_METRICS, POST_METRIC_LABELS, type PostMetricName } from './catalogue/post-metrics';

export interface MetricReading {
  value: number | null;
  /** Why value is null; null when there is a value. */
  reason: string | null;
  /** The network's own name for what was read (e.g. `like_count`, `post_total_media_view_unique`); null when nothing was asked. */
  networkName: string | null;
}

export type PostMetrics = Record<PostMetricName, MetricReading>;

/** One published post of the connection: its id on the network and when it went out. */
export interface PostedRef {
  postedId: string;
  publishedAt: Date;
}

/** Per posted id: the metrics, or why the network gave none for that post (deleted, not public yet). */
export type PostMetricsResult = { ok: true; metrics: PostMetrics } | { ok: false; reason: string };

export interface InsightsContext {
  tokens: TokenStore;
  now: Date;
}

/** An account's audience as the network counts it (followers, subscribers, members), or why there is none. */
export type FollowerCount = { value: number; reason: null; networkName: string } | { value: null; reason: string; networkName: string | null };

export interface PostMetricsReader {
  /** How many posts one request can carry (the collector batches by it). */
  maxIdsPerRequest: number;
  /** The `source` of every reading it gives: the network's API, or `sandbox`. */
  source: string;
  readPostMetrics(connection: PublishableConnection, posts: readonly PostedRef[], ctx: InsightsContext): Promise<Map<string, PostMetricsResult>>;
  /**
   * The account's follower count, read once a day by the collector. Absent where the network
   * reports none to Herald (the rollup then says so). A failure is thrown like readPostMetrics'.
   */
  readFollowers?(connection: PublishableConnection, ctx: InsightsContext): Promise<FollowerCount>;
}

/** Networks whose readers read no follower count, and why (the rollup says it; the sandbox mirrors it). */
export const FOLLOWERS_NOT_REPORTED: Partial<Record<Platform, string>> = {
  linkedin: 'LinkedIn reports followers of Pages only (organization network sizes), not read by Herald yet',
  google_business: 'Google Business Profile has no followers',
  telegram: 'Herald does not read a Telegram channel’s member count yet',
  discord: 'A Discord webhook has no audience count',
  slack: 'A Slack webhook has no audience count',
  ghost: 'Herald does not read a Ghost site’s member count',
  listmonk: 'A newsletter list’s subscriber count is not read by Herald yet',
  hashnode: 'Herald does not read a Hashnode blog’s follower count (Publication.followersCount) yet',
  medium: 'Medium’s API reports no follower count',
  wordpress: 'A WordPress site’s REST API reports no subscriber count',
  twitch:
    'Twitch reports a channel’s follower count (GET /helix/channels/followers) only with the moderator:read:followers scope, which Herald does not ask for',
  kick: 'Kick’s public API reports no follower count of a channel',
  dribbble: 'Herald does not read a Dribbble user’s follower count (followers_count) yet',
  devto: 'DEV’s API lists followers page by page (GET /api/followers/users) but gives no count; Herald does not read it',
};

/** A follower count read from the network under its own name; null with `reasonIfMissing` otherwise. */
export function followers(value: unknown, networkName: string, reasonIfMissing: string): FollowerCount {
  const n = numeric(value);
  return n === null ? { value: null, reason: reasonIfMissing, networkName } : { value: n, reason: null, networkName };
}

/** A value read from the network under its own name. */
export function read(value: number | null | undefined, networkName: string, reasonIfMissing: string): MetricReading {
  if (typeof value === 'number' && Number.isFinite(value)) return { value, reason: null, networkName };
  return { value: null, reason: reasonIfMissing, networkName };
}

/** A metric the network does not offer (or Herald does not ask for), with why. */
export function notOffered(reason: string): MetricReading {
  return { value: null, reason, networkName: null };
}

/** Builds a full metric set: every metric not given is null with `otherwise`. */
export function metricSet(given: Partial<PostMetrics>, otherwise: (metric: PostMetricName) => string): PostMetrics {
  const out = {} as PostMetrics;
  for (const metric of POST_METRICS) out[metric] = given[metric] ?? notOffered(otherwise(metric));
  return out;
}

/**
 * A network's metric set for one post: what the catalogue says the network never reports is
 * null with the catalogue's reason (whatever `given` holds for it); each reported metric is
 * taken from `given`, or null with `missing` when the network left it out.
 */
export function networkMetricSet(platform: Platform, given: Partial<PostMetrics>, missing: string): PostMetrics {
  const reported = catalogueEntry(platform).postMetrics;
  const out = {} as PostMetrics;
  for (const metric of POST_METRICS) {
    const entry = reported[metric];
    out[metric] = 'none' in entry ? notOffered(entry.none) : (given[metric] ?? notOffered(missing));
  }
  return out;
}

/** Every metric null for the same reason (a post the network did not return, a scope not granted). */
export function allNull(reason: string): PostMetrics {
  return metricSet({}, () => reason);
}

/** A JSON number or numeric string as a number; anything else is no value. */
export function numeric(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

/** Sum of the values given, null when none is a number (a part missing does not make the sum 0). */
export function sumOf(...values: (number | null | undefined)[]): number | null {
  const numbers = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return numbers.length ? numbers.reduce((a, b) => a + b, 0) : null;
}

/** Splits `items` into batches of at most `size`. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += Math.max(1, size)) out.push(items.slice(i, i + Math.max(1, size)));
  return out;
}

/**
 * A reader for a network that offers no statistics to Herald: it makes no call and answers
 * every post with every metric null for the catalogue's reason.
 */
export function noStatisticsReader(source: Platform): PostMetricsReader {
  return {
    maxIdsPerRequest: 100,
    source,
    async readPostMetrics(_connection, posts) {
      return new Map(posts.map((p): [string, PostMetricsResult] => [p.postedId, { ok: true, metrics: networkMetricSet(source, {}, '') }]));
    },
  };
}
