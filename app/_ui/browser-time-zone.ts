// The browser's time zone (by its current IANA name): the default of a new agency or client,
// and what the app offers when the workspace schedules in another zone.
import { useSyncExternalStore } from 'react';
import { canonicalTimeZone } from '@/server/shared/time-zone';

export function browserTimeZone(): string {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return tz ? canonicalTimeZone(tz) : 'UTC';
}

const noSubscription = () => () => {};

/** The browser's zone, or null during the server render (which cannot know it). */
export function useBrowserTimeZone(): string | null {
  return useSyncExternalStore(noSubscription, browserTimeZone, () => null);
}
