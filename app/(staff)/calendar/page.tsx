import { Calendar } from '../_components/publishing/calendar';
import { calendarRange } from '../_lib/calendar-range';
import { staffCaller } from '../_lib/server-caller';

/** This week's posts for the first paint, and the instant "this week" was computed from. */
async function firstWeek() {
  const caller = await staffCaller();
  const nowMs = Date.now();
  try {
    const shell = await caller.app.shell();
    const { query } = calendarRange('week', 0, nowMs, shell.data.current.timeZone);
    return { nowMs, initial: await caller.posts.list(query) };
  } catch {
    // The screen shows its error state and retries from the browser.
    return { nowMs, initial: null };
  }
}

export default async function CalendarPage() {
  const { nowMs, initial } = await firstWeek();
  return <Calendar nowMs={nowMs} initial={initial} />;
}
