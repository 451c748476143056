// A fresh, migrated database for one benchmark run, on DATABASE_URL's server or the
// embedded one; dropped afterwards.
import { randomBytes } from 'node:crypto';
import { deployMigrations } from '@/prisma/scripts/migrate';
import { dropDatabase, ensureDatabaseExists, resolveServerUrl, stopEmbeddedIfOwned, withDatabase } from '@/server/db/url';

export async function withBenchDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const server = await resolveServerUrl();
  const url = withDatabase(server, `herald_bench_${randomBytes(4).toString('hex')}`);
  await ensureDatabaseExists(url);
  await deployMigrations({ url });
  process.env.DATABASE_URL = url;
  try {
    return await fn(url);
  } finally {
    const { closeAllConnections } = await import('@/server/db/connections');
    const { closeJobs } = await import('@/server/jobs');
    await closeJobs();
    await closeAllConnections();
    await dropDatabase(url).catch(() => {});
    await stopEmbeddedIfOwned();
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
