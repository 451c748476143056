/**
 * Where the database lives.
 *
 * DATABASE_URL wins when it is set (production, CI, a developer's own server).
 * Without it every process talks to the one embedded PostgreSQL started from
 * `server/db/embedded/`, database `herald`.
 */
import pg from 'pg';
import { env } from '../config/env';

export const DEFAULT_DATABASE_NAME = 'herald';

/** Same server, same credentials and options, another database. */
export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(name)}`;
  return parsed.toString();
}

/** The database name a URL points at (PostgreSQL's default: the user name). */
export function databaseName(url: string): string {
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  return name || decodeURIComponent(parsed.username) || 'postgres';
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Runs `fn` with a client on the server's maintenance database. `postgres`
 * usually exists; `template1` always does (hosted servers sometimes drop
 * `postgres` or refuse connections to it).
 */
export async function withMaintenanceClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  let lastError: unknown;
  for (const db of ['postgres', 'template1']) {
    const client = new pg.Client({ connectionString: withDatabase(url, db) });
    try {
      await client.connect();
    } catch (error) {
      lastError = error;
      await client.end().catch(() => undefined);
      continue;
    }
    try {
      return await fn(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  throw lastError;
}

/**
 * Creates the database a URL points at unless it exists. Safe when several
 * processes race: losing the race is not an error. Returns true when this
 * call created it.
 */
export async function ensureDatabaseExists(url: string): Promise<boolean> {
  const name = databaseName(url);
  return withMaintenanceClient(url, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
      return true;
    } catch (error) {
      // 42P04 duplicate_database; 23505 when two CREATEs collide on the catalog index.
      const code = (error as { code?: string }).code;
      if (code === '42P04' || code === '23505') return false;
      throw error;
    }
  });
}

/** Drops the database a URL points at, disconnecting its sessions. */
export async function dropDatabase(url: string): Promise<void> {
  await withMaintenanceClient(url, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(databaseName(url))} WITH (FORCE)`));
}

let resolved: Promise<string> | undefined;
let embeddedLoaded = false;

async function embeddedServerUrl(): Promise<string> {
  // Imported lazily: a process with DATABASE_URL never loads the embedded server code.
  const { ensureEmbeddedPostgres } = await import('./embedded');
  embeddedLoaded = true;
  return (await ensureEmbeddedPostgres()).url;
}

/**
 * URL of the server itself (its `postgres` database): DATABASE_URL as given,
 * or the embedded server's. For tools that create their own databases.
 */
export async function resolveServerUrl(): Promise<string> {
  return env.databaseUrl() || embeddedServerUrl();
}

/** Stops the embedded server if this process started it; otherwise does nothing. */
export async function stopEmbeddedIfOwned(): Promise<void> {
  if (!embeddedLoaded) return;
  const { stopOwnedEmbeddedPostgres } = await import('./embedded');
  await stopOwnedEmbeddedPostgres();
}

/**
 * The URL the app should use. Without DATABASE_URL this starts (or joins) the
 * embedded server and makes sure database `herald` exists. Cached per process.
 */
export function resolveDatabaseUrl(): Promise<string> {
  const fromEnv = env.databaseUrl();
  if (fromEnv) return Promise.resolve(fromEnv);
  resolved ??= (async () => {
    const url = withDatabase(await embeddedServerUrl(), DEFAULT_DATABASE_NAME);
    await ensureDatabaseExists(url);
    return url;
  })().catch((error) => {
    resolved = undefined;
    throw error;
  });
  return resolved;
}
