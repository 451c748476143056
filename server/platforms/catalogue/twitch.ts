// Twitch (Helix chat): a post is a message in the broadcaster's own chat room, sent as the
// broadcaster, either a chat message (https://dev.twitch.tv/docs/api/reference/chat#send-chat-message:
// POST /helix/chat/messages { broadcaster_id, sender_id, message }, "limited to a maximum of 500
// characters") or an announcement (https://dev.twitch.tv/docs/api/reference/chat#send-chat-announcement:
// POST /helix/chat/announcements?broadcaster_id&moderator_id { message, color }, 500 characters,
// one every 2 seconds). Chat carries text only: emotes are typed by name, links as text. Twitch
// does not say how it counts characters; Herald counts code points.
import { z } from 'zod';
import type { PlatformCatalogueEntry } from './entry';
import { codePointLength } from './text-length';
import { noPostMetrics } from './post-metrics';
import { noComments } from './comments';
import { withOptionWords } from './option-words';
import { noMessages } from './conversations';

/** Why Herald reads no metrics of a Twitch chat message (its reader: server/platforms/twitch/). */
export const TWITCH_NO_STATISTICS = 'Twitch reports no views or reactions of a chat message or an announcement (the Helix API has no call that reads one back)';

export const twitch = {
  label: 'Twitch',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 500, count: codePointLength },
  // Chat takes text only.
  media: { maxImages: 0, maxVideos: 0, maxItems: 0, mixed: false, required: false, maxVideoSeconds: 0, maxVideoBytes: 0 },
  settings: z.strictObject({
    messageType: withOptionWords(z.enum(['message', 'announcement']), {
      message: 'A chat message',
      announcement: 'An announcement, highlighted in the chat',
    })
      .optional()
      .describe('Whether the text goes to the channel’s chat as an ordinary message or as a highlighted announcement')
      .meta({ default: 'message' }),
    color: withOptionWords(z.enum(['primary', 'blue', 'green', 'orange', 'purple']), {
      primary: 'The channel’s accent colour',
      blue: 'Blue',
      green: 'Green',
      orange: 'Orange',
      purple: 'Purple',
    })
      .optional()
      .describe('The colour of an announcement’s highlight (announcements only)')
      .meta({ default: 'primary' }),
  }),
  // User access tokens last about four hours; the refresh token renews them.
  tokensExpire: true,
  postMetrics: noPostMetrics(TWITCH_NO_STATISTICS),
  comments: noComments('Replies in a Twitch chat are chat messages of their own, which Herald would have to read live over EventSub; it does not'),
  messages: noMessages('Twitch whispers can be sent by an app but not read (the Helix API has no whisper list)'),
  // How an interrupted publish is settled (reconcile.ts).
  reconcile: {
    none: 'Twitch cannot be asked: the Helix API has no call that reads a chat’s past messages, and neither a chat message nor an announcement takes a key that would make a second send harmless. Look at the channel’s chat to see whether the message is there',
  },
} satisfies PlatformCatalogueEntry;
