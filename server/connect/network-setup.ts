// What the operator of this Herald needs to know to connect real accounts, network by network:
// whether the network is ready, and for those that need an app (or a bot) of the deployment,
// what to register with the network (the redirect URI, the scopes Herald asks for), which
// environment variables to set and whether they are, where the network's developer console
// is, and a check of the credentials against the network itself. Read by the staff app's
// Networks page; the facts come from where the connect flow reads them (oauthApps, the
// providers, oauthCallbackUrl), so the page cannot tell one story and the flow another.
import { z } from 'zod';
import { env, type ConfigurationVariable } from '@/server/config/env';
import { defaultFetch, type Fetcher } from '@/server/platforms/http';
import { oauthApps, type OAuthApp } from '@/server/platforms/oauth-apps';
import { PLATFORM_CATALOGUE } from '@/server/platforms/catalogue';
import { PLATFORMS, type Platform } from '@/server/shared/platforms';
import { demoAccountsOffered, oauthCallbackUrl, realChannelMode } from './channels';
import { isApprovalProvider, isOAuthProvider, type OAuthProvider } from './oauth/oauth-provider';
import { farcasterApp } from './oauth/providers/farcaster';
import { neynarFor } from '@/server/platforms/farcaster/neynar-api';
import { addressOfPrivateKey } from '@/server/platforms/farcaster/signed-key-request';
import { jsonString } from '@/server/platforms/http';
import { PlatformError } from '@/server/platforms/publisher';
import { oauthProviders } from './oauth/providers';
import { telegramBotUsername } from './oauth/providers/telegram';

/** What a network needs of the deployment before real accounts connect. */
export type NetworkNeeds = 'nothing' | 'app' | 'bot';

interface Registration {
  needs: NetworkNeeds;
  /** The variables that hold the app's (or bot's) credentials; `optional` ones may stay unset. */
  variables: { name: ConfigurationVariable; optional?: boolean }[];
  /** Where the operator registers the app (or makes the bot). */
  console: string | null;
  /** One sentence the operator needs besides the variables (an app shared with another network, a product to add). */
  note: string | null;
}

const META_NOTE = 'Facebook and Instagram share one Meta app (Facebook Login for Business with the Instagram Graph API).';
const GOOGLE_NOTE = 'YouTube and Google Business Profile share one Google OAuth client; enable the YouTube Data API and the Business Profile APIs for it.';

