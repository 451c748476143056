// What a load balancer, an orchestrator or an operator asks an instance: can it serve (its
// database answers), is its background work running (the local job runner, or Inngest
// elsewhere), which version is it, and how far behind is the queue. One query; never throws.
import { db } from '@/server/db/client';
import { backlogColumns, type BacklogRow } from '@/server/observability/backlog';
import pkg from '@/package.json' with { type: 'json' };
import { jobRunnerState, type JobRunnerState } from './background';
import { hosting } from './fast-path';

export interface Health {
  status: 'ok' | 'degraded' | 'down';
  version: string;
  uptimeSeconds: number;
  database: { reachable: boolean; latencyMs: number | null; error: string | null };
  jobs: {
    runner: JobRunnerState;
    /** Local queue only: jobs due now and not taken, and how long the oldest has waited. */
    due: number | null;
    oldestDueSeconds: number | null;
    /** Events committed and not yet fanned out (webhooks, notifications). */
    outboxPending: number | null;
  };
  /** Herald's own server with the API on its fast path (npm start, the image), or `next start` / a serverless host. */
  http: { server: 'herald' | 'next'; apiFastPath: boolean };
}

export async function checkHealth(): Promise<Health> {
  const started = performance.now();
  const jobs: Health['jobs'] = { runner: jobRunnerState(), due: null, oldestDueSeconds: null, outboxPending: null };
  let database: Health['database'];
  try {
    const [row] = await db.$queryRawUnsafe<BacklogRow[]>(`SELECT ${backlogColumns()}`);
    database = { reachable: true, latencyMs: Math.round(performance.now() - started), error: null };
    jobs.due = row?.due ?? null;
    jobs.oldestDueSeconds = row?.oldest ?? null;
    jobs.outboxPending = row?.outbox ?? null;
  } catch (err) {
    database = { reachable: false, latencyMs: null, error: reasonOf(err) };
  }
  const runnerOk = jobs.runner === 'running' || jobs.runner === 'inngest';
  return {
    status: !database.reachable ? 'down' : runnerOk ? 'ok' : 'degraded',
    version: pkg.version,
    uptimeSeconds: Math.round(process.uptime()),
    database,
    jobs,
    http: hosting(),
  };
}

/** A one-line reason (a refused connection's error has no message, only a code). */
function reasonOf(err: unknown): string {
  const e = err as { message?: string; code?: string; cause?: { code?: string; message?: string }; errors?: Array<{ code?: string }> };
  const text = e?.message || e?.code || e?.cause?.code || e?.cause?.message || e?.errors?.[0]?.code || 'unreachable';
  // Prisma's raw-query errors carry the driver's reason as "Message: `…`" after a preamble.
  const quoted = /Message: `([^`]+)`/.exec(text)?.[1];
  return (quoted ?? text.split('\n').find((line) => line.trim()) ?? 'unreachable').trim().slice(0, 200);
}

/** GET /api/health: 200 while the instance can serve (database reachable), 503 otherwise. */
export async function handleHealth(): Promise<Response> {
  const health = await checkHealth();
  return Response.json(health, { status: health.status === 'down' ? 503 : 200, headers: { 'cache-control': 'no-store' } });
}
