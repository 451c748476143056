// The current minute, for text that shows "now". The server render cannot know the minute the
// browser hydrates in (a page rendered at 10:59:59 hydrates at 11:00), so the server snapshot
// is null and the browser fills the time in; it then moves on with the clock.
import { useSyncExternalStore } from 'react';

const MINUTE_MS = 60_000;

function subscribe(onChange: () => void): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const schedule = () => {
    timer = setTimeout(
      () => {
        onChange();
        schedule();
      },
      MINUTE_MS - (Date.now() % MINUTE_MS),
    );
  };
  schedule();
  return () => clearTimeout(timer);
}

// A number (not a Date) so that React sees the same snapshot until the minute changes.
const currentMinute = () => Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;

/** The start of the current minute in milliseconds, or null during the server render. */
export function useMinuteClock(): number | null {
  return useSyncExternalStore(subscribe, currentMinute, () => null);
}
