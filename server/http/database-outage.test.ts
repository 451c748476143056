// The database goes away under a running app: every request answers 503 SERVICE_UNAVAILABLE
// with Retry-After (not a 500), the app recovers by itself when the database is back, and a
// write cut mid-request can be retried with the same Idempotency-Key: it runs exactly once.
// The app reaches PostgreSQL through a TCP proxy the test cuts (server/testing/tcp-proxy.ts).
import type { ApiResponse } from '@/server/testing/api-client';
import type { ErrorBodies } from '@/server/testing/api-routes';
import net, { type AddressInfo } from 'node:net';
import { PrismaPg } from '@prisma/adapter-pg';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '@/server/db/unavailable';
import { toErrorResponse } from '@/server/errors/http';
import { PrismaClient } from '@/server/generated/prisma/client';
import { pendingIdempotencySteps } from '@/server/idempotency/idempotency';
import { appRouter } from '@/server/root';
import { createWorkspaceWithKey, uniq } from '@/server/testing/fixtures';
import { testDatabaseUrl } from '@/server/testing/per-file-database';
import { usePublicApi } from '@/server/testing/public-api';
import { startDatabaseProxy, type TcpProxy } from '@/server/testing/tcp-proxy';
import { createRequestContext } from '@/server/trpc/context';

const api = usePublicApi();

let proxy: TcpProxy;
let direct: pg.Pool; // the test's own view of the database, past the proxy
const originalUrl = process.env.DATABASE_URL;

beforeAll(async () => {
  const started = await startDatabaseProxy(testDatabaseUrl());
  proxy = started.proxy;
  process.env.DATABASE_URL = started.url; // the app's clients are created for this URL
  direct = new pg.Pool({ connectionString: testDatabaseUrl(), max: 2 });
});
afterEach(async () => {
  if (proxy.isCut) await proxy.restore();
});
afterAll(async () => {
  process.env.DATABASE_URL = originalUrl;
  await proxy.close();
  await direct.end();
});

const count = async (sql: string, params: unknown[]) => Number((await direct.query<{ n: string }>(sql, params)).rows[0]!.n);
const workspacesNamed = (agencyId: string, name: string) =>
  count(`SELECT count(*) AS n FROM "Workspace" WHERE "managedById" = $1 AND name = $2`, [agencyId, name]);
const claimsOf = (workspaceId: string, key: string) =>
  direct
    .query<{ state: string }>(`SELECT state FROM "IdempotencyRecord" WHERE "workspaceId" = $1 AND key = $2`, [workspaceId, key])
    .then((r) => r.rows.map((x) => x.state));

function expectUnavailable(res: ApiResponse<ErrorBodies>) {
  expect(res.status).toBe(503);
  expect(res.body).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) } });
  expect(res.headers.get('retry-after')).toBe('2');
}

