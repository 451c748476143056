// Each platform's OAuth app, in one place: the client credentials and endpoints that the
// hosted connect page uses to connect accounts (server/connect/) and that the adapters'
// token refreshers use to extend them. Read from the environment on every call (README →
// Configuration); null means the deployment has no app for that platform.
import { env } from '@/server/config/env';
import type { Platform } from '@/server/shared/platforms';
import { DISCORD_DEFAULT_AUTHORIZE_URL, DISCORD_DEFAULT_BASE_URL } from './discord/discord-api';
import { FACEBOOK_DEFAULT_BASE_URL } from './facebook/facebook-publisher';
import { baseUrlFromEnv } from './http';
import { INSTAGRAM_DEFAULT_BASE_URL } from './instagram/instagram-api';
import { INSTAGRAM_LOGIN_DEFAULT_BASE_URL } from './instagram_login/instagram-login';
import { LINKEDIN_DEFAULT_BASE_URL } from './linkedin/linkedin-api';
import { SLACK_DEFAULT_API_BASE_URL, SLACK_DEFAULT_AUTHORIZE_URL } from './slack/slack-api';
import { THREADS_DEFAULT_BASE_URL } from './threads/threads-publisher';
import { TIKTOK_DEFAULT_BASE_URL } from './tiktok/tiktok-api';
import { X_DEFAULT_BASE_URL } from './twitter/x-api';
import { GOOGLE_DEFAULT_AUTHORIZE_URL, GOOGLE_DEFAULT_TOKEN_URL } from './google/google-api';
import { YOUTUBE_DEFAULT_BASE_URL } from './youtube/youtube-api';
import { googleBusinessBaseUrl } from './google_business/google-business-api';
import { PINTEREST_DEFAULT_BASE_URL } from './pinterest/pinterest-api';
import { REDDIT_DEFAULT_BASE_URL, REDDIT_DEFAULT_OAUTH_BASE_URL } from './reddit/reddit-api';
import { TUMBLR_DEFAULT_AUTHORIZE_URL, TUMBLR_DEFAULT_BASE_URL } from './tumblr/tumblr-api';
import { WORDPRESS_COM_DEFAULT_BASE_URL } from './wordpress_com/wordpress-com';
import { VK_DEFAULT_BASE_URL, VK_ID_DEFAULT_BASE_URL } from './vk/vk-api';
import { TWITCH_DEFAULT_BASE_URL, TWITCH_DEFAULT_OAUTH_BASE_URL } from './twitch/twitch-api';
import { KICK_DEFAULT_BASE_URL, KICK_DEFAULT_OAUTH_BASE_URL } from './kick/kick-api';
import { DRIBBBLE_DEFAULT_BASE_URL, DRIBBBLE_DEFAULT_OAUTH_BASE_URL } from './dribbble/dribbble-api';

export const PINTEREST_DEFAULT_AUTHORIZE_URL = 'https://www.pinterest.com/oauth/';
export const LINKEDIN_DEFAULT_OAUTH_BASE_URL = 'https://www.linkedin.com/oauth/v2';
export const META_DEFAULT_DIALOG_URL = 'https://www.facebook.com/v25.0/dialog/oauth';
export const X_DEFAULT_AUTHORIZE_URL = 'https://x.com/i/oauth2/authorize';
export const TIKTOK_DEFAULT_AUTHORIZE_URL = 'https://www.tiktok.com/v2/auth/authorize/';
export const THREADS_DEFAULT_AUTHORIZE_URL = 'https://threads.net/oauth/authorize';
export const INSTAGRAM_LOGIN_DEFAULT_AUTHORIZE_URL = 'https://www.instagram.com/oauth/authorize';
export const INSTAGRAM_LOGIN_DEFAULT_OAUTH_BASE_URL = 'https://api.instagram.com';

export interface OAuthApp {
  clientId: string;
  /** Null for a public client (X allows one: PKCE without a secret). */
  clientSecret: string | null;
  authorizeUrl: string;
  tokenUrl: string;
  /** The platform's API base, for reading the account after consent. */
  apiBaseUrl: string;
}