const REGISTRATION: Record<Platform, Registration> = {
  linkedin: {
    needs: 'app',
    variables: [{ name: 'LINKEDIN_CLIENT_ID' }, { name: 'LINKEDIN_CLIENT_SECRET' }],
    console: 'https://www.linkedin.com/developers/apps',
    note: 'Add the products “Sign In with LinkedIn using OpenID Connect” and “Share on LinkedIn” to the app.',
  },
  facebook: {
    needs: 'app',
    variables: [{ name: 'META_APP_ID' }, { name: 'META_APP_SECRET' }],
    console: 'https://developers.facebook.com/apps/',
    note: META_NOTE,
  },
  instagram: {
    needs: 'app',
    variables: [{ name: 'META_APP_ID' }, { name: 'META_APP_SECRET' }],
    console: 'https://developers.facebook.com/apps/',
    note: META_NOTE,
  },
  twitter: {
    needs: 'app',
    variables: [{ name: 'X_CLIENT_ID' }, { name: 'X_CLIENT_SECRET', optional: true }],
    console: 'https://developer.x.com/en/portal/projects-and-apps',
    note: 'Turn on OAuth 2.0 in the app’s user authentication settings (a web app: confidential client with a secret, or a public client without one).',
  },
  threads: {
    needs: 'app',
    variables: [{ name: 'THREADS_APP_ID' }, { name: 'THREADS_APP_SECRET' }],
    console: 'https://developers.facebook.com/apps/',
    note: 'A Meta app with the “Access the Threads API” use case; its Threads app id and secret, not the Meta app’s.',
  },
  tiktok: {
    needs: 'app',
    variables: [{ name: 'TIKTOK_CLIENT_KEY' }, { name: 'TIKTOK_CLIENT_SECRET' }],
    console: 'https://developers.tiktok.com/apps/',
    note: 'Add Login Kit and the Content Posting API (Direct Post) to the app.',
  },
  youtube: {
    needs: 'app',
    variables: [{ name: 'GOOGLE_CLIENT_ID' }, { name: 'GOOGLE_CLIENT_SECRET' }],
    console: 'https://console.cloud.google.com/apis/credentials',
    note: GOOGLE_NOTE,
  },
  google_business: {
    needs: 'app',
    variables: [{ name: 'GOOGLE_CLIENT_ID' }, { name: 'GOOGLE_CLIENT_SECRET' }],
    console: 'https://console.cloud.google.com/apis/credentials',
    note: GOOGLE_NOTE,
  },
  pinterest: {
    needs: 'app',
    variables: [{ name: 'PINTEREST_CLIENT_ID' }, { name: 'PINTEREST_CLIENT_SECRET' }],
    console: 'https://developers.pinterest.com/apps/',
    note: null,
  },
  reddit: {
    needs: 'app',
    variables: [{ name: 'REDDIT_CLIENT_ID' }, { name: 'REDDIT_CLIENT_SECRET' }],
    console: 'https://www.reddit.com/prefs/apps',
    note: 'Create a “web app”.',
  },
  discord: {
    needs: 'app',
    variables: [{ name: 'DISCORD_CLIENT_ID' }, { name: 'DISCORD_CLIENT_SECRET' }],
    console: 'https://discord.com/developers/applications',
    note: null,
  },
  slack: { needs: 'app', variables: [{ name: 'SLACK_CLIENT_ID' }, { name: 'SLACK_CLIENT_SECRET' }], console: 'https://api.slack.com/apps', note: null },
  telegram: {
    needs: 'bot',
    variables: [{ name: 'TELEGRAM_BOT_TOKEN' }],
    console: 'https://t.me/BotFather',
    note: 'Make a bot with @BotFather (/newbot) and set its token; clients add the bot to their channel as an administrator.',
  },
  mastodon: { needs: 'nothing', variables: [], console: null, note: 'Herald registers itself on each client’s server when they connect: nothing to set up.' },
  bluesky: { needs: 'nothing', variables: [], console: null, note: 'Clients connect with their handle and an app password: nothing to set up.' },
  ghost: {
    needs: 'nothing',
    variables: [],
    console: null,
    note: 'Clients connect their site with the Admin API key of a custom integration: nothing to set up.',
  },
  hashnode: {
    needs: 'nothing',
    variables: [],
    console: null,
    note: 'Clients connect with a personal access token of their Hashnode account: nothing to set up.',
  },
  medium: {
    needs: 'nothing',
    variables: [],
    console: null,
    note: 'Clients connect with an integration token they already have (Medium no longer issues new ones, nor supports its API): nothing to set up.',
  },
  wordpress: {
    needs: 'nothing',
    variables: [],
    console: null,
    note: 'Clients connect their self-hosted site with an application password of their user: nothing to set up.',
  },
  devto: {
    needs: 'nothing',
    variables: [],
    console: null,
    note: 'Clients connect with an API key from their DEV settings (Extensions → DEV Community API Keys): nothing to set up.',
  },
  listmonk: {
    needs: 'nothing',
    variables: [],
    console: null,
    note: 'Clients connect their own Listmonk server with an API user and its token, and name the list: nothing to set up.',
  },
  lemmy: { needs: 'nothing', variables: [], console: null, note: 'Clients connect with their instance, username and password: nothing to set up.' },
  instagram_login: {
    needs: 'app',
    variables: [{ name: 'INSTAGRAM_APP_ID' }, { name: 'INSTAGRAM_APP_SECRET' }],
    console: 'https://developers.facebook.com/apps/',
    note: 'A Meta app with the Instagram product’s “API setup with Instagram login”; its Instagram app id and secret, not the Meta app’s.',
  },
  tumblr: {
    needs: 'app',
    variables: [{ name: 'TUMBLR_CLIENT_ID' }, { name: 'TUMBLR_CLIENT_SECRET' }],
    console: 'https://www.tumblr.com/oauth/apps',
    note: 'A Tumblr app with Herald’s callback address as its OAuth2 redirect URL; its OAuth consumer key and secret.',
  },
  wordpress_com: {
    needs: 'app',
    variables: [{ name: 'WORDPRESS_COM_CLIENT_ID' }, { name: 'WORDPRESS_COM_CLIENT_SECRET' }],
    console: 'https://developer.wordpress.com/apps/',
    note: 'A WordPress.com app with Herald’s callback address as its redirect URL; its client id and secret. Self-hosted sites need nothing (WordPress).',
  },
  vk: {
    needs: 'app',
    variables: [{ name: 'VK_CLIENT_ID' }],
    console: 'https://id.vk.com/about/business/go',
    note: 'A VK ID app (type Web) with Herald’s callback address as a trusted redirect URL and the wall, photos, video and groups access; its app id (VK ID needs no secret).',
  },
  nostr: { needs: 'nothing', variables: [], console: null, note: 'Clients connect with their key (or one Herald makes) and their relays: nothing to set up.' },
  twitch: {
    needs: 'app',
    variables: [{ name: 'TWITCH_CLIENT_ID' }, { name: 'TWITCH_CLIENT_SECRET' }],
    console: 'https://dev.twitch.tv/console/apps',
    note: 'A Twitch application (category: Chat Bot or Other, client type Confidential) with Herald’s callback address as its OAuth Redirect URL.',
  },
  kick: {
    needs: 'app',
    variables: [{ name: 'KICK_CLIENT_ID' }, { name: 'KICK_CLIENT_SECRET' }],
    console: 'https://kick.com/settings/developer',
    note: 'A Kick app (Settings → Developer) with Herald’s callback address as its Redirect URL and the scopes user:read, channel:read and chat:write.',
  },
  dribbble: {
    needs: 'app',
    variables: [{ name: 'DRIBBBLE_CLIENT_ID' }, { name: 'DRIBBBLE_CLIENT_SECRET' }],
    console: 'https://dribbble.com/account/applications',
    note: 'A Dribbble application with Herald’s callback address as its Callback URL; only accounts Dribbble lets upload shots can be posted to.',
  },
  farcaster: {
    needs: 'app',
    variables: [{ name: 'NEYNAR_API_KEY' }, { name: 'FARCASTER_APP_FID' }, { name: 'FARCASTER_APP_CUSTODY_PRIVATE_KEY' }],
    console: 'https://dev.neynar.com',
    note: 'A Neynar API key (its plan must include managed signers), and the Farcaster account clients see as the app asking for access: its fid and the private key of its custody address. No redirect address: clients approve in the Farcaster app.',
  },
};

