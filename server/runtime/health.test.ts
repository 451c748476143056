// The health endpoint: 200 while the database answers (degraded without a running job
// runner), the queue's backlog, and 503 with the reason when the database is out of reach.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { closeJobs, getJobs } from '@/server/jobs';
import { handleHealth } from './health';
import pkg from '@/package.json' with { type: 'json' };

afterAll(async () => {
  vi.unstubAllEnvs();
  await closeJobs();
});

describe('GET /api/health', () => {
  it('reports the version, a reachable database and the queue backlog; degraded while no runner runs here', async () => {
    await getJobs().enqueue('outbox.drain', {}, { key: 'health-test' });
    const res = await handleHealth();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body).toMatchObject({
      status: 'degraded',
      version: pkg.version,
      database: { reachable: true, error: null },
      jobs: { runner: 'not-started', outboxPending: 0 },
    });
    expect(body.jobs.due).toBeGreaterThanOrEqual(1);
    expect(body.jobs.oldestDueSeconds).toBeGreaterThanOrEqual(0);
  });

  it('answers 503 with the reason when the database cannot be reached', async () => {
    vi.stubEnv('DATABASE_URL', 'postgresql://postgres@127.0.0.1:1/none');
    vi.stubEnv('DATABASE_CONNECT_TIMEOUT_MS', '1000');
    const res = await handleHealth();
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body).toMatchObject({ status: 'down', database: { reachable: false, latencyMs: null } });
    expect(body.database.error).toBeTruthy();
    vi.unstubAllEnvs();
  });
});
