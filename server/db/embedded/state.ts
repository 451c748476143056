/**
 * The state file (`server.json`): which server runs this cluster, on which
 * port, and which process is responsible for stopping it. Shared by every
 * process using the data directory.
 */
import fs from 'node:fs';
import { stateFile } from './layout';

export interface ServerState {
  port: number;
  pid: number;
  ownerPid: number;
  startedAt: string;
}

export function readState(dataDir: string): ServerState | undefined {
  try {
    return JSON.parse(fs.readFileSync(stateFile(dataDir), 'utf8')) as ServerState;
  } catch {
    return undefined;
  }
}

/** Atomic (write + rename) and synchronous, so that it also works in an `exit` hook. */
export function writeState(dataDir: string, state: ServerState): void {
  const tmp = `${stateFile(dataDir)}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(state, null, 2) + '\n');
  fs.renameSync(tmp, stateFile(dataDir));
}
