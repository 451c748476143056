// Keys this instance has checked, so a busy integrator's requests do not each read the key
// row. Safe because every change that could refuse a key (revoke, expire, scopes, secret,
// delete) NOTIFYs its prefix from a trigger (migration 20261123071500), whoever makes it, and
// every instance forgets the key when that arrives (server/db/notified-cache.ts: used only
// while listening, for at most API_KEY_CACHE_TTL_MS). Only keys that exist are cached.
import { env } from '@/server/config/env';
import { notifiedCache } from '@/server/db/notified-cache';

/** The key row as authentication reads it (by prefix, or joined to a tool-endpoint session). */
export interface StoredKey {
  id: string;
  workspaceId: string;
  hash: string;
  scopes: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** Where the key is valid when it is an assistant connection's token; null: everywhere keys are. */
  resource: string | null;
}

export const API_KEYS_CHANNEL = 'herald_api_keys';

const cache = notifiedCache<StoredKey>(API_KEYS_CHANNEL, () => env.apiKeyCacheTtlMs());

/** The cached row for a key prefix, or undefined when it must be read from the database. */
export const cachedKey = (prefix: string): StoredKey | undefined => cache.get(prefix);

/** Taken before reading a key row; `rememberKey` needs it. */
export const keyCacheMark = (): number => cache.mark();

/** Remembers a key row read since `mark` — not if a change to it arrived meanwhile. */
export const rememberKey = (prefix: string, key: StoredKey, since: number): void => cache.remember(prefix, key, since);

/** Forgets a key at once on this instance (the trigger tells the others). */
export const forgetKey = (prefix: string): void => cache.forget(prefix);
