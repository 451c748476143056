// Sandbox post metrics: deterministic numbers that grow after publishing, so demos and tests
// show results without a network. The same post and moment always give the same numbers; each
// counter approaches its post's own ceiling (about 60 % of it after a day, nearly all after a
// week). Metrics the real network does not report are null here too, with the same reason,
// so the null rules are visible in demos.
import { createHash } from 'node:crypto';
import type { Platform } from '@/server/shared/platforms';
import {
  FOLLOWERS_NOT_REPORTED,
  metricSet,
  notOffered,
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

/** What each network does not report (mirrored by the sandbox). */
const NOT_OFFERED: Partial<Record<Platform, Partial<Record<PostMetricName, string>>>> = {
  instagram: {
    impressions: 'Instagram no longer reports impressions (replaced by views since Graph API v22.0)',
    linkClicks: 'Instagram posts have no link clicks',
  },
  facebook: { saves: 'Facebook does not report saves of Page posts' },
  linkedin: { saves: 'LinkedIn does not report saves', videoWatchSeconds: 'LinkedIn reports watch time only in its own analytics' },
  twitter: {
    reach: 'X does not report reach',
    views: 'X reports impressions, not separate views',
    videoWatchSeconds: 'X does not report watch time through the posts lookup',
  },
  threads: {
    impressions: 'Threads reports views, not impressions',
    reach: 'Threads does not report reach per post',
    saves: 'Threads does not report saves',
    linkClicks: 'Threads does not report link clicks per post',
    videoWatchSeconds: 'Threads does not report watch time',
  },
  tiktok: {
    impressions: 'TikTok’s Display API does not report impressions',
    reach: 'TikTok’s Display API does not report reach',
    saves: 'TikTok’s Display API does not report saves',
    linkClicks: 'TikTok videos have no link clicks',
    videoWatchSeconds: 'TikTok’s Display API does not report watch time',
  },
};

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

/** The sandbox's reading of one post at `now`. */
export function sandboxPostMetrics(platform: Platform, postedId: string, publishedAt: Date, now: Date): PostMetrics {
  const hours = Math.max(0, (now.getTime() - publishedAt.getTime()) / 3_600_000);
  const grown = 1 - Math.exp(-hours / 26);
  const skip = NOT_OFFERED[platform] ?? {};
  const given: Partial<PostMetrics> = {};
  for (const [metric, [low, high]] of Object.entries(CEILINGS) as [PostMetricName, [number, number]][]) {
    const reason = skip[metric];
    if (reason) {
      given[metric] = notOffered(reason);
      continue;
    }
    const ceiling = low + unit(postedId, metric) * (high - low);
    given[metric] = { value: Math.round(ceiling * grown), reason: null, networkName: `sandbox.${metric}` };
  }
  return metricSet(given, () => 'Not offered');
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
