// Threads (a post in several parts, each a reply to the one before): which networks Herald
// posts them to, through which call, and why not the others. A record over every network, so
// adding one forces the decision. Each part is checked against the network's own post limits
// (text, media), like part 1; the publishers take the part before as `replyTo`.
import type { Platform } from '@/server/shared/platforms';

/** The most parts a thread may have, part 1 included (Herald's own cap: no network states one). */
export const MAX_THREAD_PARTS = 25;

export type ThreadPosting = { call: string; docs: string } | { none: string };

export const THREAD_POSTING: Record<Platform, ThreadPosting> = {
  twitter: { call: 'POST /2/tweets with reply.in_reply_to_tweet_id', docs: 'https://docs.x.com/x-api/posts/manage-tweets/introduction' },
  bluesky: {
    call: 'com.atproto.repo.createRecord with reply { root, parent } strong refs',
    docs: 'https://docs.bsky.app/docs/advanced-guides/posts#replies',
  },
  threads: {
    call: 'POST /{threads-user-id}/threads with reply_to_id, then /threads_publish',
    docs: 'https://developers.facebook.com/docs/threads/reply-management#reply-to-a-reply',
  },
  mastodon: { call: 'POST /api/v1/statuses with in_reply_to_id', docs: 'https://docs.joinmastodon.org/methods/statuses/#create' },
  instagram: { none: 'Instagram has no replies between an account’s own posts' },
  instagram_login: { none: 'Instagram has no replies between an account’s own posts' },
  facebook: { none: 'A Page’s posts cannot answer each other; a comment is not a post of the thread' },
  linkedin: { none: 'LinkedIn posts cannot answer each other' },
  tiktok: { none: 'TikTok videos cannot answer each other through the API' },
  youtube: { none: 'YouTube videos cannot answer each other' },
  pinterest: { none: 'Pins have no replies' },
  google_business: { none: 'Business Profile posts have no replies' },
  reddit: { none: 'A Reddit submission takes comments, not a chain of submissions; use the first comment' },
  telegram: { none: 'Telegram can answer a message (reply_parameters), but Herald does not post threads there yet' },
  discord: { none: 'Discord can answer a message (message_reference), but Herald posts through a webhook, which cannot' },
  slack: { none: 'Herald posts to Slack through an incoming webhook, which cannot answer in a thread' },
  devto: { none: 'An article network: one article per post' },
  ghost: { none: 'An article network: one article per post' },
  hashnode: { none: 'An article network: one article per post' },
  medium: { none: 'An article network: one article per post' },
  wordpress: { none: 'An article network: one article per post' },
  wordpress_com: { none: 'An article network: one article per post' },
  tumblr: { none: 'Tumblr posts cannot answer each other (a reblog is not a reply)' },
  lemmy: { none: 'A Lemmy post takes comments, not a chain of posts' },
  listmonk: { none: 'A newsletter campaign is one message' },
  nostr: { none: 'Nostr can chain notes (NIP-10 e tags), but Herald does not post threads there yet' },
  farcaster: { none: 'Farcaster can chain casts (parent), but Herald does not post threads there yet' },
  vk: { none: 'VK wall posts cannot answer each other' },
  twitch: { none: 'A chat message has no thread' },
  kick: { none: 'A chat message has no thread' },
  dribbble: { none: 'Dribbble shots cannot answer each other' },
};

/** Whether Herald posts threads to this network. */
export const postsThreads = (platform: Platform): boolean => 'call' in THREAD_POSTING[platform];
