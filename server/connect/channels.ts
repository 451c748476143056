// Which channels this deployment can connect, and how. A real account connects by:
//   oauth        the platform's OAuth consent, with the deployment's app (or, for a federated
//                network such as Mastodon, an app Herald registers on the client's server)
//   credentials  values the client types on the page (a Bluesky app password, a Telegram
//                channel where the deployment's bot is an admin)
//   approval     an approval the client gives in the network's own app, the page checking
//                with Herald until it is given (a Farcaster signer, through Neynar)
//   unavailable  none of these: the deployment has no app (or bot, or keys) for the network yet
// Networks that need nothing of the deployment (Bluesky, Mastodon) connect real accounts out of
// the box. Beside that, a demo account (`sandbox`: it publishes nowhere) can be connected where
// the deployment offers them (CONNECT_SANDBOX) and the workspace has not switched them off; a
// demo is always a choice of its own, never what a real connect silently becomes
// (docs/decisions.md → Real and demo accounts).
// The public page data says `configured`, plus (Herald extensions) how, what to ask, and
// whether a demo account is offered.
import { env } from '@/server/config/env';
import { oauthApps } from '@/server/platforms/oauth-apps';
import { PLATFORMS, type Platform } from '@/server/shared/platforms';
import { isApprovalProvider, isCredentialsProvider, type ConnectField } from './oauth/oauth-provider';
import { oauthProviders } from './oauth/providers';

export type RealChannelMode = 'oauth' | 'credentials' | 'approval' | 'unavailable';
export type ChannelMode = RealChannelMode | 'sandbox';

/** How a real account of this platform connects on this deployment. */
export function realChannelMode(platform: Platform): RealChannelMode {
  const provider = oauthProviders[platform];
  if (isCredentialsProvider(provider)) return provider.available() ? 'credentials' : 'unavailable';
  if (isApprovalProvider(provider)) return provider.available() ? 'approval' : 'unavailable';
  if (provider.instance) return 'oauth';
  return oauthApps[platform]() ? 'oauth' : 'unavailable';
}

/** Whether demo accounts can be connected in this workspace: the deployment offers them and the workspace has not turned them off. */
export function demoAccountsOffered(workspace: { demoAccounts: boolean }): boolean {
  return env.connectSandbox() && workspace.demoAccounts;
}

/** What a channel's main button does: connect a real account, else a demo one where offered. */
export function channelMode(platform: Platform, demoOffered: boolean): ChannelMode {
  const real = realChannelMode(platform);
  return real === 'unavailable' && demoOffered ? 'sandbox' : real;
}

export function channelModes(demoOffered: boolean): { platform: Platform; mode: ChannelMode }[] {
  return PLATFORMS.map((platform) => ({ platform, mode: channelMode(platform, demoOffered) }));
}

/** What the page asks before connecting a real account: a credentials provider's fields, or a federated network's server. */
export function channelFields(platform: Platform, mode: ChannelMode): ConnectField[] {
  const provider = oauthProviders[platform];
  if (mode === 'credentials' && isCredentialsProvider(provider)) return provider.fields;
  if (mode === 'oauth' && !isCredentialsProvider(provider) && !isApprovalProvider(provider) && provider.instance) return [provider.instance.field];
  return [];
}

/** The URL each platform redirects back to after consent; registered with the platform's app. */
export function oauthCallbackUrl(platform: Platform): string {
  return `${env.connectBaseUrl()}/connect/callback/${platform}`;
}
