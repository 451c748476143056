// The cache behind the API-key and session caches: a row whose change (or a lost listening
// connection) arrived while it was being read is not remembered over the change.
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { eventually } from '@/server/testing/eventually';
import { ensureListening, isListening, LISTENER_APPLICATION_NAME } from './notifications';
import { notifiedCache } from './notified-cache';

const CHANNEL = 'herald_test_notified_cache';
const cache = notifiedCache<string>(CHANNEL, () => 30_000);
const notify = (key: string) => db.$executeRaw`SELECT pg_notify(${CHANNEL}, ${key})`;

/** Subscribed and listening: a value remembered now is forgotten by a notification. */
async function subscribed() {
  await ensureListening();
  cache.get('probe');
  await eventually(async () => {
    cache.remember('probe', 'v', cache.mark());
    await notify('probe');
    await eventually(async () => expect(cache.get('probe')).toBeUndefined());
  });
}

describe('notified cache', () => {
  it('serves what it remembered and forgets it when its key is notified', async () => {
    await subscribed();
    cache.remember('a', 'one', cache.mark());
    expect(cache.get('a')).toBe('one');
    await notify('a');
    await eventually(async () => expect(cache.get('a')).toBeUndefined());
  });

  it('does not remember a row whose notification arrived while it was being read', async () => {
    await subscribed();
    const since = cache.mark();
    await notify('b'); // the row changed and committed during the read
    await eventually(async () => expect(cache.mark()).toBeGreaterThan(since));
    cache.remember('b', 'stale', since);
    expect(cache.get('b')).toBeUndefined();
    cache.remember('b', 'fresh', cache.mark());
    expect(cache.get('b')).toBe('fresh');
  });

  it('does not remember a row read before the listening connection was lost', async () => {
    await subscribed();
    const since = cache.mark();
    await db.$executeRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ${LISTENER_APPLICATION_NAME} AND datname = current_database()`;
    await eventually(async () => expect(isListening()).toBe(false));
    await ensureListening();
    cache.remember('c', 'read before the gap', since);
    expect(cache.get('c')).toBeUndefined();
  });
});
