/**
 * The registry of processes using the server (`users/<pid>`), so that the
 * process stopping it can tell whether anyone else still needs it.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { userFile, usersDir } from './layout';
import { isAlive } from './processes';

/** Registers this process (creating the data directory on first use). */
export async function registerUser(dataDir: string): Promise<void> {
  await fsp.mkdir(usersDir(dataDir), { recursive: true });
  await fsp.writeFile(userFile(dataDir, process.pid), '');
}

/** Synchronous, so that it also works in an `exit` hook. */
export function unregisterUser(dataDir: string): void {
  fs.rmSync(userFile(dataDir, process.pid), { force: true });
}

/** Other live processes using the server; files of dead ones are removed. */
export function otherUsers(dataDir: string): number[] {
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
