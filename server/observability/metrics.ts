// Metrics a team can scrape (Prometheus text format at GET /api/metrics, behind METRICS_TOKEN):
// request rates and latencies per route from this instance, and, read from the database at
// scrape time (the same for every instance), the job queue's depth and age, the outbox
// backlog, webhook delivery outcomes and paused endpoints, delivery outcomes per platform, and
// posts past their minute that were not delivered. docs/deploy.md lists the alerts built on them.
import { timingSafeEqual } from 'node:crypto';
import client from 'prom-client';
import { env } from '@/server/config/env';
import { db } from '@/server/db/client';
import { Prisma } from '@/server/generated/prisma/client';
import { alertSql } from '@/server/posts/post-alerts';
import { backlogColumns, type BacklogRow } from './backlog';

interface Metrics {
  registry: client.Registry;
  requests: client.Counter<'transport' | 'route' | 'status'>;
  duration: client.Histogram<'transport' | 'route'>;
  /** Reads the database-backed gauges (before each scrape). */
  collect: () => Promise<void>;
}

const globalForMetrics = globalThis as unknown as { heraldMetrics?: Metrics };

function metrics(): Metrics {
  if (globalForMetrics.heraldMetrics) return globalForMetrics.heraldMetrics;
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'herald_' });
  const requests = new client.Counter({
    name: 'herald_http_requests_total',
    help: 'Requests answered by this instance, by transport (rest, mcp, trpc), route template and status',
    labelNames: ['transport', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new client.Histogram({
    name: 'herald_http_request_duration_seconds',
    help: 'Time to answer, by transport and route template',
    labelNames: ['transport', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const gauge = (name: string, help: string, labelNames: string[] = []) => new client.Gauge({ name, help, labelNames, registers: [registry] });
  const jobsDue = gauge('herald_jobs_due', 'Local queue: jobs due and not taken');
  const jobsAge = gauge('herald_jobs_oldest_due_seconds', 'Local queue: how long the oldest due job has waited');
  const outbox = gauge('herald_outbox_pending', 'Events committed and not yet fanned out');
  // The same conditions as the posts' `alert` field (server/posts/post-alerts.ts).
  const overdue = gauge('herald_posts_overdue', 'Scheduled posts past their time (2 minutes) and not delivered');
  const stuck = gauge('herald_posts_stuck', 'Posts whose delivery stopped making progress');
  const paused = gauge('herald_webhook_endpoints_paused', 'Webhook endpoints paused (auto-paused after 20 failures, or by hand)');
  const hooks = gauge('herald_webhook_deliveries_last_hour', 'Webhook deliveries created in the last hour, by status', ['status']);
  const targets = gauge('herald_post_targets_last_hour', 'Post targets updated in the last hour, by platform and status', ['platform', 'status']);
  // One round trip per scrape for everything read from the database.
  const collectSeconds = gauge('herald_metrics_collect_seconds', 'Time the last scrape spent reading the database');
  const collect = async () => {
    const started = performance.now();
    const [row] = await db.$queryRaw<
      Array<
        BacklogRow & {
          overdue: number;
          stuck: number;
          paused: number;
          hooks: Array<{ status: string; n: number }> | null;
          targets: Array<{ platform: string; status: string; n: number }> | null;
        }
      >
    >`SELECT ${Prisma.raw(backlogColumns())},
        (SELECT count(*)::int FROM "Post" WHERE ${alertSql('overdue')}) AS "overdue",
        (SELECT count(*)::int FROM "Post" WHERE ${alertSql('stuck')}) AS "stuck",
        (SELECT count(*)::int FROM "WebhookEndpoint" WHERE NOT "active") AS "paused",
        (SELECT json_agg(h) FROM (SELECT "status", count(*)::int AS n FROM "WebhookDelivery" WHERE "createdAt" > now() - interval '1 hour' GROUP BY 1) h) AS "hooks",
        (SELECT json_agg(t) FROM (SELECT "platform", "status", count(*)::int AS n FROM "PostTarget" WHERE "updatedAt" > now() - interval '1 hour' GROUP BY 1, 2) t) AS "targets"`;
    jobsDue.set(row?.due ?? 0);
    jobsAge.set(row?.oldest ?? 0);
    outbox.set(row?.outbox ?? 0);
    overdue.set(row?.overdue ?? 0);
    stuck.set(row?.stuck ?? 0);
    paused.set(row?.paused ?? 0);
    hooks.reset();
    for (const h of row?.hooks ?? []) hooks.set({ status: h.status }, h.n);
    targets.reset();
    for (const t of row?.targets ?? []) targets.set({ platform: t.platform, status: t.status }, t.n);
    collectSeconds.set((performance.now() - started) / 1000);
  };
  globalForMetrics.heraldMetrics = { registry, requests, duration, collect };
  return globalForMetrics.heraldMetrics;
}

/** Counts one answered request; `route` is the route template, never the raw path. */
export function observeRequest(transport: 'rest' | 'mcp' | 'trpc', route: string, status: number, seconds: number): void {
  const m = metrics();
  m.requests.inc({ transport, route, status: String(status) });
  m.duration.observe({ transport, route }, seconds);
}

function authorized(req: Request): boolean {
  const token = env.metricsToken();
  if (!token) return false;
  const given = Buffer.from(req.headers.get('authorization') ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** GET /api/metrics: 404 unless METRICS_TOKEN is set, 401 without it, else the text format. */
export async function handleMetrics(req: Request): Promise<Response> {
  if (!env.metricsToken()) return new Response('Metrics are off: set METRICS_TOKEN to scrape them.\n', { status: 404 });
  if (!authorized(req))
    return new Response('Send Authorization: Bearer <METRICS_TOKEN>.\n', { status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="herald-metrics"' } });
  const { registry, collect } = metrics();
  await collect();
  return new Response(await registry.metrics(), { headers: { 'content-type': registry.contentType, 'cache-control': 'no-store' } });
}
