// Typed configuration: every environment variable Herald reads, with its default, read here
// and nowhere else. Values are read lazily (functions, not constants) so tests and the start
// script can set variables before first use; checkConfiguration() validates them all at once
// when `npm start` begins, so a bad value stops start-up with every problem listed instead of
// failing later inside a request or a job. An empty value counts as unset.
//
// README.md → "Configuration" documents the same list: env.test.ts fails when the two differ.

/** Every variable of Herald's configuration, in the order of the README's table. */
export const CONFIGURATION_VARIABLES = [
  'PORT',
  'HERALD_BASE_URL',
  'META_WEBHOOK_VERIFY_TOKEN',
  'X_CONSUMER_SECRET',
  'GOOGLE_PUBSUB_VERIFICATION_TOKEN',
  'CONNECT_BASE_URL',
  'CONNECT_SANDBOX',
  'CLIENT_LINK_RATE_LIMIT_PER_MINUTE',
  'DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'DATABASE_CONNECT_TIMEOUT_MS',
  'DATA_DIR',
  'AUTH_SECRET',
  'AUTH_URL',
  'SIGNUP_MODE',
  'HERALD_OPERATORS',
  'SMTP_URL',
  'MAIL_FROM',
  'RATE_LIMIT_PER_MINUTE',
  'API_KEY_CACHE_TTL_MS',
  'LOG_FORMAT',
  'METRICS_TOKEN',
  'IDEMPOTENCY_TTL_HOURS',
  'OUTBOUND_ALLOW_HOSTS',
  'MCP_ALLOWED_ORIGINS',
  'WEBHOOK_SECRET_KEY',
  'INNGEST_EVENT_KEY',
  'INNGEST_SIGNING_KEY',
  'JOBS_CONCURRENCY',
  'SANDBOX_LATENCY_MS',
  'SANDBOX_JOURNAL',
  'SANDBOX_LOST_ANSWERS_PERCENT',
  'DELIVERY_LEASE_SECONDS',
  'SEED_OWNER_EMAIL',
  'SEED_OWNER_PASSWORD',
  // Read by Node itself when the process starts; listed so the documentation stays complete.
  'NODE_EXTRA_CA_CERTS',
  'BLOB_READ_WRITE_TOKEN',
  'MEDIA_SIGNING_SECRET',
  'VERCEL_BLOB_API_URL',
  'NEXT_PUBLIC_VERCEL_BLOB_API_URL',
  'META_APP_ID',
  'META_APP_SECRET',
  'META_OAUTH_DIALOG_URL',
  'INSTAGRAM_GRAPH_BASE_URL',
  'FACEBOOK_GRAPH_BASE_URL',
  'FACEBOOK_GRAPH_VIDEO_BASE_URL',
  'THREADS_API_BASE_URL',
  'THREADS_APP_ID',
  'THREADS_APP_SECRET',
  'THREADS_OAUTH_AUTHORIZE_URL',
  'LINKEDIN_API_BASE_URL',
  'LINKEDIN_API_VERSION',
  'LINKEDIN_OAUTH_BASE_URL',
  'LINKEDIN_CLIENT_ID',
  'LINKEDIN_CLIENT_SECRET',
  'X_API_BASE_URL',
  'X_CLIENT_ID',
  'X_CLIENT_SECRET',
  'X_OAUTH_AUTHORIZE_URL',
  'TIKTOK_API_BASE_URL',
  'TIKTOK_CLIENT_KEY',
  'TIKTOK_CLIENT_SECRET',
  'TIKTOK_OAUTH_AUTHORIZE_URL',
  'GOOGLE_CLIENT_ID',
  'GOOGLE_CLIENT_SECRET',
  'GOOGLE_OAUTH_AUTHORIZE_URL',
  'GOOGLE_OAUTH_TOKEN_URL',
  'YOUTUBE_API_BASE_URL',
  'GOOGLE_BUSINESS_API_BASE_URL',
  'PINTEREST_API_BASE_URL',
  'PINTEREST_CLIENT_ID',
  'PINTEREST_CLIENT_SECRET',
  'PINTEREST_OAUTH_AUTHORIZE_URL',
  'REDDIT_API_BASE_URL',
  'REDDIT_OAUTH_BASE_URL',
  'REDDIT_CLIENT_ID',
  'REDDIT_CLIENT_SECRET',
  'REDDIT_USER_AGENT',
  'TELEGRAM_API_BASE_URL',
  'TELEGRAM_BOT_TOKEN',
  'DISCORD_API_BASE_URL',
  'DISCORD_CLIENT_ID',
  'DISCORD_CLIENT_SECRET',
  'DISCORD_OAUTH_AUTHORIZE_URL',
  'SLACK_API_BASE_URL',
  'SLACK_WEBHOOK_BASE_URL',
  'SLACK_CLIENT_ID',
  'SLACK_CLIENT_SECRET',
  'SLACK_OAUTH_AUTHORIZE_URL',
  'BLUESKY_SERVICE_URL',
  'DEVTO_API_BASE_URL',
  'INSTAGRAM_LOGIN_API_BASE_URL',
  'INSTAGRAM_LOGIN_OAUTH_BASE_URL',
  'INSTAGRAM_LOGIN_AUTHORIZE_URL',
  'INSTAGRAM_APP_ID',
  'INSTAGRAM_APP_SECRET',
  'HASHNODE_API_BASE_URL',
  'MEDIUM_API_BASE_URL',
  'TUMBLR_API_BASE_URL',
  'TUMBLR_OAUTH_AUTHORIZE_URL',
  'TUMBLR_CLIENT_ID',
  'TUMBLR_CLIENT_SECRET',
  'WORDPRESS_COM_API_BASE_URL',
  'WORDPRESS_COM_CLIENT_ID',
  'WORDPRESS_COM_CLIENT_SECRET',
  'VK_API_BASE_URL',
  'VK_ID_BASE_URL',
  'VK_CLIENT_ID',
  'TWITCH_API_BASE_URL',
  'TWITCH_OAUTH_BASE_URL',
  'TWITCH_CLIENT_ID',
  'TWITCH_CLIENT_SECRET',
  'KICK_API_BASE_URL',
  'KICK_OAUTH_BASE_URL',
  'KICK_CLIENT_ID',
  'KICK_CLIENT_SECRET',
  'DRIBBBLE_API_BASE_URL',
  'DRIBBBLE_OAUTH_BASE_URL',
  'DRIBBBLE_CLIENT_ID',
  'DRIBBBLE_CLIENT_SECRET',
  'NEYNAR_API_BASE_URL',
  'NEYNAR_API_KEY',
  'FARCASTER_APP_FID',
  'FARCASTER_APP_CUSTODY_PRIVATE_KEY',
  'PLATFORM_POLL_INTERVAL_MS',
  'PLATFORM_POLL_MAX_ATTEMPTS',
  'META_MARKETING_API_BASE_URL',
  'GOOGLE_ADS_API_BASE_URL',
  'GOOGLE_ADS_DEVELOPER_TOKEN',
  'AD_SYNC_LOOKBACK_DAYS',
  'CRAWL_POLITENESS_MS',
  'CRAWL_TIMEOUT_MS',
  'CRAWL_HOST_CONCURRENCY',
  'POST_METRICS_SCHEDULE',
  'POST_METRICS_RETRY_MINUTES',
  'HERALD_SKIP_E2E',
  'DEBUG',
] as const;

