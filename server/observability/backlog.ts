// How far behind background work is, as the health check and the metrics both read it: jobs
// of the local queue that are due and not taken (and how long the oldest has waited; null when
// Inngest runs the jobs), and events committed but not yet fanned out.
import { env } from '@/server/config/env';

export interface BacklogRow {
  due: number | null;
  oldest: number | null;
  outbox: number;
}

/** Select-list columns `due`, `oldest`, `outbox` (BacklogRow) for a single-statement read. */
export function backlogColumns(): string {
  const local = !env.inngestEnabled();
  const waiting = 'FROM graphile_worker.jobs WHERE run_at <= now() AND locked_at IS NULL';
  return [
    local ? `(SELECT count(*)::int ${waiting}) AS "due"` : 'NULL::int AS "due"',
    local ? `(SELECT extract(epoch FROM now() - min(run_at))::int ${waiting}) AS "oldest"` : 'NULL::int AS "oldest"',
    `(SELECT count(*)::int FROM "OutboxEvent" WHERE "dispatchedAt" IS NULL) AS "outbox"`,
  ].join(', ');
}
