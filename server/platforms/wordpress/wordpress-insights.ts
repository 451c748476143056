// WordPress post metrics: none. A WordPress post as the REST API returns it carries no view,
// reaction or share counts (https://developer.wordpress.org/rest-api/reference/posts/#schema);
// page views come from statistics plugins, whose APIs differ and which Herald does not read. So
// the reader makes no call and every metric is null with that reason.
import { noStatisticsReader, type PostMetricsReader } from '../insights';

export { WORDPRESS_NO_STATISTICS } from '../catalogue/wordpress';

export function createWordpressInsightsReader(): PostMetricsReader {
  return noStatisticsReader('wordpress');
}
