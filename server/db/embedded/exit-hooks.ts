/**
 * Process exit and signal hooks, so that a server this process is responsible
 * for does not outlive its last user even when nobody calls stop().
 */
import { isAlive, sleep } from './processes';
import { held, stopOwnedEmbeddedPostgres } from './registry';
import { readState, writeState } from './state';
import { otherUsers, unregisterUser } from './users';

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
export function installExitHooks(): void {
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
