// Scenario: restart PostgreSQL (a real stop and start of the chaos run's own server) while
// 16 clients read and write, and check that Herald answers only 503 SERVICE_UNAVAILABLE
// meanwhile, never hangs, recovers without a restart, and that retrying a refused write with
// the same Idempotency-Key creates it exactly once.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { db } from '@/server/db/client';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { apiClient } from '@/server/testing/api-client';
import { startApp } from './app-process';
import { check } from './report';

const SCENARIO = 'database restart under load';
const CLIENTS = 16;
const LOAD_MS = 25_000;
const OUTAGE_AT_MS = 6_000;
const OUTAGE_MS = 5_000;
const REQUEST_TIMEOUT_MS = 15_000;

interface Sample {
  start: number;
  end: number;
  kind: 'read' | 'write';
  status: number; // 0: no answer (timeout or connection error)
  code?: string;
  retryAfter: string | null;
  key?: string;
  content?: string;
}

export interface DatabaseControl {
  databaseUrl: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function databaseRestart(opts: { database: DatabaseControl; workDir: string; port: number }): Promise<void> {
  process.env.DATABASE_URL = opts.database.databaseUrl;
  const { workspace, secret } = await createWorkspaceWithKey();
  const account = await createSandboxConnection(workspace.id, { platform: 'linkedin' });
  const app = await startApp({
    port: opts.port,
    databaseUrl: opts.database.databaseUrl,
    logFile: path.join(opts.workDir, 'restart-app.log'),
    env: { RATE_LIMIT_PER_MINUTE: '1000000' },
  });
  const api = apiClient(app.baseUrl);

  const samples: Sample[] = [];
  const t0 = Date.now();
  let outage = { from: 0, to: 0 };

  async function one(kind: 'read' | 'write'): Promise<void> {
    const start = Date.now();
    const key = kind === 'write' ? randomUUID() : undefined;
    const content = kind === 'write' ? `restart ${key}` : undefined;
    try {
      const res = await Promise.race([
        kind === 'read'
          ? api('GET', '/posts?limit=20', { key: secret })
          : api('POST', '/posts', { key: secret, body: { content, connectionIds: [account.id] }, headers: { 'Idempotency-Key': key! } }),
        sleep(REQUEST_TIMEOUT_MS).then(() => null),
      ]);
      samples.push({
        start,
        end: Date.now(),
        kind,
        status: res?.status ?? 0,
        code: res?.body?.error?.code,
        retryAfter: res?.headers.get('retry-after') ?? null,
        key,
        content,
      });
    } catch {
      samples.push({ start, end: Date.now(), kind, status: 0, retryAfter: null, key, content });
    }
  }

  const load = Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      for (let n = 0; Date.now() - t0 < LOAD_MS; n++) await one((n + i) % 4 === 0 ? 'write' : 'read');
    }),
  );
  await sleep(OUTAGE_AT_MS);
  outage.from = Date.now();
  await opts.database.stop();
  await sleep(OUTAGE_MS);
  await opts.database.start();
  outage = { ...outage, to: Date.now() };
  await load;

  // Every write that was refused is retried with its own Idempotency-Key, as a client would.
  const refusedWrites = samples.filter((s) => s.kind === 'write' && s.status !== 201);
  const retried = await Promise.all(
    refusedWrites.map((s) =>
      api('POST', '/posts', { key: secret, body: { content: s.content, connectionIds: [account.id] }, headers: { 'Idempotency-Key': s.key! } }),
    ),
  );
  const writes = samples.filter((s) => s.kind === 'write');
  const rows = await db.post.groupBy({ by: ['content'], where: { workspaceId: workspace.id }, _count: true });
  const perContent = new Map(rows.map((r) => [r.content, r._count]));
  const notExactlyOnce = writes.filter((s) => perContent.get(s.content!) !== 1).length;
  await app.stop();

  const failures = samples.filter((s) => s.status < 200 || s.status >= 300);
  const wrong = failures.filter((s) => !(s.status === 503 && s.code === 'SERVICE_UNAVAILABLE' && s.retryAfter !== null));
  const fiveHundreds = samples.filter((s) => s.status >= 500 && s.status !== 503).length;
  const maxLatency = Math.max(...samples.map((s) => s.end - s.start));
  const afterOutage = samples.filter((s) => s.start >= outage.to).sort((a, b) => a.start - b.start);
  const firstOk = afterOutage.find((s) => s.status >= 200 && s.status < 300);
  const tail = samples.filter((s) => s.start >= t0 + LOAD_MS - 3_000);
  const tailOk = tail.length > 0 && tail.every((s) => s.status >= 200 && s.status < 300);
  const duringOutage = samples.filter((s) => s.end >= outage.from && s.start <= outage.to);

  console.log(
    `chaos: ${samples.length} requests (${CLIENTS} clients, ${(LOAD_MS / 1000).toFixed(0)} s), PostgreSQL down ${((outage.to - outage.from) / 1000).toFixed(1)} s; ` +
      `${duringOutage.length} overlapped the outage, ${failures.length} refused (${failures.filter((s) => s.status === 503).length} × 503)`,
  );
  check(
    SCENARIO,
    'only 503 SERVICE_UNAVAILABLE with Retry-After while the database is away',
    wrong.length === 0,
    `${failures.length} refusals, ${wrong.length} of another kind (${fiveHundreds} other 5xx, ${failures.filter((s) => s.status === 0).length} unanswered)`,
  );
  check(SCENARIO, 'no request hangs', maxLatency < REQUEST_TIMEOUT_MS, `slowest answer ${maxLatency} ms`);
  check(
    SCENARIO,
    'recovers without restarting the app',
    Boolean(firstOk) && tailOk,
    firstOk
      ? `first success ${firstOk.end - outage.to} ms after PostgreSQL was back; last 3 s: ${tail.length} requests, ${tailOk ? 'all' : 'not all'} succeeded`
      : 'no success after the outage',
  );
  check(
    SCENARIO,
    'a refused write retried with its Idempotency-Key is created exactly once',
    retried.every((r) => r.status === 201) && notExactlyOnce === 0,
    `${refusedWrites.length} refused writes retried (${retried.filter((r) => r.status === 201).length} × 201); ${writes.length} writes, ${notExactlyOnce} not stored exactly once`,
  );
}
