// Kick post metrics: none. The public API has no call that reads a chat message back or counts
// who saw it (chat reaches an app only as chat.message.sent events). So the reader makes no call
// and every metric is null with that reason.
// Source: https://docs.kick.com/apis/chat, https://docs.kick.com/events/event-types
import { noStatisticsReader, type PostMetricsReader } from '../insights';

/** The reason every metric is null, kept in the catalogue (the sandbox reads it too). */
export { KICK_NO_STATISTICS } from '../catalogue/kick';

export function createKickInsightsReader(): PostMetricsReader {
  return noStatisticsReader('kick');
}
