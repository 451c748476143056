// Kick (public API, https://docs.kick.com): a post is a chat message in the connected user's
// own channel, sent as the user (POST /public/v1/chat { type: "user", broadcaster_user_id,
// content }, content "max 500 characters"; the Chat page and its OpenAPI document,
// https://api.kick.com/swagger/v1/doc.json). Chat carries text only. Kick does not say how it
// counts characters; Herald counts code points.
import { z } from 'zod';
import type { PlatformCatalogueEntry } from './entry';
import { codePointLength } from './text-length';
import { noPostMetrics } from './post-metrics';
import { noComments } from './comments';
import { noMessages } from './conversations';

/** Why Herald reads no metrics of a Kick chat message (its reader: server/platforms/kick/). */
export const KICK_NO_STATISTICS = 'Kick reports nothing of a chat message once it is sent (its public API has no call that reads one back)';

export const kick = {
  label: 'Kick',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 500, count: codePointLength },
  // Chat takes text only.
  media: { maxImages: 0, maxVideos: 0, maxItems: 0, mixed: false, required: false, maxVideoSeconds: 0, maxVideoBytes: 0 },
  settings: z.strictObject({}),
  // Access tokens expire (expires_in); the refresh token renews them.
  tokensExpire: true,
  postMetrics: noPostMetrics(KICK_NO_STATISTICS),
  comments: noComments('Replies in a Kick chat are chat messages of their own, which reach an app only as events it subscribes to; Herald does not'),
  messages: noMessages('Kick has no direct messages an app can read (its chat belongs to a livestream)'),
  // How an interrupted publish is settled (reconcile.ts).
  reconcile: {
    none: 'Kick cannot be asked: its public API has no call that reads a chat’s messages (they reach an app only as chat.message.sent events), and sending takes no key that would make a second send harmless. Look at the channel’s chat to see whether the message is there',
  },
} satisfies PlatformCatalogueEntry;
