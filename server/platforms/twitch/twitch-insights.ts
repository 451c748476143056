// Twitch post metrics: none. A chat message or an announcement is gone from the API once sent:
// Helix has no call that reads one back, nor any count of who saw it. So the reader makes no
// call and every metric is null with that reason.
// Source: https://dev.twitch.tv/docs/api/reference/chat
import { noStatisticsReader, type PostMetricsReader } from '../insights';

/** The reason every metric is null, kept in the catalogue (the sandbox reads it too). */
export { TWITCH_NO_STATISTICS } from '../catalogue/twitch';

export function createTwitchInsightsReader(): PostMetricsReader {
  return noStatisticsReader('twitch');
}
