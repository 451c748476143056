// A fresh, migrated database for one benchmark run, on DATABASE_URL's server or the
// embedded one; dropped afterwards.
import { randomBytes } from 'node:crypto';
import { deployMigrations } from '@/prisma/scripts/migrate';
import { dropDatabase, ensureDatabaseExists, resolveServerUrl, stopEmbeddedIfOwned, withDatabase } from '@/server/db/url';

/** `promise`, or a failure naming `what` once `ms` passed: a benchmark never waits forever. */
export async function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms / 1000} s waiting for ${what}`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function withBenchDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const server = await bounded(resolveServerUrl(), 120_000, 'the database server');
  const url = withDatabase(server, `herald_bench_${randomBytes(4).toString('hex')}`);
  await bounded(ensureDatabaseExists(url), 60_000, 'the bench database to be created');
  await bounded(deployMigrations({ url }), 120_000, 'the migrations');
  process.env.DATABASE_URL = url;
  try {
    return await fn(url);
  } finally {
    // Each step bounded and attempted whatever the one before did: a stuck close must not
    // keep the embedded server (or the bench database) around.
    const step = (what: string, run: () => Promise<unknown>) => bounded(run(), 30_000, what).catch((e: Error) => console.error(`cleanup: ${e.message}`));
    const { closeAllConnections } = await import('@/server/db/connections');
    const { closeJobs } = await import('@/server/jobs');
    await step('the job queue to close', closeJobs);
    await step('the connections to close', closeAllConnections);
    await step('the bench database to be dropped', () => dropDatabase(url));
    await step('the embedded server to stop', stopEmbeddedIfOwned);
  }
}

export async function benchWorkspace(connections: { platform: string; count: number }[]) {
  const { db } = await import('@/server/db/client');
  const ws = await db.workspace.create({ data: { name: 'Bench', slug: `bench-${randomBytes(4).toString('hex')}` } });
  const rows = [];
  for (const { platform, count } of connections) {
    for (let i = 0; i < count; i++) {
      rows.push(
        await db.connection.create({
          data: {
            workspaceId: ws.id,
            platform,
            provider: 'sandbox',
            sandboxBehavior: 'ok',
            externalId: `${platform}-${i}`,
            accountName: `bench${i}`,
            displayName: `Bench ${platform} ${i}`,
            tokenExpiresAt: new Date(Date.now() + 86_400_000),
          },
        }),
      );
    }
  }
  return { workspace: ws, connections: rows };
}
