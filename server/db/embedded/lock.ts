/**
 * The cross-process lock (`server.lock`) that serialises starting, taking over
 * and stopping the server: exclusive create of a file holding our pid. A lock
 * whose pid is dead (a process killed while starting the server) is stale and
 * removed.
 */
import fsp from 'node:fs/promises';
import { lockFile } from './layout';
import { isAlive, sleep } from './processes';

const LOCK_TIMEOUT_MS = 120_000;

/** Waits for the lock; resolves to the function that releases it. */
export async function acquireLock(dataDir: string): Promise<() => Promise<void>> {
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
