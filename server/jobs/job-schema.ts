// graphile-worker keeps its queue in its own schema (`graphile_worker`) and migrates it itself.
// Two processes starting together (app and a script, or two test runners) could race on that
// migration, so it runs under an advisory lock, once per process and database.
import pg from 'pg';
import { runMigrations } from 'graphile-worker';
import { quietLogger } from './worker-logger';

// Arbitrary constant, distinct from Prisma's migration lock (72707369).
const JOB_SCHEMA_LOCK = 4_817_301;
const migrated = new Map<string, Promise<void>>();

export function ensureJobSchema(connectionString: string): Promise<void> {
  let done = migrated.get(connectionString);
  if (!done) {
    done = migrate(connectionString);
    migrated.set(connectionString, done);
    // Forget a failure so the next caller tries again.
    done.catch(() => migrated.delete(connectionString));
  }
  return done;
}

async function migrate(connectionString: string): Promise<void> {
  const lock = new pg.Client({ connectionString });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [JOB_SCHEMA_LOCK]);
    await runMigrations({ connectionString, logger: quietLogger });
  } finally {
    await lock.end();
  }
}
