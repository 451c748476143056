// Dribbble post metrics: none. API v2's shot object carries no view, like or comment counts (v1's
// counts were removed with v2), and no other call reports them. So the reader makes no call and
// every metric is null with that reason.
// Source: https://developer.dribbble.com/v2/shots/
import { noStatisticsReader, type PostMetricsReader } from '../insights';

/** The reason every metric is null, kept in the catalogue (the sandbox reads it too). */
export { DRIBBBLE_NO_STATISTICS } from '../catalogue/dribbble';

export function createDribbbleInsightsReader(): PostMetricsReader {
  return noStatisticsReader('dribbble');
}
