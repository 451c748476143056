// A client report's numbers for one workspace and a range of days (docs/decisions.md → "Post
// results"): headline totals with their coverage, per network, per day, the top posts and
// everything published. Built from the same window read as top posts, rollups and the CSV
// (windowRows: published targets by publishing day in the workspace's zone, each with its
// newest reading), so the report never counts differently from the API.
import { db } from '@/server/db/client';
import type { PostMetricName } from '@/server/platforms/insights';
import { addDays } from '@/server/shared/analytics-window';
import type { Platform } from '@/server/shared/platforms';
import { rankRows, topPostOf, total, windowProvenance, windowRows, type WindowRow } from './read-metrics';

/** The headline and comparison metrics: the counters a client reads first. */
export const REPORT_METRICS = ['impressions', 'reach', 'views'] as const satisfies readonly PostMetricName[];
export const REPORT_TOP_POSTS = 5;

export interface ReportMedia {
  url: string;
  kind: 'image' | 'video';
}

/** Sums over a set of rows; null where no row had a value (never 0 in place of unknown). */
export interface ReportTotals {
  /** Posts (a post published to several accounts counts once). */
  posts: number;
  /** Published targets: one post on one account. */
  targets: number;
  /** Targets with at least one reading. */
  targetsWithReading: number;
  /** Posts with a reading on at least one of their targets. */
  postsWithReading: number;
  engagement: number | null;
  impressions: number | null;
  reach: number | null;
  views: number | null;
  reactions: number | null;
  comments: number | null;
  shares: number | null;
  saves: number | null;
  linkClicks: number | null;
  /** Clicks on Herald's tracked links in these posts (each post's links on a network counted once). */
  clicks: number;
}

/** Tracked-link clicks of the rows: a post's links on one network once, however many accounts of it the post went to. */
function clicksOf(rows: WindowRow[]): number {
  const seen = new Map<string, number>();
  for (const r of rows) seen.set(`${r.postId} ${r.platform}`, Number(r.clicks));
  return [...seen.values()].reduce((a, b) => a + b, 0);
}

function totalsOf(rows: WindowRow[]): ReportTotals {
  const t = total(rows);
  const posts = new Set(rows.map((r) => r.postId));
  const postsRead = new Set(rows.filter((r) => r.hasReading).map((r) => r.postId));
  return {
    posts: posts.size,
    targets: t.posts,
    targetsWithReading: t.withReading,
    postsWithReading: postsRead.size,
    engagement: t.engagement,
    impressions: t.impressions,
    reach: t.reach,
    views: t.views,
    reactions: t.reactions,
    comments: t.comments,
    shares: t.shares,
    saves: t.saves,
    linkClicks: t.linkClicks,
    clicks: clicksOf(rows),
  };
}

/** "3 of 4 posts had a reading": what the headline numbers stand on. */
export function coverageText(t: Pick<ReportTotals, 'posts' | 'postsWithReading'>): string {
  return `${t.postsWithReading} of ${t.posts} post${t.posts === 1 ? '' : 's'} had a reading`;
}

function mediaOf(value: unknown, urls: string[]): ReportMedia[] {
  const listed = Array.isArray(value) ? (value as { url?: unknown; kind?: unknown }[]) : [];
  const kinds = new Map(listed.filter((m) => typeof m.url === 'string').map((m) => [m.url as string, m.kind === 'video' ? 'video' : 'image'] as const));
  return urls.map((url) => ({ url, kind: kinds.get(url) ?? (/\.(mp4|mov|webm|m4v)(\?|$)/i.test(url) ? 'video' : 'image') }));
}

export type ReportResults = Awaited<ReturnType<typeof reportResults>>;

export async function reportResults(workspaceId: string, from: string, to: string) {
  const { rows, timeZone } = await windowRows(workspaceId, from, to);
  const media = new Map(
    (await db.post.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.postId))] }, workspaceId }, select: { id: true, media: true } })).map(
      (p) => [p.id, p.media] as const,
    ),
  );
  const headline = totalsOf(rows);

  const platforms = [...new Set(rows.map((r) => r.platform))].sort();
  const networks = platforms
    .map((platform) => ({ platform: platform as Platform, ...totalsOf(rows.filter((r) => r.platform === platform)) }))
    .sort((a, b) => (b.engagement ?? -1) - (a.engagement ?? -1) || b.targets - a.targets || a.platform.localeCompare(b.platform));

  const days: ({ date: string } & Pick<ReportTotals, 'posts' | 'targets' | 'targetsWithReading' | 'engagement' | 'impressions' | 'reach' | 'views'>)[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const t = totalsOf(rows.filter((r) => r.day === day));
    days.push({
      date: day,
      posts: t.posts,
      targets: t.targets,
      targetsWithReading: t.targetsWithReading,
      engagement: t.engagement,
      impressions: t.impressions,
      reach: t.reach,
      views: t.views,
    });
  }

  const topPosts = rankRows(rows, 'engagement', REPORT_TOP_POSTS).map((r, i) => ({
    ...topPostOf(r, i),
    media: mediaOf(media.get(r.postId), r.mediaUrls),
  }));

  // Everything published, one entry per post (first publication first), its accounts inside.
  const byPost = new Map<string, WindowRow[]>();
  for (const r of rows) byPost.set(r.postId, [...(byPost.get(r.postId) ?? []), r]);
  const published = [...byPost.values()].map((targets) => ({
    postId: targets[0]!.postId,
    content: targets[0]!.content.slice(0, 280),
    publishedAt: targets[0]!.publishedAt.toISOString(),
    media: mediaOf(media.get(targets[0]!.postId), targets[0]!.mediaUrls),
    targets: targets.map((r) => ({
      targetId: r.targetId,
      platform: r.platform as Platform,
      accountName: r.accountName,
      permalink: r.permalink,
      publishedAt: r.publishedAt.toISOString(),
      hasReading: r.hasReading,
      engagement: r.hasReading && r.engagement !== null ? Number(r.engagement) : null,
      clicks: Number(r.clicks),
    })),
  }));

  return {
    range: { from, to, timeZone },
    headline: { ...headline, coverage: coverageText(headline) },
    networks,
    days,
    topPosts,
    published,
    provenance: windowProvenance(rows, timeZone, from, to),
  };
}
