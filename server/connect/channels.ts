// Which channels this deployment can connect, and how: through the platform's OAuth app when
// it has one, through a sandbox demo account when the sandbox is on (CONNECT_SANDBOX), or
// not at all. The public page data says only `configured`; the page itself also shows how.
import { env } from '@/server/config/env';
import { oauthApps } from '@/server/platforms/oauth-apps';
import { PLATFORMS, type Platform } from '@/server/shared/platforms';

export type ChannelMode = 'oauth' | 'sandbox' | 'unavailable';

export function channelMode(platform: Platform): ChannelMode {
  if (oauthApps[platform]()) return 'oauth';
  return env.connectSandbox() ? 'sandbox' : 'unavailable';
}

export function channelModes(): { platform: Platform; mode: ChannelMode }[] {
  return PLATFORMS.map((platform) => ({ platform, mode: channelMode(platform) }));
}

/** The URL each platform redirects back to after consent; registered with the platform's app. */
export function oauthCallbackUrl(platform: Platform): string {
  return `${env.connectBaseUrl()}/connect/callback/${platform}`;
}
