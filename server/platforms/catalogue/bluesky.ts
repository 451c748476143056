// Bluesky (any AT Protocol PDS): https://docs.bsky.app/docs/advanced-guides/post-richtext (300
// graphemes), the lexicons app.bsky.feed.post (text maxGraphemes 300, langs up to 3),
// app.bsky.embed.images (up to 4 images, each blob at most 1,000,000 bytes, alt text),
// app.bsky.embed.video (one video blob of at most 100,000,000 bytes) at
// https://github.com/bluesky-social/atproto/tree/main/lexicons/app/bsky/embed, and
// https://docs.bsky.app/docs/tutorials/video (videos up to 3 minutes). A post carries one
// embed: images, or a video, or a link card.
import { z } from 'zod';
import { ZText } from '@/server/shared/schemas';
import type { PlatformCatalogueEntry } from './entry';
import { graphemeLength } from './text-length';
import { noReviews } from './conversations';

export const bluesky = {
  label: 'Bluesky',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 300, count: graphemeLength, unit: 'graphemes' },
  media: { maxImages: 4, maxVideos: 1, maxItems: 4, mixed: false, required: false, maxVideoSeconds: 180, maxVideoBytes: 100_000_000, maxImageBytes: 1_000_000 },
  settings: z.strictObject({
    languages: z
      .array(ZText.regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a language code, e.g. en or pt-BR'))
      .max(3)
      .optional()
      .describe('Up to 3 languages of the text, as language codes such as en or pt-BR'),
    // Per post: Herald's media carry no description of their own.
    altTexts: z.array(ZText.max(2000)).max(4).optional().describe('A description of each image or video, in the order of the media'),
    linkCard: z.boolean().optional().describe('Whether a post without images or video shows a preview card of its first link').meta({ default: true }),
  }),
  // What Herald reads of a published post (its reader: server/platforms/bluesky/), and why not the rest.
  postMetrics: {
    impressions: { none: 'Bluesky does not report impressions' },
    reach: { none: 'Bluesky does not report reach' },
    views: { none: 'Bluesky does not report views' },
    reactions: { reads: 'likeCount' },
    comments: { reads: 'replyCount' },
    shares: { reads: 'repostCount+quoteCount' },
    saves: { reads: 'bookmarkCount' },
    linkClicks: { none: 'Bluesky does not report link clicks' },
    videoWatchSeconds: { none: 'Bluesky does not report watch time' },
  },
  // What an app may do with the comments under its posts (the inbox), and the pages each call follows.
  comments: {
    read: { call: 'GET app.bsky.feed.getPostThread', docs: 'https://docs.bsky.app/docs/api/app-bsky-feed-get-post-thread' },
    reply: {
      call: 'com.atproto.repo.createRecord (app.bsky.feed.post with reply)',
      docs: 'https://docs.bsky.app/docs/api/com-atproto-repo-create-record',
      maxChars: 300,
    },
    hide: {
      call: 'com.atproto.repo.putRecord (app.bsky.feed.threadgate hiddenReplies)',
      docs: 'https://docs.bsky.app/docs/api/com-atproto-repo-put-record',
      note: 'Up to 300 hidden replies per post',
    },
    delete: { none: 'A reply is a record in its author’s own repository: only they can delete it; it can be hidden' },
    like: { call: 'com.atproto.repo.createRecord (app.bsky.feed.like)', docs: 'https://docs.bsky.app/docs/api/com-atproto-repo-create-record' },
  },
  // Bluesky chat (the chat service behind atproto-proxy did:web:api.bsky.chat).
  messages: {
    read: {
      call: 'chat.bsky.convo.listConvos, then chat.bsky.convo.getMessages per conversation',
      docs: 'https://docs.bsky.app/docs/api/chat-bsky-convo-get-messages',
    },
    reply: {
      call: 'chat.bsky.convo.sendMessage',
      docs: 'https://docs.bsky.app/docs/api/chat-bsky-convo-send-message',
      note: 'Up to 1,000 graphemes; a chat message embeds only a record (a post), not an image. Bluesky sets no reply window',
      maxChars: 1_000,
      images: false,
      windowHours: null,
    },
    push: { none: 'Bluesky’s chat service has no webhooks: Herald reads conversations every five minutes' },
  },
  reviews: noReviews('Bluesky accounts have no reviews'),
  // How an interrupted publish is settled (reconcile.ts).
  reconcile: {
    idempotent:
      'The record key is derived from the target (createRecord rkey), so every attempt writes the same record and a repeat meets the key taken; com.atproto.repo.getRecord for that key says whether the post exists (RecordNotFound: it does not)',
    docs: 'https://docs.bsky.app/docs/api/com-atproto-repo-create-record',
  },
} satisfies PlatformCatalogueEntry;
