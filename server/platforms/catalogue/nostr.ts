// Nostr: a kind 1 text note (NIP-01, https://github.com/nostr-protocol/nips/blob/master/01.md)
// signed with the account's key and sent to the relays chosen at connect. NIP-01 sets no length
// (relays cap a message's size, NIP-11 `max_message_length`); Herald's own cap on a text is
// lower than any relay's. Images go as links in the text, which clients show inline, with an
// `imeta` tag per image when the post has an alt text (NIP-92,
// https://github.com/nostr-protocol/nips/blob/master/92.md); Herald uploads no media anywhere.
import { z } from 'zod';
import { ZText } from '@/server/shared/schemas';
import { type PlatformCatalogueEntry } from './entry';
import { noComments } from './comments';
import { LONG_FORM_MAX_CHARS } from './long-form';
import { noPostMetrics } from './post-metrics';
import { codePointLength } from './text-length';
import { noMessages } from './conversations';

export const nostr = {
  label: 'Nostr',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: LONG_FORM_MAX_CHARS, count: codePointLength },
  media: {
    maxImages: 4,
    maxVideos: 0,
    maxItems: 4,
    mixed: false,
    required: false,
    maxVideoSeconds: 0,
    maxVideoBytes: 0,
  },
  settings: z.strictObject({
    altText: ZText.max(1000).optional().describe('A description of the images, sent as their alt text (imeta), for people who cannot see them'),
  }),
  // A key does not lapse.
  tokensExpire: false,
  postMetrics: noPostMetrics(
    'Reactions, reposts and replies to a note are events of their own on the relays (kinds 7, 6 and 1), which Herald does not read yet',
  ),
  comments: noComments('Replies to a note are kind 1 events on the relays that tag it, which Herald does not read yet'),
  messages: noMessages('Nostr direct messages (NIP-17) are not read by Herald yet'),
  // How an interrupted publish is settled (server/platforms/nostr/nostr-reconcile.ts).
  reconcile: {
    ask: '["REQ", sub, {"ids": [event id]}] to each chosen relay for the signed event the attempt recorded before sending: the id is the hash of the event, so an answer is the post itself',
    docs: 'https://github.com/nostr-protocol/nips/blob/master/01.md',
  },
} satisfies PlatformCatalogueEntry;