export const ZNetworkSetup = z.object({
  platform: z.enum(PLATFORMS),
  label: z.string(),
  needs: z.enum(['nothing', 'app', 'bot']),
  /** How a real account connects now (`unavailable`: not until the variables are set). */
  realAccounts: z.enum(['oauth', 'credentials', 'approval', 'unavailable']),
  /** The redirect URI to register with the network's app; null where nothing is registered. */
  redirectUri: z.string().nullable(),
  /** The scopes (permissions) Herald asks for, as the network names them. */
  scopes: z.array(z.string()),
  /** The variables to set, and whether each is (never its value). */
  variables: z.array(z.object({ name: z.string(), set: z.boolean(), optional: z.boolean() })),
  console: z.string().nullable(),
  note: z.string().nullable(),
});
export type NetworkSetup = z.infer<typeof ZNetworkSetup>;

export const ZNetworksOverview = z.object({
  networks: z.array(ZNetworkSetup),
  /** The address networks send the browser back to. */
  baseUrl: z.string(),
  /** Whether the redirect URIs name a public https address (networks refuse most others). */
  publicBaseUrl: z.boolean(),
  /** Whether this deployment offers demo accounts at all (CONNECT_SANDBOX), and whether the acting workspace does. */
  demoAccounts: z.object({ deployment: z.boolean(), workspace: z.boolean() }),
});
export type NetworksOverview = z.infer<typeof ZNetworksOverview>;

