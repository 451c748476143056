// Which post-metrics reader serves a connection: the sandbox for provider `sandbox`, the
// network's reader otherwise. A network without a reader yet is not collected (its targets are
// never due); adding one is a file in its folder and a line here.
import type { Platform } from '@/server/shared/platforms';
import type { PostMetricsReader } from './insights';
import { createBlueskyInsightsReader } from './bluesky/bluesky-insights';
import { createDevtoInsightsReader } from './devto/devto-insights';
import { createGhostInsightsReader } from './ghost/ghost-insights';
import { createHashnodeInsightsReader } from './hashnode/hashnode-insights';
import { createMediumInsightsReader } from './medium/medium-insights';
import { createWordpressInsightsReader } from './wordpress/wordpress-insights';
import { createWordpressComInsightsReader } from './wordpress_com/wordpress-com';
import { createDiscordInsightsReader } from './discord/discord-insights';
import { createFacebookInsightsReader } from './facebook/facebook-insights';
import { createGoogleBusinessInsightsReader } from './google_business/google-business-insights';
import { createInstagramInsightsReader } from './instagram/instagram-insights';
import { createInstagramLoginInsightsReader } from './instagram_login/instagram-login';
import { createLinkedInInsightsReader } from './linkedin/linkedin-insights';
import { createMastodonInsightsReader } from './mastodon/mastodon-insights';
import { createPinterestInsightsReader } from './pinterest/pinterest-insights';
import { createRedditInsightsReader } from './reddit/reddit-insights';
import { sandboxInsightsReader } from './sandbox/sandbox-insights';
import { createSlackInsightsReader } from './slack/slack-insights';
import { createTelegramInsightsReader } from './telegram/telegram-insights';
import { createThreadsInsightsReader } from './threads/threads-insights';
import { createTikTokInsightsReader } from './tiktok/tiktok-insights';
import { createTwitchInsightsReader } from './twitch/twitch-insights';
import { createKickInsightsReader } from './kick/kick-insights';
import { createDribbbleInsightsReader } from './dribbble/dribbble-insights';
import { createTwitterInsightsReader } from './twitter/twitter-insights';
import { createYouTubeInsightsReader } from './youtube/youtube-insights';
import { createVkInsightsReader } from './vk/vk-insights';
import { createFarcasterInsightsReader } from './farcaster/farcaster-insights';

export const liveInsightsReaders: Partial<Record<Platform, PostMetricsReader>> = {
  instagram: createInstagramInsightsReader(),
  facebook: createFacebookInsightsReader(),
  linkedin: createLinkedInInsightsReader(),
  twitter: createTwitterInsightsReader(),
  threads: createThreadsInsightsReader(),
  tiktok: createTikTokInsightsReader(),
  youtube: createYouTubeInsightsReader(),
  bluesky: createBlueskyInsightsReader(),
  mastodon: createMastodonInsightsReader(),
  reddit: createRedditInsightsReader(),
  pinterest: createPinterestInsightsReader(),
  google_business: createGoogleBusinessInsightsReader(),
  devto: createDevtoInsightsReader(),
  instagram_login: createInstagramLoginInsightsReader(),
  vk: createVkInsightsReader(),
  farcaster: createFarcasterInsightsReader(),
  // Networks that give no statistics: every metric null with the reason, no call.
  telegram: createTelegramInsightsReader(),
  discord: createDiscordInsightsReader(),
  slack: createSlackInsightsReader(),
  ghost: createGhostInsightsReader(),
  hashnode: createHashnodeInsightsReader(),
  medium: createMediumInsightsReader(),
  wordpress: createWordpressInsightsReader(),
  wordpress_com: createWordpressComInsightsReader(),
  twitch: createTwitchInsightsReader(),
  kick: createKickInsightsReader(),
  dribbble: createDribbbleInsightsReader(),
};

/** The platforms whose live connections are collected. */
export function platformsWithReaders(): Platform[] {
  return Object.keys(liveInsightsReaders) as Platform[];
}

/** The networks whose reader also reads an account's follower count. */
export function platformsWithFollowers(): Platform[] {
  return (Object.entries(liveInsightsReaders) as [Platform, PostMetricsReader][]).filter(([, r]) => r.readFollowers).map(([p]) => p);
}

export function insightsReaderFor(connection: { provider: string; platform: Platform }): PostMetricsReader | null {
  if (connection.provider === 'sandbox') return sandboxInsightsReader;
  return liveInsightsReaders[connection.platform] ?? null;
}
