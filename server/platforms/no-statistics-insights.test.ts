// The readers of the networks that give Herald no statistics: every metric null with the
// reason, and no request made.
//   Telegram: https://core.telegram.org/bots/api#message (no view count) and #messagereactioncountupdated
//   Discord:  https://discord.com/developers/docs/resources/webhook
//   Slack:    https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks
//   Ghost:    https://docs.ghost.org/admin-api/#posts (a Post carries no view, reaction or share counts)
//   Medium:   https://github.com/Medium/medium-api-docs ("3. Resources": posts can be created, never read)
//   WordPress: https://developer.wordpress.org/rest-api/reference/posts/#schema (no view or reaction counts)
//   Twitch:   https://dev.twitch.tv/docs/api/reference/chat (no call reads a chat message back)
//   Kick:     https://docs.kick.com/apis/chat (no call reads a chat message back)
//   Dribbble: https://developer.dribbble.com/v2/shots/ (a shot carries no counts)
import { describe, expect, it } from 'vitest';
import { liveConnection, MemoryTokenStore, useFakePlatformApi } from './testing/adapter-tests';
import { POST_METRICS, type PostMetricsReader } from './insights';
import { insightsReaderFor } from './insights-readers';
import { createDiscordInsightsReader, DISCORD_NO_STATISTICS } from './discord/discord-insights';
import { createSlackInsightsReader, SLACK_NO_STATISTICS } from './slack/slack-insights';
import { createTelegramInsightsReader, TELEGRAM_NO_STATISTICS } from './telegram/telegram-insights';
import { createGhostInsightsReader, GHOST_NO_STATISTICS } from './ghost/ghost-insights';
import { createMediumInsightsReader, MEDIUM_NO_STATISTICS } from './medium/medium-insights';
import { createWordpressInsightsReader, WORDPRESS_NO_STATISTICS } from './wordpress/wordpress-insights';
import { createTwitchInsightsReader, TWITCH_NO_STATISTICS } from './twitch/twitch-insights';
import { createKickInsightsReader, KICK_NO_STATISTICS } from './kick/kick-insights';
import { createDribbbleInsightsReader, DRIBBBLE_NO_STATISTICS } from './dribbble/dribbble-insights';

const api = useFakePlatformApi();
const now = new Date('2026-11-27T12:00:00Z');
const cases: ['telegram' | 'discord' | 'slack' | 'ghost' | 'medium' | 'wordpress' | 'twitch' | 'kick' | 'dribbble', PostMetricsReader, string, string[]][] = [
  ['telegram', createTelegramInsightsReader(), TELEGRAM_NO_STATISTICS, ['4211', '4212']],
  ['discord', createDiscordInsightsReader(), DISCORD_NO_STATISTICS, ['1311122233344455566']],
  ['slack', createSlackInsightsReader(), SLACK_NO_STATISTICS, ['0f8e2a7c-2b7e-4c1e-9a55-0d5f6a7b8c9d']],
  ['ghost', createGhostInsightsReader(), GHOST_NO_STATISTICS, ['6746a8f2b3c1d40001e9a7c2']],
  ['medium', createMediumInsightsReader(), MEDIUM_NO_STATISTICS, ['e6f36a']],
  ['wordpress', createWordpressInsightsReader(), WORDPRESS_NO_STATISTICS, ['1842']],
  ['twitch', createTwitchInsightsReader(), TWITCH_NO_STATISTICS, ['abc-123-def']],
  ['kick', createKickInsightsReader(), KICK_NO_STATISTICS, ['01JH4Z7XQ2ZC6D8S3N5V1R9K0M']],
  ['dribbble', createDribbbleInsightsReader(), DRIBBBLE_NO_STATISTICS, ['471756']],
];

describe.each(cases)('%s insights', (platform, reader, reason, ids) => {
  it('answers every post with every metric null for the reason, without a request', async () => {
    const connection = liveConnection(platform, { externalId: 'x', accountName: 'x', accessToken: 'secret' });
    const out = await reader.readPostMetrics(
      connection,
      ids.map((postedId) => ({ postedId, publishedAt: now })),
      { tokens: new MemoryTokenStore(), now },
    );
    expect([...out.keys()]).toEqual(ids);
    for (const id of ids) {
      const result = out.get(id)!;
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      for (const metric of POST_METRICS) expect(result.metrics[metric]).toEqual({ value: null, reason, networkName: null });
    }
    expect(api.requests).toHaveLength(0);
    expect(reader.source).toBe(platform);
    expect(insightsReaderFor(connection)?.source).toBe(platform);
  });
});