function app(
  clientId: string | undefined,
  clientSecret: string | undefined,
  rest: Omit<OAuthApp, 'clientId' | 'clientSecret'>,
  secretRequired = true,
): OAuthApp | null {
  if (!clientId || (secretRequired && !clientSecret)) return null;
  return { clientId, clientSecret: clientSecret ?? null, ...rest };
}

/** Facebook and Instagram accounts connect through the same Meta app and Facebook Login. */
function metaApp(apiBaseUrl: string): OAuthApp | null {
  return app(env.metaAppId(), env.metaAppSecret(), {
    authorizeUrl: baseUrlFromEnv('META_OAUTH_DIALOG_URL', META_DEFAULT_DIALOG_URL),
    tokenUrl: `${apiBaseUrl}/oauth/access_token`,
    apiBaseUrl,
  });
}

/** YouTube and Google Business Profile connect through the same Google OAuth app (GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET). */
function googleApp(apiBaseUrl: string): OAuthApp | null {
  return app(env.googleClientId(), env.googleClientSecret(), {
    authorizeUrl: baseUrlFromEnv('GOOGLE_OAUTH_AUTHORIZE_URL', GOOGLE_DEFAULT_AUTHORIZE_URL),
    tokenUrl: baseUrlFromEnv('GOOGLE_OAUTH_TOKEN_URL', GOOGLE_DEFAULT_TOKEN_URL),
    apiBaseUrl,
  });
}

