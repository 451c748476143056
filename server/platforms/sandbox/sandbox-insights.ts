// Sandbox post metrics: deterministic numbers that grow after publishing, so demos and tests
// show results without a network. The same post and moment always give the same numbers; each
// counter approaches its post's own ceiling (about 60 % of it after a day, nearly all after a
// week). A demo account reports exactly what its real network reports (the catalogue's
// postMetrics): the rest is null with the network's reason, so a demo never shows a number
// the real network would not give.
import { createHash } from 'node:crypto';
import type { Platform } from '@/server/shared/platforms';
import { catalogueEntry } from '../catalogue';
import {
  FOLLOWERS_NOT_REPORTED,
  networkMetricSet,
  POST_METRICS,
  type FollowerCount,
  type PostMetricName,
  type PostMetrics,
  type PostMetricsReader,
  type PostMetricsResult,
} from '../insights';
import { TokenExpiredError } from '../publisher';

/** A number in [0, 1) from the post and a salt. */
function unit(postedId: string, salt: string): number {
  return createHash('sha256').update(`${postedId}|${salt}`).digest().readUInt32BE(0) / 2 ** 32;
}

const CEILINGS: Record<PostMetricName, [number, number]> = {
  impressions: [800, 12_000],
  reach: [600, 8_000],
  views: [300, 9_000],
  reactions: [20, 600],
  comments: [1, 60],
  shares: [0, 90],
  saves: [0, 120],
  linkClicks: [0, 150],
  videoWatchSeconds: [0, 40_000],
};

/**
 * The sandbox's reading of one post at `now`: a number for exactly the metrics the catalogue
 * says the real network reports (under the network's own name), null with the network's
 * reason for the rest, as its real reader would answer.
 */
export function sandboxPostMetrics(platform: Platform, postedId: string, publishedAt: Date, now: Date): PostMetrics {
  const hours = Math.max(0, (now.getTime() - publishedAt.getTime()) / 3_600_000);
  const grown = 1 - Math.exp(-hours / 26);
  const reported = catalogueEntry(platform).postMetrics;
  const given: Partial<PostMetrics> = {};
  for (const metric of POST_METRICS) {
    const entry = reported[metric];
    if ('none' in entry) continue;
    const [low, high] = CEILINGS[metric];
    const ceiling = low + unit(postedId, metric) * (high - low);
    given[metric] = { value: Math.round(ceiling * grown), reason: null, networkName: entry.reads };
  }
  return networkMetricSet(platform, given, 'Not reported for this post');
}

/**
 * The sandbox account's followers on `now`'s day: its own starting audience (200–20,000) that
 * grows a little every day, the same for the same account and day.
 */
export function sandboxFollowers(platform: Platform, externalId: string, now: Date): FollowerCount {
  const reason = FOLLOWERS_NOT_REPORTED[platform];
  if (reason) return { value: null, reason, networkName: null };
  const day = Math.floor(now.getTime() / 86_400_000);
  const base = 200 + unit(externalId, 'followers') * 19_800;
  return { value: Math.round(base * (1 + 0.0015 * (day - 20_000)) + 3 * unit(externalId, `day-${day}`)), reason: null, networkName: 'sandbox.followers' };
}

export const sandboxInsightsReader: PostMetricsReader = {
  maxIdsPerRequest: 100,
  source: 'sandbox',
  readPostMetrics(connection, posts, { now }) {
    const out = new Map<string, PostMetricsResult>();
    if (connection.sandboxBehavior === 'expired') {
      return Promise.reject(new TokenExpiredError('Error validating access token: Session has expired (code 190, subcode 463)'));
    }
    for (const post of posts) out.set(post.postedId, { ok: true, metrics: sandboxPostMetrics(connection.platform, post.postedId, post.publishedAt, now) });
    return Promise.resolve(out);
  },
  readFollowers(connection, { now }) {
    if (connection.sandboxBehavior === 'expired') {
      return Promise.reject(new TokenExpiredError('Error validating access token: Session has expired (code 190, subcode 463)'));
    }
    return Promise.resolve(sandboxFollowers(connection.platform, connection.externalId, now));
  },
};
