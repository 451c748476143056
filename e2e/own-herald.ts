// A Herald of a journey's own: the same build on its own port, over a database that starts
// empty (created and migrated before the journey, dropped after), with its own data folder and
// local mailbox. Small pools: it shares the PostgreSQL server (and its connection limit) with
// the suite's own server. Used by the journeys that need an empty Herald (first run, first week).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect } from './test';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

export function ownHerald(name: string) {
  const database = `herald_e2e_${name}_${process.pid}`;
  const withPath = (pathname: string) => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = pathname;
    return url.toString();
  };
  const databaseUrl = () => withPath(`/${database}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), `herald-${name}-`));
  const servers: ChildProcess[] = [];

  async function admin(sql: string) {
    const client = new pg.Client({ connectionString: withPath('/postgres') });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  return {
    dataDir,
    /** Creates and migrates the empty database (a leftover of an earlier run is dropped first). */
    async create() {
      await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin(`CREATE DATABASE "${database}"`);
      execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'prisma/scripts/migrate.ts', 'deploy'], {
        env: { ...process.env, DATABASE_URL: databaseUrl() },
      });
    },
    /** Stops every server started here and drops the database. */
    async destroy() {
      for (const server of servers) server.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 500));
      await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    },
    /** Starts the build on `port` over the database, ready once its health answers. */
    async start(port: number, env: Record<string, string> = {}): Promise<{ origin: string; stop(): void }> {
      const origin = `http://localhost:${port}`;
      const server = spawn(process.execPath, ['server/runtime/serve.mjs', `--port=${port}`], {
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl(),
          DATA_DIR: dataDir,
          HERALD_BASE_URL: origin,
          AUTH_URL: origin,
          AUTH_TRUST_HOST: 'true',
          SMTP_URL: '',
          DATABASE_POOL_SIZE: '4',
          JOBS_CONCURRENCY: '2',
          ...env,
        },
        stdio: 'ignore',
      });
      servers.push(server);
      await expect(async () => expect((await fetch(`${origin}/api/health`)).status).toBeLessThan(500)).toPass({ timeout: 60_000 });
      return { origin, stop: () => server.kill('SIGTERM') };
    },
    /** Rows of a query on the journey's database. */
    async query<T>(sql: string, values: unknown[] = []): Promise<T[]> {
      const client = new pg.Client({ connectionString: databaseUrl() });
      await client.connect();
      try {
        return (await client.query(sql, values)).rows as T[];
      } finally {
        await client.end();
      }
    },
    /** Every message in the local mailbox, newest first. */
    mailbox(): Mail[] {
      const dir = path.join(dataDir, 'mailbox');
      let names: string[] = [];
      try {
        names = readdirSync(dir);
      } catch {
        return [];
      }
      return names.map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Mail).sort((a, b) => b.sentAt.localeCompare(a.sentAt));
    },
  };
}