export const oauthApps: { [P in Platform]: () => OAuthApp | null } = {
  linkedin: () => {
    const oauth = baseUrlFromEnv('LINKEDIN_OAUTH_BASE_URL', LINKEDIN_DEFAULT_OAUTH_BASE_URL);
    return app(env.linkedinClientId(), env.linkedinClientSecret(), {
      authorizeUrl: `${oauth}/authorization`,
      tokenUrl: `${oauth}/accessToken`,
      apiBaseUrl: baseUrlFromEnv('LINKEDIN_API_BASE_URL', LINKEDIN_DEFAULT_BASE_URL),
    });
  },
  facebook: () => metaApp(baseUrlFromEnv('FACEBOOK_GRAPH_BASE_URL', FACEBOOK_DEFAULT_BASE_URL)),
  instagram: () => metaApp(baseUrlFromEnv('INSTAGRAM_GRAPH_BASE_URL', INSTAGRAM_DEFAULT_BASE_URL)),
  twitter: () => {
    const api = baseUrlFromEnv('X_API_BASE_URL', X_DEFAULT_BASE_URL);
    return app(
      env.xClientId(),
      env.xClientSecret(),
      { authorizeUrl: baseUrlFromEnv('X_OAUTH_AUTHORIZE_URL', X_DEFAULT_AUTHORIZE_URL), tokenUrl: `${api}/2/oauth2/token`, apiBaseUrl: api },
      false,
    );
  },
  tiktok: () => {
    const api = baseUrlFromEnv('TIKTOK_API_BASE_URL', TIKTOK_DEFAULT_BASE_URL);
    return app(env.tiktokClientKey(), env.tiktokClientSecret(), {
      authorizeUrl: baseUrlFromEnv('TIKTOK_OAUTH_AUTHORIZE_URL', TIKTOK_DEFAULT_AUTHORIZE_URL),
      tokenUrl: `${api}/v2/oauth/token/`,
      apiBaseUrl: api,
    });
  },
  threads: () => {
    const api = baseUrlFromEnv('THREADS_API_BASE_URL', THREADS_DEFAULT_BASE_URL);
    return app(env.threadsAppId(), env.threadsAppSecret(), {
      authorizeUrl: baseUrlFromEnv('THREADS_OAUTH_AUTHORIZE_URL', THREADS_DEFAULT_AUTHORIZE_URL),
      // Threads' token endpoint is unversioned.
      tokenUrl: `${api.replace(/\/v\d+(\.\d+)?$/, '')}/oauth/access_token`,
      apiBaseUrl: api,
    });
  },
  youtube: () => googleApp(baseUrlFromEnv('YOUTUBE_API_BASE_URL', YOUTUBE_DEFAULT_BASE_URL)),
  google_business: () => googleApp(googleBusinessBaseUrl()),
  reddit: () => {
    const oauth = baseUrlFromEnv('REDDIT_OAUTH_BASE_URL', REDDIT_DEFAULT_OAUTH_BASE_URL);
    return app(env.redditClientId(), env.redditClientSecret(), {
      authorizeUrl: `${oauth}/authorize`,
      tokenUrl: `${oauth}/access_token`,
      apiBaseUrl: baseUrlFromEnv('REDDIT_API_BASE_URL', REDDIT_DEFAULT_BASE_URL),
    });
  },
  pinterest: () => {
    const api = baseUrlFromEnv('PINTEREST_API_BASE_URL', PINTEREST_DEFAULT_BASE_URL);
    return app(env.pinterestClientId(), env.pinterestClientSecret(), {
      authorizeUrl: baseUrlFromEnv('PINTEREST_OAUTH_AUTHORIZE_URL', PINTEREST_DEFAULT_AUTHORIZE_URL),
      tokenUrl: `${api}/v5/oauth/token`,
      apiBaseUrl: api,
    });
  }, // Connected with the deployment's bot and a channel name (CredentialsProvider), not OAuth.
  telegram: () => null,
  // An app per server, registered when a client names theirs (mastodonOAuth.instance).
  mastodon: () => null,
  // Connected with a handle and app password (CredentialsProvider), not OAuth.
  bluesky: () => null,
  // Connected with the account's API key: no app.
  devto: () => null,
  // Connected with the site's Admin API key: no app.
  ghost: () => null,
  // Connected with the account's personal access token: no app.
  hashnode: () => null,
  // Connected with the account's integration token: no app (Medium registers no new apps).
  medium: () => null,
  // A self-hosted site connects with an application password: no app (WordPress.com sites: wordpress_com).
  wordpress: () => null,
  discord: () => {
    const api = baseUrlFromEnv('DISCORD_API_BASE_URL', DISCORD_DEFAULT_BASE_URL);
    return app(env.discordClientId(), env.discordClientSecret(), {
      authorizeUrl: baseUrlFromEnv('DISCORD_OAUTH_AUTHORIZE_URL', DISCORD_DEFAULT_AUTHORIZE_URL),
      tokenUrl: `${api}/oauth2/token`,
      apiBaseUrl: api,
    });
  },
  slack: () => {
    const api = baseUrlFromEnv('SLACK_API_BASE_URL', SLACK_DEFAULT_API_BASE_URL);
    return app(env.slackClientId(), env.slackClientSecret(), {
      authorizeUrl: baseUrlFromEnv('SLACK_OAUTH_AUTHORIZE_URL', SLACK_DEFAULT_AUTHORIZE_URL),
      tokenUrl: `${api}/oauth.v2.access`,
      apiBaseUrl: api,
    });
  },
  // Connected with an instance, a username and a password (CredentialsProvider), not OAuth.
  lemmy: () => null,
  listmonk: () => null,
  // Business Login for Instagram: the Instagram app's own id and secret, no Facebook Page.
  instagram_login: () =>
    app(env.instagramAppId(), env.instagramAppSecret(), {
      authorizeUrl: baseUrlFromEnv('INSTAGRAM_LOGIN_AUTHORIZE_URL', INSTAGRAM_LOGIN_DEFAULT_AUTHORIZE_URL),
      tokenUrl: `${baseUrlFromEnv('INSTAGRAM_LOGIN_OAUTH_BASE_URL', INSTAGRAM_LOGIN_DEFAULT_OAUTH_BASE_URL)}/oauth/access_token`,
      apiBaseUrl: baseUrlFromEnv('INSTAGRAM_LOGIN_API_BASE_URL', INSTAGRAM_LOGIN_DEFAULT_BASE_URL),
    }),
  // Tumblr's OAuth 2.0 (https://www.tumblr.com/docs/en/api/v2#oauth2-authorization): the app's
  // OAuth consumer key and secret; codes exchanged and tokens refreshed at /v2/oauth2/token.
  tumblr: () => {
    const api = baseUrlFromEnv('TUMBLR_API_BASE_URL', TUMBLR_DEFAULT_BASE_URL);
    return app(env.tumblrClientId(), env.tumblrClientSecret(), {
      authorizeUrl: baseUrlFromEnv('TUMBLR_OAUTH_AUTHORIZE_URL', TUMBLR_DEFAULT_AUTHORIZE_URL),
      tokenUrl: `${api}/v2/oauth2/token`,
      apiBaseUrl: api,
    });
  },
  // Connected with a key the client pastes or Herald makes, and relays (CredentialsProvider): no app.
  nostr: () => null,
  // WordPress.com's OAuth 2 (https://developer.wordpress.com/docs/oauth2/): the app's client id
  // and secret from developer.wordpress.com/apps; consent, token and API on the one API host.
  wordpress_com: () => {
    const api = baseUrlFromEnv('WORDPRESS_COM_API_BASE_URL', WORDPRESS_COM_DEFAULT_BASE_URL);
    return app(env.wordpressComClientId(), env.wordpressComClientSecret(), {
      authorizeUrl: `${api}/oauth2/authorize`,
      tokenUrl: `${api}/oauth2/token`,
      apiBaseUrl: api,
    });
  },
  // VK ID (OAuth 2.1 with PKCE, a public client: the app id, no secret): the consent page at
  // VK_ID_BASE_URL/authorize, codes exchanged and tokens refreshed at VK_ID_BASE_URL/oauth2/auth;
  // the walls read and posted to through the VK API.
  // Connected through a Neynar managed signer the client approves in their Farcaster app
  // (ApprovalProvider): the deployment's Neynar key and app account, no OAuth app.
  farcaster: () => null,
  vk: () => {
    const id = baseUrlFromEnv('VK_ID_BASE_URL', VK_ID_DEFAULT_BASE_URL);
    return app(
      env.vkClientId(),
      undefined,
      { authorizeUrl: `${id}/authorize`, tokenUrl: `${id}/oauth2/auth`, apiBaseUrl: baseUrlFromEnv('VK_API_BASE_URL', VK_DEFAULT_BASE_URL) },
      false,
    );
  },
  // Twitch's OAuth 2.0 authorization code flow (https://dev.twitch.tv/docs/authentication/getting-tokens-oauth/#authorization-code-grant-flow):
  // the app's client id and secret; codes exchanged and tokens refreshed at id.twitch.tv/oauth2/token.
  twitch: () => {
    const oauth = baseUrlFromEnv('TWITCH_OAUTH_BASE_URL', TWITCH_DEFAULT_OAUTH_BASE_URL);
    return app(env.twitchClientId(), env.twitchClientSecret(), {
      authorizeUrl: `${oauth}/authorize`,
      tokenUrl: `${oauth}/token`,
      apiBaseUrl: baseUrlFromEnv('TWITCH_API_BASE_URL', TWITCH_DEFAULT_BASE_URL),
    });
  },
  // Kick's OAuth 2.1 with PKCE (https://docs.kick.com/getting-started/generating-tokens-oauth2-flow):
  // the app's client id and secret; codes exchanged and tokens refreshed at id.kick.com/oauth/token.
  kick: () => {
    const oauth = baseUrlFromEnv('KICK_OAUTH_BASE_URL', KICK_DEFAULT_OAUTH_BASE_URL);
    return app(env.kickClientId(), env.kickClientSecret(), {
      authorizeUrl: `${oauth}/authorize`,
      tokenUrl: `${oauth}/token`,
      apiBaseUrl: baseUrlFromEnv('KICK_API_BASE_URL', KICK_DEFAULT_BASE_URL),
    });
  },
  // Dribbble's OAuth 2.0 (https://developer.dribbble.com/v2/oauth/): the application's client id
  // and secret; codes exchanged at dribbble.com/oauth/token (tokens do not expire).
  dribbble: () => {
    const oauth = baseUrlFromEnv('DRIBBBLE_OAUTH_BASE_URL', DRIBBBLE_DEFAULT_OAUTH_BASE_URL);
    return app(env.dribbbleClientId(), env.dribbbleClientSecret(), {
      authorizeUrl: `${oauth}/authorize`,
      tokenUrl: `${oauth}/token`,
      apiBaseUrl: baseUrlFromEnv('DRIBBBLE_API_BASE_URL', DRIBBBLE_DEFAULT_BASE_URL),
    });
  },
};
