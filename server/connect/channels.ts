// Which channels this deployment can connect, and how:
//   oauth        the platform's OAuth consent, with the deployment's app (or, for a federated
//                network such as Mastodon, an app Herald registers on the client's server)
//   credentials  values the client types on the page (a Bluesky app password, a Telegram
//                channel where the deployment's bot is an admin)
//   sandbox      a demo account, when the sandbox is on (CONNECT_SANDBOX)
//   unavailable  none of these
// A platform that needs an app of the deployment (or a bot) connects for real as soon as it is
// configured, sandbox or not. One that needs nothing of the deployment (Bluesky, Mastodon)
// connects for real when the sandbox is off; with the sandbox on it is a demo like the rest,
// so a demo install never reaches a real network (docs/decisions.md).
// The public page data says `configured`, plus (a Herald extension) how and what to ask.
import { env } from '@/server/config/env';
import { oauthApps } from '@/server/platforms/oauth-apps';
import { PLATFORMS, type Platform } from '@/server/shared/platforms';
import { isCredentialsProvider, type ConnectField } from './oauth/oauth-provider';
import { oauthProviders } from './oauth/providers';

export type ChannelMode = 'oauth' | 'credentials' | 'sandbox' | 'unavailable';

export function channelMode(platform: Platform): ChannelMode {
  const provider = oauthProviders[platform];
  const sandbox = env.connectSandbox();
  if (isCredentialsProvider(provider)) {
    if (!provider.available()) return sandbox ? 'sandbox' : 'unavailable';
    return provider.needsDeploymentSetup || !sandbox ? 'credentials' : 'sandbox';
  }
  if (provider.instance) return sandbox ? 'sandbox' : 'oauth';
  if (oauthApps[platform]()) return 'oauth';
  return sandbox ? 'sandbox' : 'unavailable';
}

export function channelModes(): { platform: Platform; mode: ChannelMode }[] {
  return PLATFORMS.map((platform) => ({ platform, mode: channelMode(platform) }));
}

/** What the page asks before connecting: a credentials provider's fields, or a federated network's server. */
export function channelFields(platform: Platform, mode: ChannelMode): ConnectField[] {
  const provider = oauthProviders[platform];
  if (mode === 'credentials' && isCredentialsProvider(provider)) return provider.fields;
  if (mode === 'oauth' && !isCredentialsProvider(provider) && provider.instance) return [provider.instance.field];
  return [];
}

/** The URL each platform redirects back to after consent; registered with the platform's app. */
export function oauthCallbackUrl(platform: Platform): string {
  return `${env.connectBaseUrl()}/connect/callback/${platform}`;
}
