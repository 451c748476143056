// The days a calendar view shows, in the workspace's time zone: the server reads the first
// paint's posts for the same range the browser then keeps fresh.
import { TZDate } from '@date-fns/tz';
import { addDays, addMonths, addWeeks, startOfMonth, startOfWeek } from 'date-fns';

export type CalendarView = 'week' | 'month';

export function calendarRange(view: CalendarView, offset: number, nowMs: number, tz: string) {
  const now = new TZDate(nowMs, tz);
  const first =
    view === 'week' ? startOfWeek(addWeeks(now, offset), { weekStartsOn: 1 }) : startOfWeek(startOfMonth(addMonths(now, offset)), { weekStartsOn: 1 });
  const count = view === 'week' ? 7 : 42;
  const days = Array.from({ length: count }, (_, i) => addDays(first, i));
  const query = { from: new Date(first.getTime()).toISOString(), to: new Date(addDays(first, count).getTime() - 1).toISOString(), limit: 200, page: 1 };
  return { now, first, days, query };
}
