// X's Account Activity webhook (POST /hooks/x) as direct messages: the DMs one delivery carries
// for the subscribed account, shaped as the messages client reads them (twitter-messages.ts), so
// a pushed message and the same message read later are one item: DM event ids are common to the
// v1.1 objects the webhook sends and the v2 events the client reads. The signature is checked
// before this is called; this only reads the body, and reads anything it does not understand as
// nothing (it never throws).
//
// Sources:
//   https://docs.x.com/x-api/account-activity/introduction and
//   https://developer.x.com/en/docs/twitter-api/enterprise/account-activity-api/guides/account-activity-data-objects
//     { for_user_id, direct_message_events: [Message Create], users: { [id]: { id, name,
//       screen_name, profile_image_url_https } }, apps }: DMs both received and sent by the
//     account; the other activities (posts, likes, follows, typing, reads) come under other keys.
//   https://developer.x.com/en/docs/x-api/v1/direct-messages/sending-and-receiving/guides/message-create-object
//     { type: "message_create", id, created_timestamp (epoch ms, as a string), message_create: {
//       target: { recipient_id }, sender_id, source_app_id, message_data: { text, entities,
//       attachment?: { type: "media", media: { type: "photo", media_url_https, … } } } } }
// The payload has no conversation id; a DM here is one-to-one (sender and recipient), whose id
// is the two user ids, the smaller first, as the v2 read names it.
import { z } from 'zod';
import type { NetworkMessage, PushedItems } from '../conversations';
import { xConversationId } from './twitter-messages';

const id = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).transform(String);

const Envelope = z.object({
  for_user_id: id,
  direct_message_events: z.array(z.unknown()),
  users: z.unknown().optional(),
});
const MessageCreate = z.object({
  type: z.literal('message_create'),
  id,
  created_timestamp: z.union([z.string(), z.number()]).optional(),
  message_create: z.object({
    target: z.object({ recipient_id: id }),
    sender_id: id,
    message_data: z
      .object({
        text: z.string().optional(),
        attachment: z.unknown().optional(),
      })
      .optional(),
  }),
});
const User = z.object({
  name: z.string().optional(),
  screen_name: z.string().optional(),
  profile_image_url_https: z.string().optional(),
});
const Photo = z.object({ type: z.literal('media'), media: z.object({ type: z.literal('photo'), media_url_https: z.string().min(1) }) });

/** The DMs of one Account Activity delivery: one PushedItems for the subscribed account, or none. */
export function parseXActivity(body: unknown): PushedItems[] {
  const envelope = Envelope.safeParse(body);
  if (!envelope.success) return [];
  const accountId = envelope.data.for_user_id;
  const users = envelope.data.users;
  const messages = envelope.data.direct_message_events.map((event) => toMessage(event, accountId, users)).filter((m): m is NetworkMessage => m !== null);
  return messages.length ? [{ accountId, platforms: ['twitter'], messages, reviews: [] }] : [];
}

function toMessage(raw: unknown, accountId: string, users: unknown): NetworkMessage | null {
  const event = MessageCreate.safeParse(raw);
  if (!event.success) return null;
  const { sender_id: senderId, target, message_data: data } = event.data.message_create;
  const fromAccount = senderId === accountId;
  const counterpartId = fromAccount ? target.recipient_id : senderId;
  const author = userOf(users, senderId);
  const photo = Photo.safeParse(data?.attachment);
  return {
    id: event.data.id,
    conversationId: xConversationId(accountId, counterpartId),
    counterpartId,
    authorId: senderId,
    authorName: author?.name || author?.screen_name || senderId,
    authorHandle: author?.screen_name ? `@${author.screen_name}` : null,
    authorAvatarUrl: author?.profile_image_url_https ?? null,
    text: data?.text ?? '',
    attachmentUrl: photo.success ? photo.data.media.media_url_https : null,
    createdAt: dateOf(event.data.created_timestamp),
    fromAccount,
  };
}

/** The sender as the delivery's users name them (own properties only, never the prototype's). */
function userOf(users: unknown, userId: string): z.infer<typeof User> | null {
  if (!users || typeof users !== 'object' || !Object.hasOwn(users, userId)) return null;
  const user = User.safeParse((users as Record<string, unknown>)[userId]);
  return user.success ? user.data : null;
}

/** created_timestamp is epoch milliseconds as a string; an event without one is dated when it arrives. */
function dateOf(value: string | number | undefined): Date {
  const ms = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : typeof value === 'number' ? value : Number.NaN;
  const date = new Date(Number.isFinite(ms) ? ms : Date.now());
  return Number.isNaN(date.getTime()) ? new Date() : date;
}
