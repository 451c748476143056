// The Prisma client singleton. Created on first use so that DATABASE_URL
// can be decided first (the start script or the test harness resolve the embedded server).
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { env } from '@/server/config/env';
import { PrismaClient } from '@/server/generated/prisma/client';
import { registerCloser } from './connections';

export type Db = PrismaClient;
/** A client usable inside `db.$transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

const globalForDb = globalThis as unknown as { heraldDb?: PrismaClient; heraldDbUrl?: string; heraldPool?: pg.Pool };

function create(): PrismaClient {
  const url = env.databaseUrl();
  if (!url) throw new Error('DATABASE_URL is not set: start Herald with `npm start` (it resolves the embedded database)');
  // One pool for Prisma and for the statements server/db/sql.ts runs on the driver itself:
  // the two share connections and the DATABASE_POOL_SIZE budget.
  const pool = new pg.Pool({ connectionString: url, max: env.databasePoolSize(), connectionTimeoutMillis: env.databaseConnectTimeoutMs() });
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  const client = new PrismaClient({ adapter });
  globalForDb.heraldDb = client;
  globalForDb.heraldDbUrl = url;
  globalForDb.heraldPool = pool;
  registerCloser(async () => {
    if (globalForDb.heraldDb === client) {
      globalForDb.heraldDb = undefined;
      globalForDb.heraldPool = undefined;
    }
    await client.$disconnect();
    // $disconnect ends the pool only once Prisma has used it; end it either way.
    if (!pool.ended) await pool.end().catch(() => {});
  });
  return client;
}

/** The pg pool behind the Prisma client (server/db/sql.ts runs hot statements on it). */
export function getPool(): pg.Pool {
  getDb();
  return globalForDb.heraldPool!;
}

export function getDb(): PrismaClient {
  // Recreate when the URL changed (only happens in tests that switch databases).
  if (globalForDb.heraldDb && globalForDb.heraldDbUrl === env.databaseUrl()) return globalForDb.heraldDb;
  return create();
}

/** Lazy proxy so modules can `import { db }` at top level without connecting at import time. */
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, prop) {
    const client = getDb() as unknown as Record<string | symbol, unknown>;
    const value = client[prop];
    return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(client) : value;
  },
});
