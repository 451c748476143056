// Slack post metrics: none. An incoming webhook answers "ok" and nothing else (no message ts),
// so Herald cannot even name the message afterwards, and Slack reports no views of a message.
// So the reader makes no call and every metric is null with that reason.
// Source: https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks
import { noStatisticsReader, type PostMetricsReader } from '../insights';

/** The reason every metric is null, kept in the catalogue (the sandbox reads it too). */
export { SLACK_NO_STATISTICS } from '../catalogue/slack';

export function createSlackInsightsReader(): PostMetricsReader {
  return noStatisticsReader('slack');
}
