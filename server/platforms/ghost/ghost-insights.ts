// Ghost post metrics: none. The Admin API's Post carries no view, reaction or share counts;
// a post sent as a newsletter has email open counts (email.opened_count), which Herald does
// not read. So the reader makes no call and every metric is null with that reason.
// Source: https://docs.ghost.org/admin-api/#posts
import { noStatisticsReader, type PostMetricsReader } from '../insights';

export { GHOST_NO_STATISTICS } from '../catalogue/ghost';

export function createGhostInsightsReader(): PostMetricsReader {
  return noStatisticsReader('ghost');
}