/** A stand-in app, for reading the consent URL a provider builds (its scopes) without the real one. */
const PLACEHOLDER_APP: OAuthApp = {
  clientId: 'client-id',
  clientSecret: null,
  authorizeUrl: 'https://network.invalid/authorize',
  tokenUrl: 'https://network.invalid/token',
  apiBaseUrl: 'https://network.invalid',
};

/** The scopes a provider asks for, read from the consent URL it builds (so they are the flow's own). */
function scopesOf(provider: OAuthProvider, platform: Platform): string[] {
  const url = new URL(provider.authorizeUrl({ app: PLACEHOLDER_APP, state: 'state', redirectUri: oauthCallbackUrl(platform), codeChallenge: 'challenge' }));
  const scopes = [url.searchParams.get('scope'), url.searchParams.get('user_scope')].filter((s): s is string => Boolean(s));
  return scopes.flatMap((s) => s.split(/[\s,]+/)).filter(Boolean);
}

export function networkSetup(platform: Platform): NetworkSetup {
  const registration = REGISTRATION[platform];
  const provider = oauthProviders[platform];
  const oauth = isOAuthProvider(provider) ? provider : null;
  const scopes = oauth ? scopesOf(oauth, platform) : [];
  return {
    platform,
    label: PLATFORM_CATALOGUE[platform].label,
    needs: registration.needs,
    realAccounts: realChannelMode(platform),
    redirectUri: registration.needs === 'app' && oauth ? oauthCallbackUrl(platform) : null,
    scopes,
    variables: registration.variables.map((v) => ({ name: v.name, set: env.isSet(v.name), optional: v.optional ?? false })),
    console: registration.console,
    note: registration.note,
  };
}

export function networksOverview(workspace: { demoAccounts: boolean }): NetworksOverview {
  const baseUrl = env.connectBaseUrl();
  const host = new URL(baseUrl).hostname;
  return {
    networks: PLATFORMS.map(networkSetup),
    baseUrl,
    publicBaseUrl: baseUrl.startsWith('https://') && host !== 'localhost' && !host.startsWith('127.'),
    demoAccounts: { deployment: env.connectSandbox(), workspace: demoAccountsOffered(workspace) },
  };
}

export const ZCredentialsCheck = z.object({
  outcome: z.enum(['accepted', 'refused', 'not_set', 'nothing_to_check', 'unreachable', 'inconclusive']),
  /** What Herald concluded, in a sentence. */
  message: z.string(),
  /** The network's own answer, verbatim (trimmed), where it gave one. */
  answer: z.string().nullable(),
});
export type CredentialsCheck = z.infer<typeof ZCredentialsCheck>;

// What token endpoints answer when the client's credentials are wrong (RFC 6749 §5.2
// invalid_client / unauthorized_client; Slack oauth.v2.access: invalid_client_id,
// bad_client_secret; Meta: "Error validating application", "Error validating client secret")
// and when only the code is (RFC 6749 invalid_grant; Slack invalid_code; Meta "Invalid
// verification code format", "This authorization code has been used").
const CLIENT_REFUSED = /invalid_client|unauthorized_client|bad_client_secret|client secret|validating application/i;
const CODE_REFUSED = /invalid_grant|invalid_code|invalid_request|authorization code|verification code|code_verifier/i;

/** A code no network ever issued: the token endpoint refuses it, and how it refuses says whether it knows the app. */
const TEST_CODE = 'herald-credentials-check';

/**
 * Checks the app's (or bot's) credentials against the network: for an OAuth app, the code
 * exchange of the real connect flow with a code no network issued — a network that knows the
 * app refuses only the code (invalid_grant), one that does not refuses the client
 * (invalid_client); for Telegram, the bot's getMe. Nothing is created or changed on the network.
 */