export type ConfigurationVariable = (typeof CONFIGURATION_VARIABLES)[number];

/** The variables that point a platform adapter at another API base (a stand-in, a proxy). */
export type PlatformApiBaseUrlVariable =
  | 'INSTAGRAM_GRAPH_BASE_URL'
  | 'FACEBOOK_GRAPH_BASE_URL'
  | 'FACEBOOK_GRAPH_VIDEO_BASE_URL'
  | 'THREADS_API_BASE_URL'
  | 'LINKEDIN_API_BASE_URL'
  | 'LINKEDIN_OAUTH_BASE_URL'
  | 'X_API_BASE_URL'
  | 'TIKTOK_API_BASE_URL'
  | 'META_MARKETING_API_BASE_URL'
  | 'GOOGLE_ADS_API_BASE_URL'
  | 'META_OAUTH_DIALOG_URL'
  | 'THREADS_OAUTH_AUTHORIZE_URL'
  | 'X_OAUTH_AUTHORIZE_URL'
  | 'TIKTOK_OAUTH_AUTHORIZE_URL'
  | 'GOOGLE_OAUTH_AUTHORIZE_URL'
  | 'GOOGLE_OAUTH_TOKEN_URL'
  | 'YOUTUBE_API_BASE_URL'
  | 'GOOGLE_BUSINESS_API_BASE_URL'
  | 'PINTEREST_API_BASE_URL'
  | 'PINTEREST_OAUTH_AUTHORIZE_URL'
  | 'REDDIT_API_BASE_URL'
  | 'REDDIT_OAUTH_BASE_URL'
  | 'TELEGRAM_API_BASE_URL'
  | 'DISCORD_API_BASE_URL'
  | 'DISCORD_OAUTH_AUTHORIZE_URL'
  | 'SLACK_API_BASE_URL'
  | 'SLACK_WEBHOOK_BASE_URL'
  | 'SLACK_OAUTH_AUTHORIZE_URL'
  | 'BLUESKY_SERVICE_URL'
  | 'DEVTO_API_BASE_URL'
  | 'INSTAGRAM_LOGIN_API_BASE_URL'
  | 'INSTAGRAM_LOGIN_OAUTH_BASE_URL'
  | 'INSTAGRAM_LOGIN_AUTHORIZE_URL'
  | 'HASHNODE_API_BASE_URL'
  | 'MEDIUM_API_BASE_URL'
  | 'TUMBLR_API_BASE_URL'
  | 'TUMBLR_OAUTH_AUTHORIZE_URL'
  | 'WORDPRESS_COM_API_BASE_URL'
  | 'VK_API_BASE_URL'
  | 'VK_ID_BASE_URL'
  | 'TWITCH_API_BASE_URL'
  | 'TWITCH_OAUTH_BASE_URL'
  | 'KICK_API_BASE_URL'
  | 'KICK_OAUTH_BASE_URL'
  | 'DRIBBBLE_API_BASE_URL'
  | 'DRIBBBLE_OAUTH_BASE_URL'
  | 'NEYNAR_API_BASE_URL';

