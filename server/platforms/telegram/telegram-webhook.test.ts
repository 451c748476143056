// Telegram Updates, as the Bot API documents them, read as direct messages.
//   https://core.telegram.org/bots/api#update, #message, #chat, #user, #photosize
//   https://core.telegram.org/bots/webhooks (an Update per POST)
import { describe, expect, it } from 'vitest';
import { parseTelegramUpdate } from './telegram-webhook';

const BOT = '7012345678';
const OLGA = 483920175;
const olga = { id: OLGA, is_bot: false, first_name: 'Olga', last_name: 'Petrova', username: 'olga_p', language_code: 'en' };

describe('parseTelegramUpdate', () => {
  it('reads a private message to the bot: the chat is the conversation, the id is unique with its chat', () => {
    const update = {
      update_id: 872610101,
      message: {
        message_id: 51,
        from: olga,
        chat: { id: OLGA, first_name: 'Olga', last_name: 'Petrova', username: 'olga_p', type: 'private' },
        date: 1764237600,
        text: 'Hello!',
      },
    };
    expect(parseTelegramUpdate(update, BOT)).toEqual([
      {
        accountId: BOT,
        platforms: ['telegram'],
        messages: [
          {
            id: `${OLGA}:51`,
            conversationId: String(OLGA),
            counterpartId: String(OLGA),
            authorId: String(OLGA),
            authorName: 'Olga Petrova',
            authorHandle: '@olga_p',
            text: 'Hello!',
            attachmentUrl: null,
            createdAt: new Date(1764237600 * 1000),
            fromAccount: false,
          },
        ],
        reviews: [],
      },
    ]);
  });

  it('reads a photo’s caption and never its address (which would carry the bot token)', () => {
    const update = {
      update_id: 872610103,
      message: {
        message_id: 52,
        from: { id: OLGA, is_bot: false, first_name: 'Olga' },
        chat: { id: OLGA, first_name: 'Olga', type: 'private' },
        date: 1764237660,
        photo: [{ file_id: 'AgACAgIAAxkBAAIBY2ZlargeQ', file_unique_id: 'AQADlarge', file_size: 84211, width: 1280, height: 960 }],
        caption: 'This bag',
      },
    };
    expect(parseTelegramUpdate(update, BOT)[0]!.messages[0]).toMatchObject({ text: 'This bag', attachmentUrl: null, authorName: 'Olga', authorHandle: null });
  });

  it('leaves out groups, channel posts and edits; reads junk as nothing and never throws', () => {
    const junk: unknown[] = [
      {
        update_id: 1,
        message: { message_id: 9, from: olga, chat: { id: -4012345678, title: 'Coffee lovers', type: 'group' }, date: 1764237610, text: 'hi all' },
      },
      {
        update_id: 2,
        channel_post: { message_id: 312, chat: { id: -1001234567890, title: 'Herald Coffee', type: 'channel' }, date: 1764100000, text: 'Fresh roast' },
      },
      {
        update_id: 3,
        edited_message: { message_id: 51, from: olga, chat: { id: OLGA, type: 'private' }, date: 1764237600, edit_date: 1764237700, text: 'Hello!!' },
      },
      { update_id: 4, my_chat_member: { chat: { id: OLGA, type: 'private' } } },
      { update_id: 'x', message: {} },
      { message: { message_id: 1, chat: { id: OLGA, type: 'private' } } },
      { update_id: 5, message: { message_id: '51', chat: { id: OLGA, type: 'private' } } },
      { update_id: 6, message: { message_id: 51, chat: null } },
      null,
      undefined,
      'update',
      [],
      JSON.parse('{"update_id":7,"message":{"__proto__":{"chat":{"type":"private"}}}}'),
    ];
    for (const body of junk) expect(parseTelegramUpdate(body, BOT)).toEqual([]);
  });
});
