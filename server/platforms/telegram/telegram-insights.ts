// Telegram post metrics: none. The Bot API's Message object carries no view count (views of
// channel posts exist only in the MTProto client API, which needs a user account, not a bot),
// and no method returns a sent message's counters. Reaction counts of channel posts reach a
// bot only as message_reaction_count updates (getUpdates or a webhook, allowed_updates opted
// in), which Herald does not receive. So the reader makes no call and every metric is null
// with that reason.
// Source: https://core.telegram.org/bots/api#message and #messagereactioncountupdated
import { noStatisticsReader, type PostMetricsReader } from '../insights';

/** The reason every metric is null, kept in the catalogue (the sandbox reads it too). */
export { TELEGRAM_NO_STATISTICS } from '../catalogue/telegram';

export function createTelegramInsightsReader(): PostMetricsReader {
  return noStatisticsReader('telegram');
}
