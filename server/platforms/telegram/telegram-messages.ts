// Telegram direct messages: people writing to the deployment's bot (TELEGRAM_BOT_TOKEN) in a
// private chat, read with getUpdates while no webhook is set, and answered by the bot.
//
// Sources (https://core.telegram.org/bots/api):
//   #getupdates  { offset, limit 1-100, timeout, allowed_updates } → [Update], oldest first.
//                "An update is considered confirmed as soon as getUpdates is called with an
//                offset higher than its update_id"; "will not work if an outgoing webhook is
//                set up" (409 Conflict). Unconfirmed updates are kept for 24 hours.
//   #update, #message (the shapes: telegram-webhook.ts, which maps an Update for both paths)
//   #sendmessage { chat_id, text } → Message; #sendphoto { chat_id, photo (a URL Telegram
//                fetches), caption 0-1024 } → Message
//   #making-requests { ok: false, error_code, description } (telegram-api.ts)
// Cursor: the id of the last update read, private message or not. A read asks from the one
// after it (offset = cursor + 1), which confirms to Telegram every update up to the cursor: only
// those a previous read returned, so nothing is dropped before Herald stored it.
// Errors: the bot token is the deployment's, not the account's, so a refused token is a
// PlatformError (as for publishing, telegram-publisher.ts); a person who blocked the bot is a
// refusal of that answer (403), not of the connection. The only reason to reconnect is a
// channel connected with another bot than the one configured now.
import { env } from '@/server/config/env';
import { apiEndpoint, jsonString, type AdapterOptions } from '../http';
import type { MessagesClient, NetworkMessage } from '../conversations';
import { PlatformError, TokenExpiredError, type PublishableConnection } from '../publisher';
import { botIdOf, TELEGRAM_DEFAULT_BASE_URL, TelegramApiError, telegramClient, type TelegramClient } from './telegram-api';
import { telegramUpdateId, telegramUpdateMessage } from './telegram-webhook';

/** The most getUpdates calls of 100 updates one read makes. */
export const DEFAULT_UPDATE_PAGES = 10;
const PAGE_SIZE = 100;

export interface TelegramMessagesOptions extends AdapterOptions {
  /** The deployment's bot token; TELEGRAM_BOT_TOKEN by default. */
  botToken?: string;
  maxPages?: number;
}

export function createTelegramMessagesClient(options: TelegramMessagesOptions = {}): MessagesClient {
  /** The bot's client, once the connection is known to be this bot's. */
  const botFor = (connection: PublishableConnection): { api: TelegramClient; botId: string } => {
    const { fetch, baseUrl } = apiEndpoint(options, 'TELEGRAM_API_BASE_URL', TELEGRAM_DEFAULT_BASE_URL);
    const botToken = options.botToken ?? env.telegramBotToken();
    if (!botToken) throw new PlatformError('No Telegram bot is configured on this Herald (TELEGRAM_BOT_TOKEN)');
    const botId = botIdOf(botToken);
    const stored = connection.platformData?.botId;
    if ((typeof stored === 'string' || typeof stored === 'number') && String(stored) && String(stored) !== botId) {
      throw new TokenExpiredError('This channel was connected to another Telegram bot; reconnect it to add the current bot.');
    }
    return { api: telegramClient(fetch, baseUrl, botToken, options.timeoutMs), botId };
  };

  return {
    source: 'telegram',

    async readMessages(connection, cursor) {
      const { api, botId } = botFor(connection);
      const messages: NetworkMessage[] = [];
      let last = cursor && /^\d+$/.test(cursor) ? Number(cursor) : null;
      for (let page = 0; page < (options.maxPages ?? DEFAULT_UPDATE_PAGES); page++) {
        let updates: unknown;
        try {
          updates = await api.call('getUpdates', {
            ...(last !== null ? { offset: last + 1 } : {}),
            limit: PAGE_SIZE,
            timeout: 0,
            allowed_updates: ['message'],
          });
        } catch (error) {
          // A webhook is set: Telegram pushes the messages instead, and there is nothing to read.
          if (error instanceof TelegramApiError && error.status === 409) break;
          throw mapError(error);
        }
        const list = Array.isArray(updates) ? updates : [];
        for (const update of list) {
          const id = telegramUpdateId(update);
          if (id === null) continue;
          if (last === null || id > last) last = id;
          const message = telegramUpdateMessage(update, botId);
          if (message) messages.push(message);
        }
        if (list.length < PAGE_SIZE) break;
      }
      // Newest conversations first, as the port asks (Telegram answers oldest first).
      messages.reverse();
      return { messages, cursor: last === null ? cursor : String(last) };
    },

    async sendMessage(connection, to, message) {
      const { api } = botFor(connection);
      const chatId = to.conversationId || to.counterpartId;
      let sent: unknown;
      try {
        sent = message.imageUrl
          ? await api.call('sendPhoto', { chat_id: chatId, photo: message.imageUrl, ...(message.text ? { caption: message.text } : {}) })
          : await api.call('sendMessage', { chat_id: chatId, text: message.text });
      } catch (error) {
        throw mapError(error);
      }
      const messageId = jsonString(sent, 'message_id');
      if (!messageId) throw new PlatformError('Telegram accepted the message but returned no message_id');
      return { id: `${jsonString(sent, 'chat', 'id') ?? chatId}:${messageId}` };
    },
  };
}

/** Telegram's refusal in its own words; the connection itself stays as it is (see above). */
function mapError(error: unknown): unknown {
  return error instanceof TelegramApiError ? new PlatformError(error.message, { status: error.status }) : error;
}
