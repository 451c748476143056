/**
 * The handle a caller gets for a server it started, took over or joined, and
 * what its stop() does: let go, then stop the server only when this process
 * is responsible for it and nobody else still uses it, otherwise hand it over.
 */
import { embeddedUrl } from './credentials';
import { installExitHooks } from './exit-hooks';
import { acquireLock } from './lock';
import { isAlive, sleep } from './processes';
import { handles, held, type Held } from './registry';
import { readState, writeState, type ServerState } from './state';
import { otherUsers, unregisterUser } from './users';

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

export function handleFor(dataDir: string, state: ServerState, owned: boolean, stopChild?: () => Promise<void>): EmbeddedPostgres {
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
