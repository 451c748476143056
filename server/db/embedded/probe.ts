/**
 * Whether the server recorded in `server.json` is running and really is this
 * cluster: a process that joins trusts the state file only after this check.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { embeddedUrl } from './credentials';
import { pgdataDir } from './layout';
import { isAlive } from './processes';
import { readState, type ServerState } from './state';

export async function findRunning(dataDir: string): Promise<ServerState | undefined> {
  const state = readState(dataDir);
  if (state && isAlive(state.pid) && (await answersAsCluster(state.port, pgdataDir(dataDir)))) return state;
  return undefined;
}

/**
 * A server counts as ours only if it answers with our credentials AND reports
 * our cluster directory: after a reboot another program may hold the old port.
 */
async function answersAsCluster(port: number, pgdata: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: embeddedUrl(port), connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ dir: string }>(`SELECT current_setting('data_directory') AS dir`);
    return realpath(rows[0]?.dir ?? '') === realpath(pgdata);
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}
