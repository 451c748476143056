/**
 * Who owns the shared server and when it stops: start, join or take over
 * (ensureEmbeddedPostgres), the handle callers get and what its stop() does,
 * the hand-over to remaining users, and the exit and signal hooks. The files
 * that coordinate processes sharing a data directory live here too: the state
 * file (server.json), the users registry (users/<pid>, read by whoever is
 * about to stop the server) and the lock (server.lock).
 *
 * What this process holds (its handles and servers) is private to this
 * module: every path that changes it (start, stop, exit) is written here.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { embeddedDataDir, embeddedUrl, lockFile, stateFile, userFile, usersDir } from './data-directory';
import { answersAsCluster, isAlive, sleep, startServer } from './postgres-process';

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

/** As recorded in server.json, shared by every process using the data directory. */
interface ServerState {
  port: number;
  pid: number;
  ownerPid: number;
  startedAt: string;
}

interface Held {
  dataDir: string;
  pid: number;
}

// One handle per data directory per process: concurrent callers share it.
const handles = new Map<string, Promise<EmbeddedPostgres>>();

// Servers this process holds (started, taken over or joined) and has not let go of.
const held = new Set<Held>();

let hooksInstalled = false;

// ---------------------------------------------------------------------------
// Start or join: find the shared server and either join it, take it over from
// a starter that has exited, or start it.

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

async function startOrJoin(dataDir: string): Promise<EmbeddedPostgres> {
  // Registered before looking, so that an owner about to stop sees us.
  await registerUser(dataDir);
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
      const started = await startServer(dataDir, readState(dataDir)?.port);
      const fresh = { port: started.port, pid: started.pid, ownerPid: process.pid, startedAt: new Date().toISOString() };
      writeState(dataDir, fresh);
      return handleFor(dataDir, fresh, true, started.stopChild);
    } finally {
      await release();
    }
  } catch (error) {
    unregisterUser(dataDir);
    throw error;
  }
}

/** The server recorded in server.json, if it is running and really is this cluster. */
async function findRunning(dataDir: string): Promise<ServerState | undefined> {
  const state = readState(dataDir);
  if (state && isAlive(state.pid) && (await answersAsCluster(state.port, dataDir))) return state;
  return undefined;
}

// ---------------------------------------------------------------------------
// The handle, and what its stop() does: let go, then stop the server only when
// this process is responsible for it and nobody else still uses it, otherwise
// hand it over.

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
  unregisterUser(entry.dataDir);
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

/** Stops (or lets go of) every embedded server this process holds. */
export async function stopOwnedEmbeddedPostgres(): Promise<void> {
  const servers = await Promise.allSettled([...handles.values()]);
  await Promise.all(servers.map((result) => (result.status === 'fulfilled' ? result.value.stop() : undefined)));
}

// ---------------------------------------------------------------------------
// Exit and signal hooks, so that a server this process is responsible for
// does not outlive its last user even when nobody calls stop().

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
      unregisterUser(entry.dataDir);
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

// ---------------------------------------------------------------------------
// The state file (server.json): which server runs this cluster, on which port,
// and which process is responsible for stopping it.

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

// ---------------------------------------------------------------------------
// The users registry (users/<pid>): the process about to stop the server
// reads it to tell whether anyone else still needs it.

/** Registers this process (creating the data directory on first use). */
async function registerUser(dataDir: string): Promise<void> {
  await fsp.mkdir(usersDir(dataDir), { recursive: true });
  await fsp.writeFile(userFile(dataDir, process.pid), '');
}

/** Synchronous, so that it also works in an `exit` hook. */
function unregisterUser(dataDir: string): void {
  fs.rmSync(userFile(dataDir, process.pid), { force: true });
}

/** Other live processes using the server; files of dead ones are removed. */
function otherUsers(dataDir: string): number[] {
  let pids: number[];
  try {
    pids = fs.readdirSync(usersDir(dataDir)).map(Number);
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

// ---------------------------------------------------------------------------
// The cross-process lock (server.lock) that serialises starting, taking over
// and stopping the server: exclusive create of a file holding our pid. A lock
// whose pid is dead (a process killed while starting the server) is stale and
// removed.

const LOCK_TIMEOUT_MS = 120_000;

/** Waits for the lock; resolves to the function that releases it. */
async function acquireLock(dataDir: string): Promise<() => Promise<void>> {
  const file = lockFile(dataDir);
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
