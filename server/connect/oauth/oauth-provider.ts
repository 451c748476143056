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
}

export interface OAuthProvider {
  /** The platform's name in messages shown to the client. */
  label: string;
  /** Whether the platform takes a PKCE challenge (RFC 7636, S256). */
  pkce: boolean;
  /** Whether the client picks one of several accounts after consent (Pages, business accounts). */
  choose: boolean;
  authorizeUrl(params: AuthorizeParams): string;
  /** The accounts the grant reaches; throws OAuthFlowError with a readable message on refusal. */
  connect(fetch: Fetcher, params: ExchangeParams): Promise<GrantedAccount[]>;
}

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
