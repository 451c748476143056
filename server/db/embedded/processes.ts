/**
 * Whether a process recorded by pid (a server, its owner, a user, a lock
 * holder) is still alive, and a sleep for the loops that poll for it.
 */
import fs from 'node:fs';

export function isAlive(pid: number): boolean {
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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
