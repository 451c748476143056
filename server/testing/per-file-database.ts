/**
 * Vitest setupFiles: runs in the worker before each test file's own code.
 *
 * Gives the file a database of its own, copied from the migrated template
 * (global-setup.ts), and points DATABASE_URL at it, so the app's lazily
 * created Prisma client connects there. Files running in parallel never see
 * each other's rows. The database is dropped after the file.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import { databaseName, quoteIdent, withDatabase, withMaintenanceClient } from '../db/url';

// Kept on globalThis so that a test importing this module for
// `testDatabaseUrl()` never creates a second database.
const state = globalThis as typeof globalThis & { __heraldTestDatabaseUrl?: string };

async function createTestDatabase(): Promise<string> {
  const templateUrl = inject('heraldTemplateDatabaseUrl');
  // Named after the run's template, so the run's teardown can find (and drop) it.
  const runId = databaseName(templateUrl).replace('herald_template_', '');
  const name = `herald_t_${runId}_${randomBytes(6).toString('hex')}`;
  const template = quoteIdent(databaseName(templateUrl));
  await withMaintenanceClient(templateUrl, async (client) => {
    // The copy fails while any session is connected to the template; nothing
    // should be, but retry briefly rather than fail a whole file on a fluke.
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${template}`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });
  return withDatabase(templateUrl, name);
}

if (!state.__heraldTestDatabaseUrl) {
  const url = await createTestDatabase();
  state.__heraldTestDatabaseUrl = url;
  const previousUrl = process.env.DATABASE_URL;
  process.env.DATABASE_URL = url;

  afterAll(async () => {
    // End the app's pools. The database itself is dropped by the run's teardown, once every
    // worker process has exited: dropping it here would kill connections a library may still
    // hold (an idle pool client, a LISTEN connection) and crash the worker.
    const { closeAllConnections } = await import('../db/connections');
    await closeAllConnections();
    delete state.__heraldTestDatabaseUrl;
    if (previousUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previousUrl;
  });
}

/** URL of this test file's own database (also in process.env.DATABASE_URL). */
export function testDatabaseUrl(): string {
  const url = state.__heraldTestDatabaseUrl;
  if (!url) throw new Error('No test database: is server/testing/per-file-database.ts in vitest setupFiles?');
  return url;
}
