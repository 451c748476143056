import type { Platform } from '@/server/shared/platforms';
import type { ConnectProvider } from '../oauth-provider';
import { blueskyCredentials } from './bluesky';
import { devtoCredentials } from './devto';
import { discordOAuth } from './discord';
import { ghostCredentials } from './ghost';
import { hashnodeCredentials } from './hashnode';
import { mediumCredentials } from './medium';
import { wordpressCredentials } from './wordpress';
import { wordpressComOAuth } from './wordpress-com';
import { linkedinOAuth } from './linkedin';
import { googleBusinessOAuth } from './google-business';
import { facebookOAuth, instagramOAuth } from './meta';
import { instagramLoginOAuth } from './instagram-login';
import { pinterestOAuth } from './pinterest';
import { redditOAuth } from './reddit';
import { mastodonOAuth } from './mastodon';
import { lemmyCredentials } from './lemmy';
import { listmonkCredentials } from './listmonk';
import { tumblrOAuth } from './tumblr';
import { vkOAuth } from './vk';
import { twitchOAuth } from './twitch';
import { kickOAuth } from './kick';
import { dribbbleOAuth } from './dribbble';
import { farcasterConnect } from './farcaster';
import { nostrCredentials } from './nostr';
import { slackOAuth } from './slack';
import { telegramCredentials } from './telegram';
import { threadsOAuth } from './threads';
import { tiktokOAuth } from './tiktok';
import { xOAuth } from './x';
import { youtubeOAuth } from './youtube';

export const oauthProviders: Record<Platform, ConnectProvider> = {
  linkedin: linkedinOAuth,
  facebook: facebookOAuth,
  instagram: instagramOAuth,
  twitter: xOAuth,
  tiktok: tiktokOAuth,
  threads: threadsOAuth,
  youtube: youtubeOAuth,
  google_business: googleBusinessOAuth,
  pinterest: pinterestOAuth,
  reddit: redditOAuth,
  telegram: telegramCredentials,
  discord: discordOAuth,
  slack: slackOAuth,
  mastodon: mastodonOAuth,
  bluesky: blueskyCredentials,
  devto: devtoCredentials,
  ghost: ghostCredentials,
  instagram_login: instagramLoginOAuth,
  lemmy: lemmyCredentials,
  listmonk: listmonkCredentials,
  hashnode: hashnodeCredentials,
  medium: mediumCredentials,
  wordpress: wordpressCredentials,
  tumblr: tumblrOAuth,
  vk: vkOAuth,
  nostr: nostrCredentials,
  wordpress_com: wordpressComOAuth,
  twitch: twitchOAuth,
  kick: kickOAuth,
  dribbble: dribbbleOAuth,
  farcaster: farcasterConnect,
};
