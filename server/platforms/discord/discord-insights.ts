// Discord post metrics: none. Herald posts through a channel's incoming webhook, and Discord
// reports no views, reach or clicks of a message to anyone; Herald has no bot in the server to
// read reactions or replies. So the reader makes no call and every metric is null with that reason.
// Source: https://discord.com/developers/docs/resources/webhook (execute, get webhook message)
import { noStatisticsReader, type PostMetricsReader } from '../insights';

export const DISCORD_NO_STATISTICS = 'Discord webhooks give no statistics of the messages they post (Discord reports no views or reach of a message)';

export function createDiscordInsightsReader(): PostMetricsReader {
  return noStatisticsReader('discord', DISCORD_NO_STATISTICS);
}
