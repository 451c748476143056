// Discord post metrics: none. Herald posts through a channel's incoming webhook, and Discord
// reports no views, reach or clicks of a message to anyone; Herald has no bot in the server to
// read reactions or replies. So the reader makes no call and every metric is null with that reason.
// Source: https://discord.com/developers/docs/resources/webhook (execute, get webhook message)
import { noStatisticsReader, type PostMetricsReader } from '../insights';

/** The reason every metric is null, kept in the catalogue (the sandbox reads it too). */
export { DISCORD_NO_STATISTICS } from '../catalogue/discord';

export function createDiscordInsightsReader(): PostMetricsReader {
  return noStatisticsReader('discord');
}
