// The Telegram messages client against the documented Bot API shapes, served by the local HTTPS
// stand-in through the guarded client.
//   https://core.telegram.org/bots/api#getupdates (offset, allowed_updates; 409 with a webhook set)
//   https://core.telegram.org/bots/api#update, #message, #chat, #user
//   https://core.telegram.org/bots/api#sendmessage, #sendphoto
//   https://core.telegram.org/bots/api#making-requests ({ ok: false, error_code, description })
import { describe, expect, it } from 'vitest';
import type { ConversationsContext } from '../conversations';
import { TokenExpiredError } from '../publisher';
import { failure, liveConnection, MemoryTokenStore, useFakePlatformApi } from '../testing/adapter-tests';
import { createTelegramMessagesClient, type TelegramMessagesOptions } from './telegram-messages';

const BOT_TOKEN = '7012345678:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const BOT = '7012345678';
const CHANNEL = '-1001234567890';
const OLGA = 483920175;
const METHOD = (name: string) => `/bot${BOT_TOKEN}/${name}`;

const api = useFakePlatformApi();
const connection = liveConnection('telegram', {
  externalId: CHANNEL,
  accountName: 'heraldcoffee',
  accessToken: BOT,
  platformData: { chatId: CHANNEL, username: 'heraldcoffee', botId: BOT },
});
const ctx = (): ConversationsContext => ({ tokens: new MemoryTokenStore(), now: new Date('2026-11-27T12:00:00Z') });
const client = (extra: Partial<TelegramMessagesOptions> = {}) =>
  createTelegramMessagesClient({ fetch: api.fetch, baseUrl: api.baseUrl, botToken: BOT_TOKEN, ...extra });

const olga = { id: OLGA, is_bot: false, first_name: 'Olga', last_name: 'Petrova', username: 'olga_p', language_code: 'en' };
const UPDATES = [
  {
    update_id: 872610101,
    message: {
      message_id: 51,
      from: olga,
      chat: { id: OLGA, first_name: 'Olga', last_name: 'Petrova', username: 'olga_p', type: 'private' },
      date: 1764237600,
      text: 'Hello! Do you deliver?',
    },
  },
  {
    // A group the bot sits in: not a direct message.
    update_id: 872610102,
    message: { message_id: 9, from: olga, chat: { id: -4012345678, title: 'Coffee lovers', type: 'group' }, date: 1764237610, text: 'hi all' },
  },
  {
    update_id: 872610103,
    message: {
      message_id: 52,
      from: olga,
      chat: { id: OLGA, first_name: 'Olga', type: 'private' },
      date: 1764237660,
      photo: [
        { file_id: 'AgACAgIAAxkBAAIBY2ZsmallQ', file_unique_id: 'AQADsmall', file_size: 1337, width: 90, height: 67 },
        { file_id: 'AgACAgIAAxkBAAIBY2ZlargeQ', file_unique_id: 'AQADlarge', file_size: 84211, width: 1280, height: 960 },
      ],
      caption: 'This bag',
    },
  },
];