describe('database outage', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After while the database is unreachable, then recovers by itself', async () => {
    const { secret } = await createWorkspaceWithKey();
    expect((await api('GET', '/connections', { key: secret })).status).toBe(200);

    await proxy.cut(); // open connections reset, new ones reset
    expectUnavailable(await api('GET', '/connections', { key: secret }));
    expectUnavailable(await api('POST', '/workspaces', { key: secret, body: { name: 'During' } }));
    await proxy.cut('refuse'); // new connections refused, as while PostgreSQL restarts
    expectUnavailable(await api('GET', '/posts', { key: secret }));

    await proxy.restore();
    expect((await api('GET', '/connections', { key: secret })).status).toBe(200);
  });

  it('a write cut mid-request answers 503, writes nothing, and its retry with the same key runs exactly once', async () => {
    const { workspace, secret } = await createWorkspaceWithKey();
    const key = uniq('outage');
    const name = uniq('Outage');
    const headers = { 'Idempotency-Key': key };

    const cutting = proxy.cutOn('INSERT INTO "public"."Workspace"'); // after the key was claimed
    const failed = await api('POST', '/workspaces', { key: secret, headers, body: { name } });
    await cutting;
    expectUnavailable(failed);
    expect(await workspacesNamed(workspace.id, name)).toBe(0);
    // The release could not reach the database either: the claim waits to be settled.
    expect(await claimsOf(workspace.id, key)).toEqual(['in_flight']);
    expect(pendingIdempotencySteps()).toBeGreaterThan(0);

    await proxy.restore();
    expect((await api('GET', '/workspaces', { key: secret })).status).toBe(200);
    const retried = await api('POST', '/workspaces', { key: secret, headers, body: { name } });
    expect(retried.status).toBe(201);
    const again = await api('POST', '/workspaces', { key: secret, headers, body: { name } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(retried.body);
    expect(await workspacesNamed(workspace.id, name)).toBe(1);
  });

  it('releases a claim the outage left behind as soon as the database answers, without waiting for a retry', async () => {
    const { workspace, secret } = await createWorkspaceWithKey();
    const key = uniq('outage');
    const cutting = proxy.cutOn('INSERT INTO "public"."Workspace"');
    expectUnavailable(await api('POST', '/workspaces', { key: secret, headers: { 'Idempotency-Key': key }, body: { name: 'Left behind' } }));
    await cutting;
    expect(await claimsOf(workspace.id, key)).toEqual(['in_flight']);
    await proxy.restore();
    await expect.poll(() => claimsOf(workspace.id, key), { timeout: 10_000, interval: 100 }).toEqual([]);
  });

  it('a write that succeeded but whose response could not be stored is answered, then replayed once stored', async () => {
    const { workspace, secret } = await createWorkspaceWithKey();
    const key = uniq('outage');
    const name = uniq('Stored later');
    const headers = { 'Idempotency-Key': key };
    const cutting = proxy.cutOn('UPDATE "public"."IdempotencyRecord"'); // after the workspace committed
    const first = await api('POST', '/workspaces', { key: secret, headers, body: { name } });
    await cutting;
    expect(first.status).toBe(201);
    expect(await workspacesNamed(workspace.id, name)).toBe(1);

    await proxy.restore();
    const replay = await api('POST', '/workspaces', { key: secret, headers, body: { name } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await workspacesNamed(workspace.id, name)).toBe(1);
  });

  it('the app’s tRPC endpoint reports the same code and Retry-After, without the database’s own text', async () => {
    const { secret } = await createWorkspaceWithKey();
    await proxy.cut();
    const res = await fetchRequestHandler({
      endpoint: '/api/trpc',
      req: new Request('http://localhost/api/trpc/connections.list', { headers: { authorization: `Bearer ${secret}` } }),
      router: appRouter,
      createContext: ({ req }) => createRequestContext({ transport: 'trpc', headers: req.headers }),
    });
    const body = (await res.json()) as { error: { message: string; data: { herald: { status: number; code: string; headers: Record<string, string> } } } };
    expect(body.error.data.herald).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', headers: { 'Retry-After': '2' } });
    expect(body.error.message).not.toMatch(/prisma|invocation|Server has closed/i);
  });
});

describe('what counts as the database being unavailable', () => {
  it('an administrator shutdown of the connection (57P01) mid-query', async () => {
    const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: testDatabaseUrl(), max: 1 }) });
    try {
      const marker = uniq('sleep').replace('-', '_');
      const running = client.$queryRawUnsafe(`SELECT pg_sleep(10)::text AS ${marker}`).catch((e: unknown) => e);
      await expect
        .poll(async () => count(`SELECT count(*) AS n FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()`, [`%AS ${marker}%`]), {
          timeout: 5_000,
        })
        .toBe(1);
      await direct.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()`, [`%AS ${marker}%`]);
      const err = await running;
      expect(isDatabaseUnavailable(err), String(err)).toBe(true);
      expect(toErrorResponse(err).code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await client.$disconnect();
    }
  });

  it('a connection that is never answered, past the connect timeout', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const client = new PrismaClient({
      adapter: new PrismaPg({ connectionString: `postgresql://postgres@127.0.0.1:${port}/x`, max: 1, connectionTimeoutMillis: 200 }),
    });
    const pool = new pg.Pool({ connectionString: `postgresql://postgres@127.0.0.1:${port}/x`, connectionTimeoutMillis: 200 });
    try {
      const viaPrisma = await client.workspace.count().catch((e: unknown) => e);
      expect(isDatabaseUnavailable(viaPrisma), String(viaPrisma)).toBe(true);
      const viaPg = await pool.query('SELECT 1').catch((e: unknown) => e);
      expect(isDatabaseUnavailable(viaPg), String(viaPg)).toBe(true);
    } finally {
      await client.$disconnect();
      await pool.end();
      silent.close();
    }
  });

  it('not a statement the database refused', async () => {
    const err = await direct.query(`SELECT 1/0`).catch((e: unknown) => e);
    expect(isDatabaseUnavailable(err)).toBe(false);
    const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: testDatabaseUrl(), max: 1 }) });
    try {
      const nul = await client.$queryRaw`SELECT ${'a\u0000'}::text`.catch((e: unknown) => e);
      expect(isDatabaseUnavailable(nul)).toBe(false);
      expect(toErrorResponse(nul).code).toBe('INTERNAL_ERROR');
    } finally {
      await client.$disconnect();
    }
  });
});
