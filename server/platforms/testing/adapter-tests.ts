// What the live adapter tests share: the fake platform API's lifecycle, the connections they
// publish with (a plain one, or a row in the test database for the token refresh tests), and
// the check that a publish failed with a PlatformError.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Platform } from '@/server/shared/platforms';
import { db } from '@/server/db/client';
import { createWorkspace } from '@/server/testing/fixtures';
import { PlatformError, type PublishableConnection } from '../publisher';
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

export interface StoredAccount {
  externalId: string;
  accountName: string;
  displayName: string;
  accessToken: string;
  refreshToken?: string | null;
  tokenExpiresAt: Date | null;
}

/**
 * A live connection stored in its own workspace, for the tests of token refresh (which reads
 * the refresh token from the row and writes the new tokens back).
 */
export async function createLiveConnection<P extends Platform>(platform: P, account: StoredAccount) {
  const workspace = await createWorkspace();
  const row = await db.connection.create({ data: { workspaceId: workspace.id, platform, ...account } });
  return { ...row, platform };
}

/** The error `promise` rejects with, which must be a PlatformError. */
export async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}
