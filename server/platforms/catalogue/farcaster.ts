// Farcaster through Neynar (https://docs.neynar.com/reference/publish-cast): a cast
// from the account that approved Herald's signer. The protocol limits a cast's text to 320
// bytes of UTF-8 (https://github.com/farcasterxyz/protocol/blob/main/docs/SPECIFICATION.md,
// CastAddBody); a long cast of up to 1,024 bytes is for Pro accounts only, so Herald holds every
// account to the 320 all of them accept. A cast carries at most 2 embeds: Herald sends each
// image or video as an embed by its URL, which Farcaster clients fetch and show. `channel_id`
// posts into a channel (https://docs.neynar.com/reference/publish-cast).
import { z } from 'zod';
import { ZText } from '@/server/shared/schemas';
import { GB, type PlatformCatalogueEntry } from './entry';
import { noComments } from './comments';
import { utf8ByteLength } from './text-length';
import { noMessages } from './conversations';

export const farcaster = {
  label: 'Farcaster',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 320, count: utf8ByteLength, unit: 'UTF-8 bytes' },
  media: {
    maxImages: 2,
    maxVideos: 2,
    maxItems: 2,
    mixed: true,
    required: false,
    // Embeds are links: Farcaster takes no file, so these are Herald's own caps on what it links.
    maxVideoSeconds: 60 * 60,
    maxVideoBytes: 1 * GB,
  },
  settings: z.strictObject({
    channel: ZText.regex(/^[a-z0-9-]{1,64}$/, 'a channel id: lower-case letters, digits and hyphens, e.g. farcaster')
      .optional()
      .describe('The channel to cast in, by its id (farcaster, for /farcaster); none casts to the account’s own feed only'),
  }),
  // A Neynar managed signer stays valid until the account removes it in Farcaster.
  tokensExpire: false,
  // What Herald reads of a published cast (server/platforms/farcaster/farcaster-insights.ts).
  postMetrics: {
    impressions: { none: 'Farcaster does not report impressions' },
    reach: { none: 'Farcaster does not report reach' },
    views: { none: 'Farcaster does not report views of a cast' },
    reactions: { reads: 'reactions.likes_count' },
    comments: { reads: 'replies.count' },
    shares: { reads: 'reactions.recasts_count' },
    saves: { none: 'Farcaster does not report saves of a cast' },
    linkClicks: { none: 'Farcaster does not report link clicks' },
    videoWatchSeconds: { none: 'Farcaster does not report watch time' },
  },
  comments: noComments('Replies to a cast are casts of their own (GET /v2/farcaster/cast/conversation), which Herald does not read yet'),
  messages: noMessages('Farcaster direct casts have no public API an app can read'),
  // How an interrupted publish is settled (server/platforms/farcaster/farcaster-reconcile.ts).
  reconcile: {
    idempotent:
      'POST /v2/farcaster/cast with idem = the target: Neynar uses the key to keep a repeated request from casting twice; an attempt is settled by asking GET /v2/farcaster/feed/user/casts?fid= (the account’s newest casts), matched on the text and the time',
    docs: 'https://docs.neynar.com/reference/publish-cast',
  },
} satisfies PlatformCatalogueEntry;
