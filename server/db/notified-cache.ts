// An in-memory cache per instance whose entries every instance forgets when a trigger NOTIFYs
// their key (server/db/notifications.ts), whoever changed the row. Safe only while this
// process is listening: when the listening connection is lost the cache empties and stays
// unused until it is back, so no change can be missed. `ttlMs` bounds how long an entry is
// trusted even then (0 turns the cache off). Callers cache only rows that exist: unknown keys
// are attacker-chosen. A row is remembered only if nothing about it (and no loss of the
// listening connection) arrived since the read began, so a change that commits while the
// read is in flight is never cached over. Used by the API-key and tool-endpoint session caches.
import { log } from '@/server/observability/log';
import { ensureListening, isListening, listen } from './notifications';

export interface NotifiedCache<T> {
  /** The cached value, or undefined when it must be read from the database. */
  get(key: string): T | undefined;
  /** Taken before reading a row from the database; `remember` needs it. */
  mark(): number;
  /**
   * Remembers a row read after `since` (from `mark`) — only while listening, and not if its
   * key was notified or the connection lost meanwhile, so no change can be missed.
   */
  remember(key: string, value: T, since: number): void;
  /** Forgets a key at once on this instance (the trigger tells the others). */
  forget(key: string): void;
}

interface State<T> {
  entries: Map<string, { value: T; cachedAt: number }>;
  /** A counter of what arrived: each notification and each loss of the connection. */
  seq: number;
  /** The counter at each key's last notification, and at the last loss. */
  notifiedAt: Map<string, number>;
  lostAt: number;
  subscribed?: Promise<unknown>;
}

const MAX_ENTRIES = 10_000;
const globalForCaches = globalThis as unknown as { heraldNotifiedCaches?: Map<string, State<unknown>> };
const states = (globalForCaches.heraldNotifiedCaches ??= new Map());

export function notifiedCache<T>(channel: string, ttlMs: () => number): NotifiedCache<T> {
  // One state per channel in the process, even when bundling loads this module twice.
  const state = (states.get(channel) ?? states.set(channel, { entries: new Map(), seq: 0, notifiedAt: new Map(), lostAt: 0 }).get(channel)!) as State<T>;
  const notified = (key: string) => {
    state.entries.delete(key);
    state.notifiedAt.delete(key); // re-inserted last, so the oldest go first when bounded
    state.notifiedAt.set(key, ++state.seq);
    if (state.notifiedAt.size > MAX_ENTRIES) state.notifiedAt.delete(state.notifiedAt.keys().next().value!);
  };
  const lost = () => {
    state.lostAt = ++state.seq;
    state.entries.clear();
    state.notifiedAt.clear();
  };
  const subscribe = () => {
    state.subscribed ??= listen(channel, notified, { onLost: lost }).catch((err: unknown) => {
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
    mark() {
      return state.seq;
    },
    remember(key, value, since) {
      if (ttlMs() === 0 || !isListening()) return;
      if (state.lostAt > since || (state.notifiedAt.get(key) ?? 0) > since) return;
      if (state.entries.size >= MAX_ENTRIES) state.entries.delete(state.entries.keys().next().value!);
      state.entries.set(key, { value, cachedAt: Date.now() });
    },
    forget(key) {
      state.entries.delete(key);
    },
  };
}
