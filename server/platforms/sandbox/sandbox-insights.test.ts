// A demo account tells the truth: it reports exactly the metrics its real network reports
// (the catalogue's postMetrics, which the network's reader also reads), null with the
// network's own reason for the rest, and a follower count only where the network gives one.
import { describe, expect, it } from 'vitest';
import { PLATFORMS } from '@/server/shared/platforms';
import { catalogueEntry } from '../catalogue';
import { FOLLOWERS_NOT_REPORTED, POST_METRICS } from '../insights';
import { sandboxFollowers, sandboxPostMetrics } from './sandbox-insights';

const published = new Date('2026-11-20T09:00:00Z');
const now = new Date('2026-11-27T09:00:00Z');

describe.each(PLATFORMS)('a demo %s account', (platform) => {
  it('reports a number for exactly the metrics its network reports, under the network’s name', () => {
    const metrics = sandboxPostMetrics(platform, '1000000000000000123', published, now);
    const reported = catalogueEntry(platform).postMetrics;
    for (const metric of POST_METRICS) {
      const entry = reported[metric];
      if ('none' in entry) {
        expect(metrics[metric], metric).toEqual({ value: null, reason: entry.none, networkName: null });
      } else {
        expect(typeof metrics[metric].value, metric).toBe('number');
        expect(metrics[metric].networkName, metric).toBe(entry.reads);
      }
    }
  });

  it('reports followers only where the network does', () => {
    const followers = sandboxFollowers(platform, `sandbox-${platform}`, now);
    if (FOLLOWERS_NOT_REPORTED[platform]) expect(followers).toEqual({ value: null, reason: FOLLOWERS_NOT_REPORTED[platform], networkName: null });
    else expect(followers.value).toBeGreaterThan(0);
  });
});

describe('networks that give no statistics', () => {
  it.each(['telegram', 'discord', 'slack'] as const)('a demo %s account reports no metric at all', (platform) => {
    const metrics = sandboxPostMetrics(platform, '4211', published, now);
    for (const metric of POST_METRICS) expect(metrics[metric].value, metric).toBeNull();
  });

  it('a demo Mastodon account reports no impressions, reach or watch time (Mastodon reports none)', () => {
    const metrics = sandboxPostMetrics('mastodon', '4211', published, now);
    expect(metrics.impressions.value).toBeNull();
    expect(metrics.reach.value).toBeNull();
    expect(metrics.videoWatchSeconds.value).toBeNull();
    expect(metrics.reactions.value).not.toBeNull();
  });
});
