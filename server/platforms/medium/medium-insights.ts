// Medium post metrics: none. Medium's API can create a story but has no call that reads one, its
// views, claps or responses, so the reader makes no call and every metric is null with that
// reason. Source: https://github.com/Medium/medium-api-docs ("3. Resources": users,
// publications, posts (create only), images).
import { noStatisticsReader, type PostMetricsReader } from '../insights';

export { MEDIUM_NO_STATISTICS } from '../catalogue/medium';

export function createMediumInsightsReader(): PostMetricsReader {
  return noStatisticsReader('medium');
}
