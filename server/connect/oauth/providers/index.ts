import type { Platform } from '@/server/shared/platforms';
import type { ConnectProvider } from '../oauth-provider';
import { blueskyCredentials } from './bluesky';
import { discordOAuth } from './discord';
import { linkedinOAuth } from './linkedin';
import { mastodonOAuth } from './mastodon';
import { facebookOAuth, instagramOAuth } from './meta';
import { slackOAuth } from './slack';
import { telegramCredentials } from './telegram';
import { threadsOAuth } from './threads';
import { tiktokOAuth } from './tiktok';
import { xOAuth } from './x';

export const oauthProviders: Record<Platform, ConnectProvider> = {
  linkedin: linkedinOAuth,
  facebook: facebookOAuth,
  instagram: instagramOAuth,
  twitter: xOAuth,
  tiktok: tiktokOAuth,
  threads: threadsOAuth,
  telegram: telegramCredentials,
  discord: discordOAuth,
  slack: slackOAuth,
  mastodon: mastodonOAuth,
  bluesky: blueskyCredentials,
};
