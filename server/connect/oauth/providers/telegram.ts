// Telegram: no consent page. The deployment's bot (TELEGRAM_BOT_TOKEN) must be an administrator
// of the client's channel with the right to post messages; the client adds it, then names the
// channel. Checked with the Bot API (https://core.telegram.org/bots/api): getMe (the bot),
// getChat (the channel: id, title, username, type) and getChatMember (the bot's status there:
// "administrator" with can_post_messages, or "creator").
// Stored: the chat id as the account id; chatId, username and botId in platformData; as the
// access token only the bot's id (the bot token itself stays in the configuration, so rotating
// it needs no reconnect, and no copy of it is kept per channel).
import { env } from '@/server/config/env';
import { baseUrlFromEnv, defaultFetch, jsonAt, jsonString, type Fetcher } from '@/server/platforms/http';
import { TELEGRAM_DEFAULT_BASE_URL, TelegramApiError, telegramClient } from '@/server/platforms/telegram/telegram-api';
import { OAuthFlowError, type CredentialsProvider, type GrantedAccount } from '../oauth-provider';

const client = (fetch: Fetcher, botToken: string) => telegramClient(fetch, baseUrlFromEnv('TELEGRAM_API_BASE_URL', TELEGRAM_DEFAULT_BASE_URL), botToken);

let cachedBot: { token: string; username: string } | null = null;

/** The bot's @username (getMe), cached per token; null without a bot or when Telegram cannot be reached. */
export async function telegramBotUsername(fetch: Fetcher = defaultFetch()): Promise<string | null> {
  const token = env.telegramBotToken();
  if (!token) return null;
  if (cachedBot?.token === token) return cachedBot.username;
  try {
    const username = jsonString(await client(fetch, token).call('getMe'), 'username');
    if (!username) return null;
    cachedBot = { token, username };
    return username;
  } catch {
    return null;
  }
}

/** "@name", "name", "https://t.me/name" or a numeric id, as Telegram's chat_id takes it. */
export function telegramChatId(input: string): string | null {
  const value = input.trim();
  if (/^-?\d{5,20}$/.test(value)) return value;
  const name = /^(?:https?:\/\/)?(?:t\.me\/|telegram\.me\/)?@?([A-Za-z][A-Za-z0-9_]{3,31})\/?$/.exec(value)?.[1];
  return name ? `@${name}` : null;
}

export const telegramCredentials: CredentialsProvider = {
  kind: 'credentials',
  label: 'Telegram',
  choose: false,
  fields: [
    {
      name: 'channel',
      label: 'Channel',
      type: 'text',
      placeholder: '@yourchannel',
      help: 'The public @username of your channel, or the numeric id (-100…) of a private one.',
    },
  ],
  available: () => Boolean(env.telegramBotToken()),
  needsDeploymentSetup: true,
  async instructions(context = { sentBy: null }, fetch = defaultFetch()) {
    const bot = await telegramBotUsername(fetch);
    if (bot) return `Add @${bot} to your channel as an administrator who can post messages, then enter the channel below.`;
    // The bot's name comes only from Telegram (getMe); when Telegram cannot be reached, the
    // client is told so and whom to ask, rather than being sent to look for a bot it cannot name.
    const ask = context.sentBy ? `ask ${context.sentBy} for it` : 'ask whoever set up Herald for it';
    return `Herald could not reach Telegram just now to look up the @name of the bot that posts to your channel. Reload this page in a moment, or ${ask}. Then add that bot to your channel as an administrator who can post messages, and enter the channel below.`;
  },

  async connect(fetch, values): Promise<GrantedAccount[]> {
    const token = env.telegramBotToken();
    if (!token) throw new OAuthFlowError('Telegram is not set up on this service.');
    const chatId = telegramChatId(values.channel ?? '');
    if (!chatId) throw new OAuthFlowError('Enter your channel as @username (or its numeric id for a private channel).');
    const api = client(fetch, token);
    try {
      const bot = await api.call('getMe');
      const botId = jsonString(bot, 'id');
      const chat = await api.call('getChat', { chat_id: chatId });
      if (jsonString(chat, 'type') !== 'channel') throw new OAuthFlowError(`${chatId} is not a Telegram channel. Enter a channel’s @username or id.`);
      const id = jsonString(chat, 'id')!;
      const member = await api.call('getChatMember', { chat_id: id, user_id: Number(botId) });
      const status = jsonString(member, 'status');
      const canPost = status === 'creator' || (status === 'administrator' && jsonAt(member, 'can_post_messages') === true);
      if (!canPost) {
        throw new OAuthFlowError(
          `@${jsonString(bot, 'username')} is not an administrator of this channel with the right to post messages. Add it, then try again.`,
        );
      }
      const username = jsonString(chat, 'username') ?? null;
      const title = jsonString(chat, 'title') ?? username ?? id;
      return [
        {
          externalId: id,
          accountName: username ? `@${username}` : title,
          displayName: title,
          // A chat photo is only reachable through a file URL that carries the bot token.
          avatarUrl: null,
          accessToken: `telegram-bot:${botId}`,
          refreshToken: null,
          expiresAt: null,
          scopes: null,
          platformData: { chatId: id, username, botId: botId ?? null },
        },
      ];
    } catch (error) {
      if (error instanceof TelegramApiError) {
        throw new OAuthFlowError(`Telegram did not let the bot reach ${chatId} (${error.message}). Check the channel and that the bot is an administrator.`);
      }
      throw error;
    }
  },
};
