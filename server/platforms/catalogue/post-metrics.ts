// The post metrics Herald reads from the networks, and what each network reports of them. The
// names and their order are the same everywhere (API, CSV, docs/analytics.md); which of them a
// network reports is part of its catalogue entry (`postMetrics`), read by its insights reader
// (for the reasons of what it never reports) and by the sandbox (a demo account reports exactly
// what its network reports), so the two cannot drift apart.

/** The normalised metric set, in this order everywhere (API, CSV, docs/analytics.md). */
export const POST_METRICS = ['impressions', 'reach', 'views', 'reactions', 'comments', 'shares', 'saves', 'linkClicks', 'videoWatchSeconds'] as const;
export type PostMetricName = (typeof POST_METRICS)[number];

/** Each metric in words, for every screen that shows one (the app's results, the Posts view). */
export const POST_METRIC_LABELS: Record<PostMetricName, string> = {
  impressions: 'Impressions',
  reach: 'Reach',
  views: 'Views',
  reactions: 'Reactions',
  comments: 'Comments',
  shares: 'Shares',
  saves: 'Saves',
  linkClicks: 'Link clicks',
  videoWatchSeconds: 'Watch time (s)',
};

/**
 * One metric of one network: `reads` names what Herald reads for it (the network's own field or
 * metric name; a given post may still lack it, with the reader's reason), `none` says why Herald
 * never gets it from that network.
 */
export type NetworkMetric = { reads: string } | { none: string };

/** What a network reports of a published post, metric by metric. */
export type NetworkPostMetrics = Record<PostMetricName, NetworkMetric>;

/** Every metric `none` for one reason (a network that gives no statistics at all). */
export function noPostMetrics(reason: string): NetworkPostMetrics {
  return Object.fromEntries(POST_METRICS.map((m) => [m, { none: reason }])) as NetworkPostMetrics;
}

/** The metrics a network reports, in the canonical order. */
export function reportedMetrics(metrics: NetworkPostMetrics): PostMetricName[] {
  return POST_METRICS.filter((m) => 'reads' in metrics[m]);
}