// Typed by the list above, so a variable cannot be read here without being listed (and so
// documented).
function text(name: ConfigurationVariable): string | undefined {
  return process.env[name]?.trim() || undefined;
}

function integer(name: ConfigurationVariable, fallback: number, min: 0 | 1): number {
  const raw = text(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    throw new Error(`${name} must be a ${min === 1 ? 'positive' : 'non-negative'} integer, got "${raw}"`);
  }
  return n;
}

const positive = (name: ConfigurationVariable, fallback: number) => integer(name, fallback, 1);
const nonNegative = (name: ConfigurationVariable, fallback: number) => integer(name, fallback, 0);

function list(name: ConfigurationVariable): string[] {
  return (text(name) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export const env = {
  /** Port `npm start` listens on. */
  port: () => positive('PORT', 3000),
  /** The public address as configured (HERALD_BASE_URL or AUTH_URL), or undefined for the local default. */
  configuredBaseUrl: () => (text('HERALD_BASE_URL') ?? text('AUTH_URL'))?.replace(/\/$/, ''),
  /** Public base URL used in links we hand out (connect links, upload URLs). */
  baseUrl: () => (text('HERALD_BASE_URL') ?? text('AUTH_URL') ?? `http://localhost:${env.port()}`).replace(/\/$/, ''),
  /** Base of the hosted connect and review links handed to clients; defaults to baseUrl(). */
  connectBaseUrl: () => (text('CONNECT_BASE_URL') ?? env.baseUrl()).replace(/\/$/, ''),
  /**
   * Whether the hosted connect page offers sandbox (demo) accounts for platforms without an
   * OAuth app: `on` or `off`. Defaults to on with the embedded database (a local or demo
   * install) and off when DATABASE_URL points at a real server.
   */
  connectSandbox: (): boolean => {
    const raw = text('CONNECT_SANDBOX');
    if (raw === undefined) return text('DATABASE_URL') === undefined;
    if (raw !== 'on' && raw !== 'off') throw new Error(`CONNECT_SANDBOX must be "on" or "off", got "${raw}"`);
    return raw === 'on';
  },
  /** Requests per minute to the no-login client-link routes, per link and per client address. */
  clientLinkRateLimitPerMinute: () => positive('CLIENT_LINK_RATE_LIMIT_PER_MINUTE', 60),
  /** Where local data lives (embedded PostgreSQL, local blobs, the generated auth secret). */
  dataDir: () => text('DATA_DIR') ?? '.data',
  /** PostgreSQL URL; unset means the embedded server. */
  databaseUrl: () => text('DATABASE_URL'),
  /** Connections per process in the app's pool. */
  databasePoolSize: () => positive('DATABASE_POOL_SIZE', 10),
  /** Signs staff sign-in cookies (also read by next-auth itself); generated once by `npm start` when unset. */
  authSecret: () => text('AUTH_SECRET'),
  /** Public URL of the app for sign-in (read by next-auth itself); `npm start` sets it to baseUrl() when an address is configured, and leaves it unset otherwise (sign-in then follows the address opened). */
  authUrl: () => text('AUTH_URL'),
  /**
   * Who may create an agency: `open` (anyone), `invite` (with an invitation from
   * `npm run invite`), or `single` (the default: only the first agency, created on first run).
   */
  signupMode: (): 'open' | 'invite' | 'single' => {
    const raw = text('SIGNUP_MODE') ?? 'single';
    if (raw !== 'open' && raw !== 'invite' && raw !== 'single') throw new Error(`SIGNUP_MODE must be "open", "invite" or "single", got "${raw}"`);
    return raw;
  },
  /**
   * Emails of the members who operate this Herald (the Networks page: which networks are ready
   * for real accounts, and what to set); besides them, the owners of the first agency.
   */
  operatorEmails: () => list('HERALD_OPERATORS').map((e) => e.toLowerCase()),
  /** Whether a variable has a value (the Networks page says which of a network's are set, never their values). */
  isSet: (name: ConfigurationVariable): boolean => text(name) !== undefined,
  /** Outgoing mail through this SMTP server (`smtp://user:pass@host:587`, `smtps://…`); unset writes mail to DATA_DIR/mailbox. */
  smtpUrl: () => text('SMTP_URL'),
  /** The From of Herald's mail. */
  mailFrom: () => text('MAIL_FROM') ?? 'Herald <no-reply@herald.localhost>',
  /**
   * Longest wait for a database connection, new or from a busy pool. Without it a request
   * waits as long as the operating system lets an unanswered connect hang; with it the
   * request answers 503 SERVICE_UNAVAILABLE and the client retries.
   */
  databaseConnectTimeoutMs: () => positive('DATABASE_CONNECT_TIMEOUT_MS', 5000),
  /** Per-workspace request budget per minute, shared by REST and the tool endpoint. */
  rateLimitPerMinute: () => positive('RATE_LIMIT_PER_MINUTE', 600),
  /**
   * How long an instance trusts an API key it has checked before reading it again. Changes
   * reach every instance at once through LISTEN/NOTIFY; this bounds how long a key is trusted
   * at all. 0 reads the key on every request.
   */
  apiKeyCacheTtlMs: () => nonNegative('API_KEY_CACHE_TTL_MS', 30_000),
  /** Bearer token for GET /api/metrics; unset turns the endpoint off (404). */
  metricsToken: () => text('METRICS_TOKEN'),
  /** `json` (one object per line, for log pipelines) or `text` (`[component] message`). */
  logFormat: (): 'json' | 'text' => {
    const raw = text('LOG_FORMAT') ?? 'json';
    if (raw !== 'json' && raw !== 'text') throw new Error(`LOG_FORMAT must be "json" or "text", got "${raw}"`);
    return raw;
  },
  /** How long an Idempotency-Key is remembered. */
  idempotencyTtlHours: () => positive('IDEMPOTENCY_TTL_HOURS', 24),
  /** Hosts exempt from the outbound private-address rule (never from https). */
  outboundAllowHosts: () => list('OUTBOUND_ALLOW_HOSTS'),
  /** Browser origins besides HERALD_BASE_URL's that may call the tool endpoint (web-based assistant clients). */
  mcpAllowedOrigins: () => list('MCP_ALLOWED_ORIGINS'),
  /**
   * Seals webhook signing secrets at rest (they must be readable to sign). Generated once into
   * DATA_DIR by `npm start` when unset; wherever Herald runs without `npm start` it must be set.
   */
  webhookSecretKey: (): string | undefined => {
    const value = text('WEBHOOK_SECRET_KEY');
    if (value !== undefined && value.length < 32) throw new Error(`WEBHOOK_SECRET_KEY must be at least 32 characters, got ${value.length}`);
    return value;
  },
  /** Inngest is selected when either key is present; otherwise the local runner. */
  inngestEnabled: () => Boolean(text('INNGEST_EVENT_KEY') || text('INNGEST_SIGNING_KEY')),
  /** Jobs the local runner executes at once. */
  jobsConcurrency: () => positive('JOBS_CONCURRENCY', 32),
  /** Fixed latency of sandbox accounts; undefined means a random 120–400 ms per call. */
  sandboxLatencyMs: (): number | undefined => (text('SANDBOX_LATENCY_MS') === undefined ? undefined : nonNegative('SANDBOX_LATENCY_MS', 0)),
  /** Staff login created by `npm run seed`. */
  seedOwnerEmail: () => text('SEED_OWNER_EMAIL') ?? 'owner@demo-agency.example',
  seedOwnerPassword: () => text('SEED_OWNER_PASSWORD') ?? 'herald-demo-1234',
  /** Selects Vercel Blob for media storage; unset means the local disk store. */
  blobReadWriteToken: () => text('BLOB_READ_WRITE_TOKEN'),
  /** Signs local presigned upload URLs; falls back to AUTH_SECRET. Undefined: the local store is unavailable. */
  mediaSigningSecret: () => text('MEDIA_SIGNING_SECRET') ?? text('AUTH_SECRET'),
  /** The Blob API base, resolved the way @vercel/blob resolves it (it reads the same variables). */
  vercelBlobApiUrl: () => text('VERCEL_BLOB_API_URL') ?? text('NEXT_PUBLIC_VERCEL_BLOB_API_URL') ?? 'https://vercel.com/api/blob',
  /** Another API base for a platform; undefined means the platform's own, which its adapter knows. */
  platformApiBaseUrl: (name: PlatformApiBaseUrlVariable) => text(name),
  /** LinkedIn API version header; undefined means the adapter's default. */
  linkedinApiVersion: () => text('LINKEDIN_API_VERSION'),
  // Platform OAuth apps (server/platforms/oauth-apps.ts): connecting accounts on the hosted
  // page and refreshing their tokens. Without them the platform cannot be connected or refreshed.
  metaAppId: () => text('META_APP_ID'),
  metaAppSecret: () => text('META_APP_SECRET'),
  threadsAppId: () => text('THREADS_APP_ID'),
  threadsAppSecret: () => text('THREADS_APP_SECRET'),
  linkedinClientId: () => text('LINKEDIN_CLIENT_ID'),
  linkedinClientSecret: () => text('LINKEDIN_CLIENT_SECRET'),
  xClientId: () => text('X_CLIENT_ID'),
  xClientSecret: () => text('X_CLIENT_SECRET'),
  tiktokClientKey: () => text('TIKTOK_CLIENT_KEY'),
  tiktokClientSecret: () => text('TIKTOK_CLIENT_SECRET'),
  /** One Google OAuth app for YouTube and Google Business Profile (the Google Ads sync reads its tokens elsewhere). */
  googleClientId: () => text('GOOGLE_CLIENT_ID'),
  googleClientSecret: () => text('GOOGLE_CLIENT_SECRET'),
  pinterestClientId: () => text('PINTEREST_CLIENT_ID'),
  pinterestClientSecret: () => text('PINTEREST_CLIENT_SECRET'),
  redditClientId: () => text('REDDIT_CLIENT_ID'),
  redditClientSecret: () => text('REDDIT_CLIENT_SECRET'),
  /** The User-Agent Reddit requires on every request ("<platform>:<app id>:<version> (by /u/<username>)"); undefined: Herald's default. */
  redditUserAgent: () => text('REDDIT_USER_AGENT'),
  /**
   * The networks' webhooks (POST /hooks/{network}, docs/inbox.md): Meta's verify token (the
   * subscription handshake; deliveries are signed with META_APP_SECRET or INSTAGRAM_APP_SECRET),
   * the X app's consumer secret (the Account Activity API's CRC and signatures), and the token
   * Google's Pub/Sub push subscription carries in its URL. Unset: that network's pushes are refused
   * and its items are read on the schedule.
   */
  metaWebhookVerifyToken: () => text('META_WEBHOOK_VERIFY_TOKEN'),
  xConsumerSecret: () => text('X_CONSUMER_SECRET'),
  googlePubsubVerificationToken: () => text('GOOGLE_PUBSUB_VERIFICATION_TOKEN'),
  /** The deployment's Telegram bot (from @BotFather): it posts to the channels that made it an admin. Unset: Telegram cannot be connected. */
  telegramBotToken: () => text('TELEGRAM_BOT_TOKEN'),
  discordClientId: () => text('DISCORD_CLIENT_ID'),
  discordClientSecret: () => text('DISCORD_CLIENT_SECRET'),
  slackClientId: () => text('SLACK_CLIENT_ID'),
  slackClientSecret: () => text('SLACK_CLIENT_SECRET'),
  /** The Instagram app of Business Login for Instagram (its Instagram app id and secret, not the Meta app's). */
  instagramAppId: () => text('INSTAGRAM_APP_ID'),
  instagramAppSecret: () => text('INSTAGRAM_APP_SECRET'),
  /** The Tumblr app (its OAuth consumer key and secret) behind Tumblr connections. */
  tumblrClientId: () => text('TUMBLR_CLIENT_ID'),
  tumblrClientSecret: () => text('TUMBLR_CLIENT_SECRET'),
  wordpressComClientId: () => text('WORDPRESS_COM_CLIENT_ID'),
  wordpressComClientSecret: () => text('WORDPRESS_COM_CLIENT_SECRET'),
  /** The VK ID app (its app id: VK ID is a public client with PKCE, no secret) behind VK connections. */
  vkClientId: () => text('VK_CLIENT_ID'),
  /** The Twitch app (its client id and secret) behind Twitch connections; the id also goes with every Helix call. */
  twitchClientId: () => text('TWITCH_CLIENT_ID'),
  twitchClientSecret: () => text('TWITCH_CLIENT_SECRET'),
  /** The Kick app (its client id and secret) behind Kick connections. */
  kickClientId: () => text('KICK_CLIENT_ID'),
  kickClientSecret: () => text('KICK_CLIENT_SECRET'),
  /** The Dribbble application (its client id and secret) behind Dribbble connections. */
  dribbbleClientId: () => text('DRIBBBLE_CLIENT_ID'),
  dribbbleClientSecret: () => text('DRIBBBLE_CLIENT_SECRET'),
  /** The deployment's Neynar API key: every Farcaster call goes through Neynar, and a signer works only with the key that made it. */
  neynarApiKey: () => text('NEYNAR_API_KEY'),
  /** The app's own Farcaster account (its fid), which requests the signers clients approve. */
  farcasterAppFid: () => text('FARCASTER_APP_FID'),
  /** The private key of that account's custody address (hex, 0x optional): it signs each signed key request. */
  farcasterAppCustodyPrivateKey: () => text('FARCASTER_APP_CUSTODY_PRIVATE_KEY'),
  /**
   * How platform adapters wait for media processing: 18 polls 5 s apart (90 s) by default.
   * A delivery's lease is renewed while it waits, so this bounds a publish, not its claim.
   */
  platformPollIntervalMs: () => nonNegative('PLATFORM_POLL_INTERVAL_MS', 5_000),
  platformPollMaxAttempts: () => positive('PLATFORM_POLL_MAX_ATTEMPTS', 18),
  /** Google Ads API developer token (sent with every Google Ads request); unset: Google Ads accounts cannot sync. */
  googleAdsDeveloperToken: () => text('GOOGLE_ADS_DEVELOPER_TOKEN'),
  /**
   * Days the daily ad sync asks for again on every run (today included): platforms revise
   * recent days (late conversions, invalid-click refunds), so they are rewritten, not appended.
   */
  adSyncLookbackDays: () => positive('AD_SYNC_LOOKBACK_DAYS', 3),
  /** Least time from the end of one crawler request to a host to the start of the next (robots.txt Crawl-delay can only lengthen it). */
  crawlPolitenessMs: () => nonNegative('CRAWL_POLITENESS_MS', 2_000),
  /** Deadline of one crawler request, connection to last byte. */
  crawlTimeoutMs: () => positive('CRAWL_TIMEOUT_MS', 15_000),
  /** Hosts the crawl visits at once (one request at a time per host). */
  crawlHostConcurrency: () => positive('CRAWL_HOST_CONCURRENCY', 8),
  /**
   * When a published post's metrics are collected, after its publication: a comma-separated
   * list of offsets such as `1h,24h,7d,28d` (m, h or d), each collected once.
   */
  postMetricsSchedule: (): { slot: string; seconds: number }[] => {
    const raw = text('POST_METRICS_SCHEDULE') ?? '1h,24h,7d,28d';
    const unit = { m: 60, h: 3_600, d: 86_400 } as const;
    const slots = raw.split(',').map((part) => {
      const m = /^(\d{1,4})([mhd])$/.exec(part.trim());
      if (!m || Number(m[1]) === 0) throw new Error(`POST_METRICS_SCHEDULE must list offsets such as 1h,24h,7d,28d, got "${raw}"`);
      return { slot: `${Number(m[1])}${m[2]}`, seconds: Number(m[1]) * unit[m[2] as keyof typeof unit] };
    });
    slots.sort((a, b) => a.seconds - b.seconds);
    if (new Set(slots.map((s) => s.seconds)).size !== slots.length) throw new Error(`POST_METRICS_SCHEDULE lists an offset twice: "${raw}"`);
    return slots;
  },
  /** How long a connection whose metrics collection failed is left alone before the next try. */
  postMetricsRetryMinutes: () => positive('POST_METRICS_RETRY_MINUTES', 60),
  /** `npm test` runs Vitest only (no production build, no Playwright). */
  skipE2e: () => text('HERALD_SKIP_E2E') === '1',
  /** The migration tool logs the schema engine's messages when DEBUG mentions `migrate`. */
  debugMigrations: () => text('DEBUG')?.includes('migrate') ?? false,
  /**
   * How long a delivery claim stays good without renewal. The owner renews it every third of
   * this while platform calls run; an instance that died is taken over once it lapses.
   */
  deliveryLeaseSeconds: () => positive('DELIVERY_LEASE_SECONDS', 30),
  /**
   * A file the sandbox accounts append one line to per platform call (connection, content
   * hash), before the call: the outside record that `npm run chaos` checks for duplicates.
   */
  sandboxJournal: () => text('SANDBOX_JOURNAL'),
  /**
   * Share of the posts a demo network accepts whose answer it then loses, as a deadline would
   * (0 to 100; 0 by default): how `npm run chaos` shows lost answers settled by asking.
   */
  sandboxLostAnswersPercent: (): number => {
    const value = nonNegative('SANDBOX_LOST_ANSWERS_PERCENT', 0);
    if (value > 100) throw new Error(`SANDBOX_LOST_ANSWERS_PERCENT must be at most 100, got ${value}`);
    return value;
  },
};

/**
 * Reads every setting once and throws one error listing each invalid value. Called when
 * `npm start` begins; readers still validate on their own (the functions above), so a value
 * changed later is never used unchecked.
 */
export function checkConfiguration(): void {
  const problems: string[] = [];
  for (const read of Object.values(env)) {
    if (read.length > 0) continue; // takes an argument: a plain text read, nothing to check
    try {
      (read as () => unknown)();
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (problems.length > 0) throw new Error(`Invalid configuration:\n  ${[...new Set(problems)].join('\n  ')}`);
}
