// A Telegram Update (POST /hooks/telegram, or one entry of getUpdates) as a direct message: a
// person writing to the bot in a private chat, shaped as the messages client reads it
// (telegram-messages.ts reads its updates through the same function), so a pushed message and
// the same message read are one item. The secret token is checked before this is called; this
// only reads the body, and reads anything it does not understand as nothing (it never throws).
//
// Sources (https://core.telegram.org/bots/api):
//   #update   { update_id, message?: Message, edited_message?, channel_post?, … }: at most one
//             of the optional fields is present in any given update.
//   #message  { message_id (unique inside this chat), from?: User, chat: Chat, date (unix
//             seconds), text?, caption?, photo?: [PhotoSize] }
//   #chat     { id, type: "private" | "group" | "supergroup" | "channel", first_name?,
//             last_name?, username? }; in a private chat the chat id is the person's user id.
//   #user     { id, is_bot, first_name, last_name?, username? }
//   #getfile  a file's address is https://api.telegram.org/file/bot<token>/<file_path>: it
//             carries the bot token, so a photo's address is never stored (attachmentUrl null).
// Groups, channels (Herald's own channel posts among them) and edits are not direct messages.
// Ids: message_id is unique only inside its chat, so a message is `<chat id>:<message_id>`; the
// conversation and the person answered are the chat id.
import { z } from 'zod';
import type { NetworkMessage, PushedItems } from '../conversations';

const int = z.number().int();

const User = z.object({
  id: int,
  is_bot: z.boolean().optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  username: z.string().optional(),
});
const Message = z.object({
  message_id: int,
  from: User.optional(),
  chat: z.object({
    id: int,
    type: z.string(),
    first_name: z.string().optional(),
    last_name: z.string().optional(),
    username: z.string().optional(),
  }),
  date: int.optional(),
  text: z.string().optional(),
  caption: z.string().optional(),
});
const Update = z.object({ update_id: int, message: z.unknown().optional() });

/** The direct message one Update carries for the bot (`botAccountId`: the bot's id), or none. */
export function parseTelegramUpdate(body: unknown, botAccountId: string): PushedItems[] {
  const message = telegramUpdateMessage(body, botAccountId);
  return message ? [{ accountId: botAccountId, platforms: ['telegram'], messages: [message], reviews: [] }] : [];
}

/** The update's id, or null when the body is not an Update. */
export function telegramUpdateId(body: unknown): number | null {
  const update = Update.safeParse(body);
  return update.success ? update.data.update_id : null;
}

/** The private message an Update carries, shaped as a read returns it; null for anything else. */
export function telegramUpdateMessage(body: unknown, botAccountId: string): NetworkMessage | null {
  const update = Update.safeParse(body);
  if (!update.success) return null;
  const parsed = Message.safeParse(update.data.message);
  if (!parsed.success) return null;
  const { message_id: messageId, from, chat, date, text, caption } = parsed.data;
  if (chat.type !== 'private') return null;
  const chatId = String(chat.id);
  const person = from ?? { id: chat.id, first_name: chat.first_name, last_name: chat.last_name, username: chat.username };
  const authorId = String(person.id);
  const name = [person.first_name, person.last_name].filter((part) => part?.trim()).join(' ');
  return {
    id: `${chatId}:${messageId}`,
    conversationId: chatId,
    counterpartId: chatId,
    authorId,
    authorName: name || person.username || authorId,
    authorHandle: person.username ? `@${person.username}` : null,
    // A sticker, voice note or file without a caption has no words; the message is still one to answer.
    text: text ?? caption ?? '',
    attachmentUrl: null,
    createdAt: date !== undefined && date > 0 ? new Date(date * 1000) : new Date(),
    fromAccount: authorId === botAccountId,
  };
}
