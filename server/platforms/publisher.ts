// The publishing port: one implementation per platform (live adapters) plus the in-process
// sandbox. The delivery service calls `publisherFor(connection).publish(...)` and never
// knows which it got.
import type { Platform } from '@/server/shared/platforms';
import type { PlatformSettingsOf } from './catalogue';

export interface PublishRequest<P extends Platform = Platform> {
  content: string;
  mediaUrls: string[];
  /** The kind of each entry of mediaUrls, same order (a URL's ending tells it only loosely). */
  mediaKinds?: ('image' | 'video')[];
  /** The post's platformSettings for this platform, already validated against the catalogue's schema. */
  settings: PlatformSettingsOf<P>;
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

/** The account's token is no longer accepted: the connection must be reconnected. */
export class TokenExpiredError extends PlatformError {
  constructor(message: string) {
    super(message, { status: 401 });
    this.name = 'TokenExpiredError';
  }
}

export interface Publisher<P extends Platform = Platform> {
  publish(connection: PublishableConnection, request: PublishRequest<P>): Promise<PublishResult>;
}