describe('Telegram messages', () => {
  it('reads private messages from getUpdates, newest first; the chat is the conversation; the cursor is the last update', async () => {
    api.on('POST', METHOD('getUpdates'), { json: { ok: true, result: UPDATES } });

    const read = await client().readMessages(connection, null, ctx());

    const [request] = api.calls('POST', METHOD('getUpdates'));
    expect(request!.json()).toEqual({ limit: 100, timeout: 0, allowed_updates: ['message'] });
    expect(read.messages).toEqual([
      {
        id: `${OLGA}:52`,
        conversationId: String(OLGA),
        counterpartId: String(OLGA),
        authorId: String(OLGA),
        authorName: 'Olga Petrova',
        authorHandle: '@olga_p',
        text: 'This bag',
        // Its address would carry the bot token: never stored.
        attachmentUrl: null,
        createdAt: new Date(1764237660 * 1000),
        fromAccount: false,
      },
      expect.objectContaining({ id: `${OLGA}:51`, text: 'Hello! Do you deliver?', createdAt: new Date(1764237600 * 1000) }),
    ]);
    expect(read.cursor).toBe('872610103');
  });

  it('asks from the update after the cursor (confirming the ones read), and pages while Telegram answers full pages', async () => {
    const full = Array.from({ length: 100 }, (_, i) => ({ update_id: 872610104 + i, edited_message: { message_id: 1 } }));
    api.on('POST', METHOD('getUpdates'), { json: { ok: true, result: full } }, { json: { ok: true, result: [] } });

    const read = await client().readMessages(connection, '872610103', ctx());

    expect(api.calls('POST', METHOD('getUpdates')).map((r) => r.json().offset)).toEqual([872610104, 872610204]);
    expect(read).toEqual({ messages: [], cursor: '872610203' });

    api.on('POST', METHOD('getUpdates'), { json: { ok: true, result: [] } });
    expect(await client().readMessages(connection, '872610203', ctx())).toEqual({ messages: [], cursor: '872610203' });
  });

  it('reads nothing while a webhook is set (Telegram pushes instead)', async () => {
    api.on('POST', METHOD('getUpdates'), {
      status: 409,
      json: {
        ok: false,
        error_code: 409,
        description: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      },
    });
    expect(await client().readMessages(connection, '872610103', ctx())).toEqual({ messages: [], cursor: '872610103' });
  });

  it('answers with sendMessage, or sendPhoto with the text as caption', async () => {
    const sentMessage = (id: number, extra: Record<string, unknown>) => ({
      ok: true,
      result: {
        message_id: id,
        from: { id: Number(BOT), is_bot: true, first_name: 'Herald', username: 'herald_bot' },
        chat: { id: OLGA, type: 'private' },
        date: 1764237700,
        ...extra,
      },
    });
    api.on('POST', METHOD('sendMessage'), { json: sentMessage(53, { text: 'Yes, within the city.' }) });
    api.on('POST', METHOD('sendPhoto'), { json: sentMessage(54, { caption: 'Our delivery area', photo: [] }) });
    const to = { conversationId: String(OLGA), counterpartId: String(OLGA) };

    expect(await client().sendMessage(connection, to, { text: 'Yes, within the city.' }, ctx())).toEqual({ id: `${OLGA}:53` });
    expect(api.calls('POST', METHOD('sendMessage'))[0]!.json()).toEqual({ chat_id: String(OLGA), text: 'Yes, within the city.' });

    expect(await client().sendMessage(connection, to, { text: 'Our delivery area', imageUrl: 'https://media.herald.example/map.png' }, ctx())).toEqual({
      id: `${OLGA}:54`,
    });
    expect(api.calls('POST', METHOD('sendPhoto'))[0]!.json()).toEqual({
      chat_id: String(OLGA),
      photo: 'https://media.herald.example/map.png',
      caption: 'Our delivery area',
    });
  });

  it('passes refusals on in Telegram’s words without failing the connection: a blocked bot, a refused bot token', async () => {
    api.on('POST', METHOD('sendMessage'), { status: 403, json: { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' } });
    const blocked = await failure(client().sendMessage(connection, { conversationId: String(OLGA), counterpartId: String(OLGA) }, { text: 'Hi' }, ctx()));
    expect(blocked).not.toBeInstanceOf(TokenExpiredError);
    expect(blocked.message).toBe('Forbidden: bot was blocked by the user');

    // The bot token is the deployment's: reconnecting the channel would not help.
    api.on('POST', METHOD('getUpdates'), { status: 401, json: { ok: false, error_code: 401, description: 'Unauthorized' } });
    const unauthorized = await failure(client().readMessages(connection, null, ctx()));
    expect(unauthorized).not.toBeInstanceOf(TokenExpiredError);
    expect(unauthorized.message).toBe('Unauthorized');
  });

  it('asks to reconnect a channel connected with another bot, and says when no bot is configured', async () => {
    const other = { ...connection, platformData: { ...connection.platformData, botId: '6999999999' } };
    expect(await failure(client().readMessages(other, null, ctx()))).toBeInstanceOf(TokenExpiredError);
    expect(api.requests).toHaveLength(0);

    const none = await failure(createTelegramMessagesClient({ fetch: api.fetch, baseUrl: api.baseUrl, botToken: '' }).readMessages(connection, null, ctx()));
    expect(none.message).toMatch(/TELEGRAM_BOT_TOKEN/);
  });
});
