// What connecting an account through a platform's OAuth 2.0 authorization-code flow takes:
// the consent page's parameters, the code exchange at the token endpoint, and reading the
// account (or, for Meta, the Pages and business accounts the client may pick from). One
// definition per platform in ./providers/; the flow itself is in ../oauth-flow.ts.
import type { Fetcher } from '@/server/platforms/http';
import type { OAuthApp } from '@/server/platforms/oauth-apps';

/** An account the consent gave Herald access to, with the tokens to publish as it. */
export interface GrantedAccount {
  externalId: string;
  accountName: string;
  displayName: string;
  avatarUrl: string | null;
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  /** Space-separated scopes granted, when the platform says. */
  scopes: string | null;
  /** Shown next to a choice, e.g. "Facebook Page" or "Instagram business account". */
  kind?: string;
  /** Non-secret data the adapter needs to publish as this account (Connection.platformData). */
  platformData?: Record<string, string | number | boolean | null>;
}

export interface AuthorizeParams {
  app: OAuthApp;
  state: string;
  redirectUri: string;
  /** S256 challenge when the provider uses PKCE. */
  codeChallenge: string | null;
}

export interface ExchangeParams {
  app: OAuthApp;
  code: string;
  redirectUri: string;
  codeVerifier: string | null;
  /**
   * Every parameter the platform put on the callback, for a platform whose exchange needs more
   * than the code (VK ID returns the device_id its token endpoint then asks for).
   */
  callback?: URLSearchParams;
}

export interface OAuthProvider {
  kind?: 'oauth';
  /** The platform's name in messages shown to the client. */
  label: string;
  /** Whether the platform takes a PKCE challenge (RFC 7636, S256). */
  pkce: boolean;
  /** Whether the client picks one of several accounts after consent (Pages, business accounts). */
  choose: boolean;
  authorizeUrl(params: AuthorizeParams): string;
  /** The accounts the grant reaches; throws OAuthFlowError with a readable message on refusal. */
  connect(fetch: Fetcher, params: ExchangeParams): Promise<GrantedAccount[]>;
  /**
   * A federated network (Mastodon): the client first names their server, Herald registers (or
   * reuses) an OAuth app there, and the flow runs against that server with that app. The
   * deployment needs no app of its own; oauthApps[platform] is not consulted.
   */
  instance?: {
    /** The one field the page asks for before the consent (the server's address). */
    field: ConnectField;
    /**
     * Registers Herald on the server (the platform's app-registration API); returns the app
     * with that server's endpoints. Called once per server and redirect URI, then reused.
     */
    registerApp(fetch: Fetcher, instanceUrl: string, redirectUri: string): Promise<OAuthApp>;
  };
}

/** A field the hosted connect page asks the client for. */
export interface ConnectField {
  name: string;
  label: string;
  type: 'text' | 'password' | 'url';
  placeholder?: string;
  /** One sentence under the field: where to find the value. */
  help?: string;
  optional?: boolean;
}

/**
 * Connecting by what the client types rather than an OAuth consent: a Bluesky handle and app
 * password, a Telegram channel where the deployment's bot is an admin. The values are used
 * once, to reach the account, and never stored except as the tokens `connect` returns.
 */
export interface CredentialsProvider {
  kind: 'credentials';
  label: string;
  /** Whether the client picks one of several accounts afterwards. */
  choose: boolean;
  fields: ConnectField[];
  /** Whether this deployment can connect the platform this way (e.g. a Telegram bot is configured). */
  available(): boolean;
  /**
   * true: available() depends on the deployment's own setup (a Telegram bot), which then
   * wins over the sandbox like an OAuth app does; false: anyone can connect (Bluesky).
   */
  needsDeploymentSetup: boolean;
  /**
   * What the page tells the client before the fields (e.g. "Add @HeraldBot as an admin of
   * your channel"). Null for none. `sentBy` is who sent the link, as the page names them (the
   * brand), whom the client can ask for what only the agency knows; null when a member opened
   * the page from the app.
   */
  instructions(context?: { sentBy: string | null }, fetch?: Fetcher): Promise<string | null>;
  /** The accounts the values reach; throws OAuthFlowError with a readable message on refusal. */
  connect(fetch: Fetcher, values: Record<string, string>): Promise<GrantedAccount[]>;
}

/**
 * Connecting by an approval the client gives in the network's own app (a Farcaster signer
 * approved in the Farcaster app): Herald asks the network for a request, the page shows its
 * approval link, and the page asks Herald to check until the network says approved. `start`
 * returns the link and what Herald keeps to check it (sealed in the connect session); `check`
 * answers pending, or the accounts once approved, and throws OAuthFlowError when the request
 * was refused or can no longer be approved.
 */
export interface ApprovalProvider {
  kind: 'approval';
  label: string;
  choose: false;
  /** Whether this deployment can connect the platform this way (its keys are set). */
  available(): boolean;
  /** What the page tells the client before they open the link. */
  instructions: string;
  /** `expiresAt`: when the connect session ends; a request the network would honour later is of no use. */
  start(fetch: Fetcher, args: { expiresAt: Date }): Promise<{ approvalUrl: string; pending: string }>;
  check(fetch: Fetcher, pending: string): Promise<{ status: 'pending' } | { status: 'approved'; accounts: GrantedAccount[] }>;
}

export type ConnectProvider = OAuthProvider | CredentialsProvider | ApprovalProvider;

export const isCredentialsProvider = (p: ConnectProvider): p is CredentialsProvider => p.kind === 'credentials';
export const isApprovalProvider = (p: ConnectProvider): p is ApprovalProvider => p.kind === 'approval';
/** An OAuth provider: neither typed values nor an in-app approval. */
export const isOAuthProvider = (p: ConnectProvider): p is OAuthProvider => p.kind === undefined || p.kind === 'oauth';

/** A refusal the client should read (denied consent, an expired or reused code, no Page). */
export class OAuthFlowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OAuthFlowError';
  }
}

export function expiryFrom(expiresIn: unknown): Date | null {
  const seconds = Number(expiresIn);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(Date.now() + seconds * 1000) : null;
}
