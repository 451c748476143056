// Meta's messaging webhook (POST /hooks/meta) as direct messages: what one delivery carries for
// each Page or Instagram account, shaped as the messages clients read them (graph-messages.ts),
// so a pushed message and the same message read later are one item. The signature is checked
// before this is called; this only reads the body, and reads anything it does not understand as
// nothing (it never throws).
//
// Sources:
//   https://developers.facebook.com/docs/messenger-platform/webhooks
//     { object: "page" | "instagram", entry: [{ id, time, messaging: [event] }] }: entry.id is the
//     Page id (object page) or the Instagram professional account id (object instagram).
//   https://developers.facebook.com/docs/messenger-platform/reference/webhook-events/messages
//     { sender: { id: PSID | IGSID }, recipient: { id: Page or account id }, timestamp (ms),
//       message: { mid, text?, attachments?: [{ type: "image" | "video" | "audio" | "file" | …,
//       payload: { url } }] } }
//   https://developers.facebook.com/docs/messenger-platform/reference/webhook-events/message-echoes
//     message.is_echo: true: sent by the account itself (from Herald or Meta's own inbox);
//     sender is the account, recipient the person.
//   https://developers.facebook.com/docs/messenger-platform/instagram/features/webhook (the same
//     events for Instagram; message.is_deleted when the person unsent a message)
// Deliveries, reads, reactions and postbacks are events without `message` and are left out. The
// `standby` list (events while another app owns the conversation under the handover protocol)
// carries the same messages and is read like `messaging`. `changes` (ratings) are read elsewhere.
// The payload names nobody: a message's author name is their id until a read names them.
import { z } from 'zod';
import type { Platform } from '@/server/shared/platforms';
import type { NetworkMessage, PushedItems } from '../conversations';

const id = z.union([z.string().min(1), z.number()]).transform(String);

const Envelope = z.object({ object: z.string(), entry: z.array(z.unknown()) });
const Entry = z.object({
  id,
  time: z.number().optional(),
  messaging: z.array(z.unknown()).optional(),
  standby: z.array(z.unknown()).optional(),
});
const Event = z.object({
  sender: z.object({ id }),
  recipient: z.object({ id }),
  timestamp: z.number().optional(),
  message: z.object({
    mid: z.string().min(1),
    text: z.string().optional(),
    is_echo: z.boolean().optional(),
    is_deleted: z.boolean().optional(),
    attachments: z.array(z.unknown()).optional(),
  }),
});
const ImageAttachment = z.object({ type: z.literal('image'), payload: z.object({ url: z.string().min(1) }) });

/** Which connections an entry's id may be: a Page's (Messenger), or an Instagram account's (either login). */
const PLATFORMS: Record<string, Platform[]> = {
  page: ['facebook'],
  instagram: ['instagram', 'instagram_login'],
};

/** The messages of one Meta webhook delivery, one PushedItems per entry that carries any. */
export function parseMetaMessaging(body: unknown): PushedItems[] {
  const envelope = Envelope.safeParse(body);
  if (!envelope.success) return [];
  const platforms = PLATFORMS[envelope.data.object];
  if (!platforms) return [];
  const pushed: PushedItems[] = [];
  for (const rawEntry of envelope.data.entry) {
    const entry = Entry.safeParse(rawEntry);
    if (!entry.success) continue;
    const events = [...(entry.data.messaging ?? []), ...(entry.data.standby ?? [])];
    const messages = events.map((event) => toMessage(event, entry.data.time)).filter((m): m is NetworkMessage => m !== null);
    if (messages.length) pushed.push({ accountId: entry.data.id, platforms: [...platforms], messages, reviews: [] });
  }
  return pushed;
}

function toMessage(raw: unknown, entryTime: number | undefined): NetworkMessage | null {
  const event = Event.safeParse(raw);
  if (!event.success) return null;
  const { sender, recipient, timestamp, message } = event.data;
  // An unsent message is not one to answer; the inbox keeps what it already has.
  if (message.is_deleted) return null;
  const fromAccount = message.is_echo === true;
  // The conversation is the person's scoped id (graph-messages.ts): the recipient of an echo.
  const counterpartId = fromAccount ? recipient.id : sender.id;
  return {
    id: message.mid,
    conversationId: counterpartId,
    counterpartId,
    authorId: sender.id,
    authorName: sender.id,
    authorHandle: null,
    text: message.text ?? '',
    attachmentUrl: imageOf(message.attachments),
    createdAt: dateOf(timestamp ?? entryTime),
    fromAccount,
  };
}

function imageOf(attachments: unknown[] | undefined): string | null {
  for (const raw of attachments ?? []) {
    const image = ImageAttachment.safeParse(raw);
    if (image.success) return image.data.payload.url;
  }
  return null;
}

/** Meta's timestamps are epoch milliseconds; a message without one is dated when it arrives. */
function dateOf(ms: number | undefined): Date {
  const date = new Date(typeof ms === 'number' && Number.isFinite(ms) ? ms : Date.now());
  return Number.isNaN(date.getTime()) ? new Date() : date;
}