export async function checkNetworkCredentials(platform: Platform, fetch: Fetcher = defaultFetch()): Promise<CredentialsCheck> {
  const registration = REGISTRATION[platform];
  const label = PLATFORM_CATALOGUE[platform].label;
  if (registration.needs === 'nothing') return { outcome: 'nothing_to_check', message: `${label} needs no credentials of this Herald.`, answer: null };
  const missing = registration.variables.filter((v) => !v.optional && !env.isSet(v.name)).map((v) => v.name);
  if (missing.length) return { outcome: 'not_set', message: `Set ${missing.join(' and ')} first.`, answer: null };

  if (registration.needs === 'bot') {
    const bot = await telegramBotUsername(fetch);
    return bot
      ? { outcome: 'accepted', message: `Telegram knows the bot: @${bot}.`, answer: null }
      : { outcome: 'refused', message: 'Telegram did not accept the bot token (or could not be reached): check TELEGRAM_BOT_TOKEN.', answer: null };
  }

  const provider = oauthProviders[platform];
  if (isApprovalProvider(provider)) return checkFarcasterApp(fetch);
  const app = oauthApps[platform]();
  if (!isOAuthProvider(provider) || !app) return { outcome: 'not_set', message: 'This network has no app configured.', answer: null };
  const tokenPath = new URL(app.tokenUrl).pathname;
  let answer: { status: number; text: string } | null = null;
  const recording: Fetcher = async (url, init) => {
    const response = await fetch(url, init);
    if (!answer && new URL(url).pathname === tokenPath) answer = { status: response.status, text: response.body.toString('utf8').slice(0, 500) };
    return response;
  };
  try {
    await provider.connect(recording, { app, code: TEST_CODE, redirectUri: oauthCallbackUrl(platform), codeVerifier: provider.pkce ? 'x'.repeat(43) : null });
  } catch {
    // The refusal is expected; what matters is how the token endpoint refused.
  }
  const got = answer as { status: number; text: string } | null;
  if (!got) return { outcome: 'unreachable', message: `Herald could not reach ${label}’s token endpoint (${app.tokenUrl}).`, answer: null };
  const text = got.text.trim();
  if (got.status === 401 || CLIENT_REFUSED.test(text)) {
    return { outcome: 'refused', message: `${label} does not accept these app credentials: check the variables against the app in its console.`, answer: text };
  }
  // A refusal: a 4xx, or Slack's HTTP 200 with "ok": false.
  const refusal = (got.status >= 400 && got.status < 500) || /"ok"\s*:\s*false/.test(text);
  if (refusal && CODE_REFUSED.test(text)) {
    return { outcome: 'accepted', message: `${label} knows the app: it refused only Herald’s test code, as it should.`, answer: text };
  }
  return { outcome: 'inconclusive', message: `${label} answered in a way Herald cannot read as yes or no (HTTP ${got.status}).`, answer: text };
}

/**
 * Farcaster's setup, checked against Neynar: the API key reads the app's account
 * (GET /v2/farcaster/user/bulk, https://docs.neynar.com/reference/fetch-bulk-users), whose
 * custody address must be the custody key's, or Farcaster would refuse every signed key request.
 */
async function checkFarcasterApp(fetch: Fetcher): Promise<CredentialsCheck> {
  const app = farcasterApp();
  if (!app) return { outcome: 'refused', message: 'FARCASTER_APP_FID must be a number and FARCASTER_APP_CUSTODY_PRIVATE_KEY 32 bytes of hex.', answer: null };
  let user: unknown;
  try {
    user = await neynarFor({ fetch }).get('/v2/farcaster/user/bulk', { fids: app.fid });
  } catch (error) {
    if (error instanceof PlatformError && error.opts.status && error.opts.status < 500) {
      return { outcome: 'refused', message: 'Neynar does not accept NEYNAR_API_KEY (or knows no account with that fid).', answer: error.message };
    }
    return { outcome: 'unreachable', message: 'Herald could not reach Neynar.', answer: error instanceof Error ? error.message : null };
  }
  const custody = jsonString(user, 'users', 0, 'custody_address')?.toLowerCase();
  const signer = addressOfPrivateKey(app.custodyKey);
  if (!custody) return { outcome: 'inconclusive', message: `Neynar returned no custody address for fid ${app.fid}.`, answer: null };
  return custody === signer
    ? { outcome: 'accepted', message: `Neynar accepts the key, and fid ${app.fid}’s custody address is the custody key’s (${signer}).`, answer: null }
    : {
        outcome: 'refused',
        message: `fid ${app.fid}’s custody address is ${custody}, but the custody key is ${signer}'s: Farcaster would refuse the requests it signs.`,
        answer: null,
      };
}
