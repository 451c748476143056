// Keys this instance has checked, so a busy integrator's requests do not each read the key
// row. Safe because every change that could refuse a key (revoke, expire, scopes, secret,
// delete) NOTIFYs its prefix from a trigger (migration 20261123071500), whoever makes it, and
// every instance forgets the key when that arrives. A key is served from memory only while
// this process is listening: when the listening connection is lost the cache empties and
// stays unused until it is back. API_KEY_CACHE_TTL_MS bounds how long an entry is trusted
// even then. Only keys that exist are cached (unknown prefixes are attacker-chosen).
import { env } from '@/server/config/env';
import { ensureListening, isListening, listen } from '@/server/db/notifications';

/** The key row as authentication reads it (by prefix, or joined to a tool-endpoint session). */
export interface StoredKey {
  id: string;
  workspaceId: string;
  hash: string;
  scopes: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

export const API_KEYS_CHANNEL = 'herald_api_keys';
const MAX_ENTRIES = 10_000;

interface Entry {
  key: StoredKey;
  cachedAt: number;
}

interface CacheState {
  entries: Map<string, Entry>;
  subscribed?: Promise<unknown>;
}
const globalForCache = globalThis as unknown as { heraldKeyCache?: CacheState };
const state: CacheState = (globalForCache.heraldKeyCache ??= { entries: new Map<string, Entry>() });

function subscribe(): void {
  state.subscribed ??= listen(API_KEYS_CHANNEL, (prefix) => state.entries.delete(prefix), { onLost: () => state.entries.clear() }).catch((err: unknown) => {
    state.subscribed = undefined;
    console.warn('[auth] not listening for key changes; keys are read on every request', err);
  });
}

/** The cached row for a key prefix, or undefined when it must be read from the database. */
export function cachedKey(prefix: string): StoredKey | undefined {
  const ttl = env.apiKeyCacheTtlMs();
  if (ttl === 0) return undefined;
  subscribe();
  if (!isListening()) {
    void ensureListening().catch(() => {});
    return undefined;
  }
  const entry = state.entries.get(prefix);
  if (!entry) return undefined;
  if (Date.now() - entry.cachedAt > ttl) {
    state.entries.delete(prefix);
    return undefined;
  }
  return entry.key;
}

/** Remembers a key row just read — only while listening, so no change can be missed. */
export function rememberKey(prefix: string, key: StoredKey): void {
  if (env.apiKeyCacheTtlMs() === 0 || !isListening()) return;
  if (state.entries.size >= MAX_ENTRIES) state.entries.delete(state.entries.keys().next().value!);
  state.entries.set(prefix, { key, cachedAt: Date.now() });
}

/** Forgets a key at once on this instance (the trigger tells the others). */
export function forgetKey(prefix: string): void {
  state.entries.delete(prefix);
}
