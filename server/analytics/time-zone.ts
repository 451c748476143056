// The workspace's time zone: the calendar of analytics windows, crawl windows and best-times
// slots. Set by a member in the app.
import type { Actor } from '@/server/auth/actor';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { isTimeZone } from '@/server/shared/analytics-window';

export async function setWorkspaceTimeZone(actor: Actor, timeZone: string): Promise<{ timeZone: string }> {
  if (actor.kind !== 'staff') throw new AppError('FORBIDDEN', 'The time zone is set by a member in the app');
  if (!isTimeZone(timeZone))
    throw new AppError('VALIDATION_FAILED', `${timeZone} is not an IANA time zone name (such as Europe/Berlin)`, { field: 'timeZone' });
  // The canonical spelling, as the runtime knows it.
  const canonical = new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  await db.workspace.update({ where: { id: actor.workspaceId }, data: { timeZone: canonical } });
  return { timeZone: canonical };
}
