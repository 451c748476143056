// Slack post metrics: none. An incoming webhook answers "ok" and nothing else (no message ts),
// so Herald cannot even name the message afterwards, and Slack reports no views of a message.
// So the reader makes no call and every metric is null with that reason.
// Source: https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks
import { noStatisticsReader, type PostMetricsReader } from '../insights';

export const SLACK_NO_STATISTICS = 'Slack incoming webhooks give no statistics (the webhook answers "ok" without the message’s id, and Slack reports no views)';

export function createSlackInsightsReader(): PostMetricsReader {
  return noStatisticsReader('slack', SLACK_NO_STATISTICS);
}
