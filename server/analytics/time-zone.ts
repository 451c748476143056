// The workspace's time zone: the calendar of analytics windows, crawl windows and best-times
// slots. Set by a member in the app.
import type { Actor } from '@/server/auth/actor';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { isTimeZone } from '@/server/shared/analytics-window';
import { canonicalTimeZone } from '@/server/shared/time-zone';

export async function setWorkspaceTimeZone(actor: Actor, timeZone: string): Promise<{ timeZone: string }> {
  if (actor.kind !== 'staff') throw new AppError('FORBIDDEN', 'The time zone is set by a member in the app');
  if (!isTimeZone(timeZone))
    throw new AppError('VALIDATION_FAILED', `${timeZone} is not an IANA time zone name (such as Europe/Berlin)`, { field: 'timeZone' });
  // One spelling per zone, the current IANA one.
  const canonical = canonicalTimeZone(timeZone);
  await db.workspace.update({ where: { id: actor.workspaceId }, data: { timeZone: canonical } });
  return { timeZone: canonical };
}
