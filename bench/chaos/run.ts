// `npm run chaos`: Herald under a crash and a database restart, on real processes.
//   1. kill -9 during publishing, restart: leases, takeover, one event per target, no duplicates;
//   2. PostgreSQL stopped and started under load: 503s only, no hang, recovery, safe retries.
// Scenario 1 runs on DATABASE_URL's server when set (in a database of its own), otherwise on
// an embedded PostgreSQL in a temporary directory. Scenario 2 always restarts a server of its
// own (embedded, temporary): a shared server is never ours to restart.
// Prints one PASS/FAIL line per promise and exits non-zero when any failed.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { env } from '@/server/config/env';
import { ensureBuild } from './app-process';
import { crashDuringPublishing } from './crash-during-publishing';
import { databaseRestart } from './database-restart';
import { allPassed, exitWith, summary } from './report';

async function freshDatabase(serverUrl: string, label: string): Promise<string> {
  const { withDatabase, ensureDatabaseExists } = await import('@/server/db/url');
  const { deployMigrations } = await import('@/prisma/scripts/migrate');
  const url = withDatabase(serverUrl, `herald_chaos_${label}_${randomBytes(3).toString('hex')}`);
  await ensureDatabaseExists(url);
  await deployMigrations({ url });
  return url;
}

async function main(): Promise<number> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'herald-chaos-'));
  chmodSync(workDir, 0o755); // as root the embedded server runs as `postgres`, which must enter it
  const sharedUrl = env.databaseUrl();
  console.log(`chaos: logs and journals in ${workDir}`);
  ensureBuild();

  const { ensureEmbeddedPostgres } = await import('@/server/db/embedded');
  const embeddedDir = path.join(workDir, 'postgres');
  let embedded = await ensureEmbeddedPostgres({ dataDir: embeddedDir });
  const { closeAllConnections } = await import('@/server/db/connections');
  const { dropDatabase } = await import('@/server/db/url');
  const created: string[] = [];
  try {
    const crashUrl = await freshDatabase(sharedUrl || embedded.url, 'crash');
    created.push(crashUrl);
    console.log(`chaos: scenario 1 on ${sharedUrl ? "DATABASE_URL's server" : 'the embedded server'}`);
    await crashDuringPublishing({ databaseUrl: crashUrl, workDir, port: 3391 });
    await closeAllConnections();

    const restartUrl = await freshDatabase(embedded.url, 'restart');
    console.log(`chaos: scenario 2 restarts its own embedded PostgreSQL (port ${embedded.port})`);
    await databaseRestart({
      database: {
        databaseUrl: restartUrl,
        stop: async () => {
          await embedded.stop();
        },
        start: async () => {
          embedded = await ensureEmbeddedPostgres({ dataDir: embeddedDir });
          if (!restartUrl.includes(`:${embedded.port}/`)) throw new Error(`PostgreSQL came back on another port (${embedded.port})`);
        },
      },
      workDir,
      port: 3392,
    });
  } finally {
    await closeAllConnections();
    // Databases on a shared server are dropped; the embedded one goes with its directory.
    if (sharedUrl) for (const url of created) await dropDatabase(url).catch(() => {});
    await embedded.stop().catch(() => {});
    if (allPassed()) rmSync(workDir, { recursive: true, force: true });
  }
  console.log(summary());
  return allPassed() ? 0 : 1;
}

exitWith(main());
