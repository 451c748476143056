// An in-memory cache per instance whose entries every instance forgets when a trigger NOTIFYs
// their key (server/db/notifications.ts), whoever changed the row. Safe only while this
// process is listening: when the listening connection is lost the cache empties and stays
// unused until it is back, so no change can be missed. `ttlMs` bounds how long an entry is
// trusted even then (0 turns the cache off). Callers cache only rows that exist: unknown keys
// are attacker-chosen. Used by the API-key cache and the tool-endpoint session cache.
import { log } from '@/server/observability/log';
import { ensureListening, isListening, listen } from './notifications';

export interface NotifiedCache<T> {
  /** The cached value, or undefined when it must be read from the database. */
  get(key: string): T | undefined;
  /** Remembers a row just read — only while listening, so no change can be missed. */
  remember(key: string, value: T): void;
  /** Forgets a key at once on this instance (the trigger tells the others). */
  forget(key: string): void;
}

interface State<T> {
  entries: Map<string, { value: T; cachedAt: number }>;
  subscribed?: Promise<unknown>;
}

const MAX_ENTRIES = 10_000;
const globalForCaches = globalThis as unknown as { heraldNotifiedCaches?: Map<string, State<unknown>> };
const states = (globalForCaches.heraldNotifiedCaches ??= new Map());

export function notifiedCache<T>(channel: string, ttlMs: () => number): NotifiedCache<T> {
  // One state per channel in the process, even when bundling loads this module twice.
  const state = (states.get(channel) ?? states.set(channel, { entries: new Map() }).get(channel)!) as State<T>;
  const subscribe = () => {
    state.subscribed ??= listen(channel, (key) => state.entries.delete(key), { onLost: () => state.entries.clear() }).catch((err: unknown) => {
      state.subscribed = undefined;
      log.warn('cache', `not listening on ${channel}; its rows are read on every request`, err);
    });
  };
  return {
    get(key) {
      const ttl = ttlMs();
      if (ttl === 0) return undefined;
      subscribe();
      if (!isListening()) {
        void ensureListening().catch(() => {});
        return undefined;
      }
      const entry = state.entries.get(key);
      if (!entry) return undefined;
      if (Date.now() - entry.cachedAt > ttl) {
        state.entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    remember(key, value) {
      if (ttlMs() === 0 || !isListening()) return;
      if (state.entries.size >= MAX_ENTRIES) state.entries.delete(state.entries.keys().next().value!);
      state.entries.set(key, { value, cachedAt: Date.now() });
    },
    forget(key) {
      state.entries.delete(key);
    },
  };
}
