/**
 * Where the embedded server's files live. Every module goes through these
 * helpers, so the layout of the data directory is written down once.
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
import path from 'node:path';

export function embeddedDataDir(dataDir?: string): string {
  return path.resolve(dataDir ?? path.join(process.env.DATA_DIR ?? '.data', 'postgres'));
}

export const pgdataDir = (dataDir: string) => path.join(dataDir, 'pgdata');
export const markerFile = (dataDir: string) => path.join(dataDir, 'initialised');
export const stateFile = (dataDir: string) => path.join(dataDir, 'server.json');
export const usersDir = (dataDir: string) => path.join(dataDir, 'users');
export const userFile = (dataDir: string, pid: number) => path.join(usersDir(dataDir), String(pid));
export const lockFile = (dataDir: string) => path.join(dataDir, 'server.lock');
export const logFile = (dataDir: string) => path.join(dataDir, 'server.log');
