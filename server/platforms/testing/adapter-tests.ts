// What the live adapter tests share: the fake platform API's lifecycle, the connections they
// publish with, an in-memory token store standing in for the one delivery lends (so the
// token refresh tests read what an adapter stored), and the check that a publish failed with
// a PlatformError.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Platform } from '@/server/shared/platforms';
import {
  PlatformError,
  type PublishableConnection,
  type Publisher,
  type PublishRequest,
  type PublishResult,
  type RefreshedToken,
  type StoredTokens,
  type TokenStore,
} from '../publisher';
import { startFakePlatformApi, type FakePlatformApi } from './fake-platform-api';

/**
 * The fake platform API of one test file: started before its tests, emptied of routes and
 * requests after each, closed after all. Call it at the top of the file; the handle is usable
 * in tests and helpers they call (not at module level, before the server started).
 */
export function useFakePlatformApi(): FakePlatformApi {
  let started: FakePlatformApi | undefined;
  const api = (): FakePlatformApi => {
    if (!started) throw new Error('The fake platform API is not running yet: use it inside tests, not at module level');
    return started;
  };
  beforeAll(async () => {
    started = await startFakePlatformApi();
  });
  afterEach(() => started?.reset());
  afterAll(() => started?.close());

  return {
    get baseUrl() {
      return api().baseUrl;
    },
    get fetch() {
      return api().fetch;
    },
    get requests() {
      return api().requests;
    },
    on: (method, path, ...replies) => api().on(method, path, ...replies),
    calls: (method, path) => api().calls(method, path),
    reset: () => api().reset(),
    close: () => api().close(),
  };
}

/** A live connection as the publisher port gets it; no database row behind it. */
export function liveConnection(
  platform: Platform,
  account: Pick<PublishableConnection, 'externalId' | 'accountName' | 'accessToken'> & Partial<PublishableConnection>,
): PublishableConnection {
  return { id: randomUUID(), platform, provider: 'live', tokenExpiresAt: null, sandboxBehavior: null, ...account };
}

/** A TokenStore in memory: what it holds per connection, and every token saved to it. */
export class MemoryTokenStore implements TokenStore {
  readonly saved: { connectionId: string; token: RefreshedToken }[] = [];
  private readonly rows = new Map<string, StoredTokens>();

  /** Stores tokens as another delivery (or the connect flow) would have. */
  set(connectionId: string, tokens: StoredTokens): void {
    this.rows.set(connectionId, tokens);
  }

  get(connectionId: string): StoredTokens | undefined {
    return this.rows.get(connectionId);
  }

  async read(connectionId: string): Promise<StoredTokens | null> {
    return this.rows.get(connectionId) ?? null;
  }

  async save(connectionId: string, token: RefreshedToken): Promise<void> {
    this.saved.push({ connectionId, token });
    this.rows.set(connectionId, { ...token });
  }
}

export interface StoredAccount {
  externalId: string;
  accountName: string;
  accessToken: string;
  refreshToken?: string | null;
  tokenExpiresAt: Date | null;
}

/**
 * A live connection whose tokens are kept in a token store, for the tests of token refresh
 * (which reads the refresh token from the store and writes the new tokens back).
 */
export function storedConnection(platform: Platform, account: StoredAccount): { connection: PublishableConnection; tokens: MemoryTokenStore } {
  const { refreshToken = null, ...publishable } = account;
  const connection = liveConnection(platform, publishable);
  const tokens = new MemoryTokenStore();
  tokens.set(connection.id, { accessToken: account.accessToken, refreshToken, expiresAt: account.tokenExpiresAt });
  return { connection, tokens };
}

/** An adapter called the way delivery calls it, lending it `tokens` (an empty store by default). */
export function publishing<P extends Platform>(publisher: Publisher<P>, tokens: TokenStore = new MemoryTokenStore()) {
  return {
    publish: (connection: PublishableConnection, request: PublishRequest<P>): Promise<PublishResult> => publisher.publish(connection, request, { tokens }),
  };
}

/** The error `promise` rejects with, which must be a PlatformError. */
export async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}
