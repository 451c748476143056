// The publishing port: one implementation per platform (live adapters) plus the in-process
// sandbox. The delivery service calls `publisherFor(connection).publish(...)` and never
// knows which it got.
import { OutboundFailedError } from '@/server/outbound';
import type { Platform } from '@/server/shared/platforms';
import type { PlatformSettingsOf } from './catalogue';
import type { SandboxNetwork } from './sandbox/sandbox-network';

export interface PublishRequest<P extends Platform = Platform> {
  content: string;
  mediaUrls: string[];
  /** The kind of each entry of mediaUrls, same order (a URL's ending tells it only loosely). */
  mediaKinds?: ('image' | 'video')[];
  /** The post's platformSettings for this platform, already validated against the catalogue's schema. */
  settings: PlatformSettingsOf<P>;
  /**
   * Stable for one target across every attempt (the target's id): adapters hand it to the
   * platform's own idempotency where it has one (Mastodon's Idempotency-Key, a Bluesky record
   * key), so a retry after an unrecorded success does not post twice.
   */
  idempotencyKey?: string;
  /**
   * A thread's later part: the postedId of the part before, which this one answers (on the
   * networks the catalogue's THREAD_POSTING names; the others never get one).
   */
  replyTo?: string;
}

export interface PublishResult {
  postedId: string;
  /** null when the platform returned none. */
  permalink: string | null;
}

export interface PublishableConnection {
  id: string;
  platform: Platform;
  provider: string;
  externalId: string;
  accountName: string;
  accessToken: string | null;
  tokenExpiresAt: Date | null;
  sandboxBehavior: string | null;
  /** When the account was connected in Herald (a demo network's conversations start from it). */
  connectedAt?: Date;
  /**
   * What the adapter needs besides the token, as its connect flow stored it (a Mastodon or
   * Bluesky server, a Pinterest board, a Discord channel); never secret. `{}` for most.
   */
  platformData?: Readonly<Record<string, unknown>>;
}

/** A connection's tokens as they are stored. */
export interface StoredTokens {
  accessToken: string | null;
  refreshToken: string | null;
  expiresAt: Date | null;
}

/** A token a platform granted while publishing, with the refresh token to keep alongside it. */
export interface RefreshedToken {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
}

/**
 * Where a connection's tokens are kept, passed in by delivery. Adapters read the freshest copy
 * through it and hand it every token they obtain, the moment they obtain it; they never touch
 * the database themselves (token-refresh.ts says why this is a port rather than a value
 * returned with the result).
 */
export interface TokenStore {
  read(connectionId: string): Promise<StoredTokens | null>;
  save(connectionId: string, token: RefreshedToken): Promise<void>;
}

/** What the caller lends one publish besides the request. */
export interface PublishContext {
  tokens: TokenStore;
  /**
   * Records what an adapter learns before the call that creates the post (an Instagram or
   * Threads container id, a YouTube upload session, a TikTok publish id), so a publish cut off
   * after it can be settled by asking about it (reconcile.ts). Delivery stores it with the
   * attempt before the adapter goes on; absent where nobody listens (tests, previews).
   */
  checkpoint?(values: Record<string, string>): Promise<void>;
  /** What demo networks received (sandbox accounts only): delivery lends one kept in the database. */
  sandbox?: SandboxNetwork;
}

/**
 * The platform refused the post; `message` is the platform's error text, verbatim, and
 * `status` its HTTP status when there was one. Whatever the cause, delivery records the
 * target as failed and never retries it by itself (docs/decisions.md, "No retry within a
 * delivery").
 */
export class PlatformError extends Error {
  constructor(
    message: string,
    readonly opts: { status?: number } = {},
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

/**
 * The network no longer serves this call at the API version Herald speaks (Graph's error code
 * 12, "deprecated for versions v22.0 and higher"): not a failure of the account, nothing a
 * retry or a reconnection changes. A reader that has another way in (a webhook) carries on
 * without it.
 */
export class RetiredCallError extends PlatformError {
  constructor(message: string) {
    super(message, { status: 400 });
    this.name = 'RetiredCallError';
  }
}

/** The account's token is no longer accepted: the connection must be reconnected. */
export class TokenExpiredError extends PlatformError {
  constructor(message: string) {
    super(message, { status: 401 });
    this.name = 'TokenExpiredError';
  }
}

/**
 * Whether a publish that threw may nonetheless have created the post: the request could have
 * reached the network and only its answer was lost (a deadline, a connection dropped after it
 * was made, a gateway that stopped waiting for the network behind it: 504). Delivery then asks
 * the network what happened (reconcile.ts) instead of recording a failure a resend would turn
 * into a duplicate. A refusal the network stated is never a lost answer.
 */
export function answerMayBeLost(error: unknown): boolean {
  if (error instanceof OutboundFailedError) return error.requestMayHaveArrived;
  return error instanceof PlatformError && !(error instanceof TokenExpiredError) && error.opts.status === 504;
}

export interface Publisher<P extends Platform = Platform> {
  publish(connection: PublishableConnection, request: PublishRequest<P>, context: PublishContext): Promise<PublishResult>;
}
