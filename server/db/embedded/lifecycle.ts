/**
 * Start or join: the entry point that finds the shared server and either
 * joins it, takes it over from a starter that has exited, or starts it.
 */
import { handleFor, type EmbeddedPostgres } from './handle';
import { embeddedDataDir } from './layout';
import { acquireLock } from './lock';
import { isAlive } from './processes';
import { findRunning } from './probe';
import { handles } from './registry';
import { startServer } from './server-process';
import { writeState } from './state';
import { registerUser, unregisterUser } from './users';

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
      const started = await startServer(dataDir);
      return handleFor(dataDir, started.state, true, started.stopChild);
    } finally {
      await release();
    }
  } catch (error) {
    unregisterUser(dataDir);
    throw error;
  }
}
