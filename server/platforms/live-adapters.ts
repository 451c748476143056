// The publisher for each platform's real API (connections whose provider is not `sandbox`).
// Each adapter reads its base URL, API version and OAuth client from the environment on every
// publish, and calls out only through the guarded outbound client.
import type { Platform } from '@/server/shared/platforms';
import type { Publisher } from './publisher';
import { createBlueskyPublisher } from './bluesky/bluesky-publisher';
import { createDevtoPublisher } from './devto/devto-publisher';
import { createGhostPublisher } from './ghost/ghost-publisher';
import { createHashnodePublisher } from './hashnode/hashnode-publisher';
import { createMediumPublisher } from './medium/medium-publisher';
import { createWordpressPublisher } from './wordpress/wordpress-publisher';
import { createWordpressComPublisher } from './wordpress_com/wordpress-com';
import { createDiscordPublisher } from './discord/discord-publisher';
import { createFacebookPublisher } from './facebook/facebook-publisher';
import { createGoogleBusinessPublisher } from './google_business/google-business-publisher';
import { createInstagramPublisher } from './instagram/instagram-publisher';
import { createInstagramLoginPublisher } from './instagram_login/instagram-login';
import { createLinkedInPublisher } from './linkedin/linkedin-publisher';
import { createPinterestPublisher } from './pinterest/pinterest-publisher';
import { createRedditPublisher } from './reddit/reddit-publisher';
import { createThreadsPublisher } from './threads/threads-publisher';
import { createMastodonPublisher } from './mastodon/mastodon-publisher';
import { createLemmyPublisher } from './lemmy/lemmy-publisher';
import { createListmonkPublisher } from './listmonk/listmonk-publisher';
import { createTumblrPublisher } from './tumblr/tumblr-publisher';
import { createNostrPublisher } from './nostr/nostr-publisher';
import { createVkPublisher } from './vk/vk-publisher';
import { createTwitchPublisher } from './twitch/twitch-publisher';
import { createKickPublisher } from './kick/kick-publisher';
import { createDribbblePublisher } from './dribbble/dribbble-publisher';
import { createFarcasterPublisher } from './farcaster/farcaster-publisher';
import { createSlackPublisher } from './slack/slack-publisher';
import { createTelegramPublisher } from './telegram/telegram-publisher';
import { createTikTokPublisher } from './tiktok/tiktok-publisher';
import { createTwitterPublisher } from './twitter/twitter-publisher';
import { createYouTubePublisher } from './youtube/youtube-publisher';

/** Each adapter takes the settings of its own platform. */
export const liveAdapters: { [P in Platform]: Publisher<P> } = {
  instagram: createInstagramPublisher(),
  facebook: createFacebookPublisher(),
  linkedin: createLinkedInPublisher(),
  twitter: createTwitterPublisher(),
  threads: createThreadsPublisher(),
  tiktok: createTikTokPublisher(),
  youtube: createYouTubePublisher(),
  google_business: createGoogleBusinessPublisher(),
  pinterest: createPinterestPublisher(),
  reddit: createRedditPublisher(),
  telegram: createTelegramPublisher(),
  discord: createDiscordPublisher(),
  slack: createSlackPublisher(),
  mastodon: createMastodonPublisher(),
  bluesky: createBlueskyPublisher(),
  devto: createDevtoPublisher(),
  ghost: createGhostPublisher(),
  instagram_login: createInstagramLoginPublisher(),
  lemmy: createLemmyPublisher(),
  listmonk: createListmonkPublisher(),
  hashnode: createHashnodePublisher(),
  medium: createMediumPublisher(),
  wordpress: createWordpressPublisher(),
  wordpress_com: createWordpressComPublisher(),
  tumblr: createTumblrPublisher(),
  nostr: createNostrPublisher(),
  vk: createVkPublisher(),
  twitch: createTwitchPublisher(),
  kick: createKickPublisher(),
  dribbble: createDribbblePublisher(),
  farcaster: createFarcasterPublisher(),
};
