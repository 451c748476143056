/**
 * The migration tool against a real PostgreSQL (the test server: embedded or
 * DATABASE_URL's). Fixture schemas and migrations live in temp dirs; every
 * test gets a fresh database of its own.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../server/testing/per-file-database';
import { dropDatabase, ensureDatabaseExists, withDatabase, withMaintenanceClient } from '../../server/db/url';
import { createMigration, deployMigrations, migrationSlug, resolveMigration } from './migrate';

const SCHEMA_V1 = `
datasource db {
  provider = "postgresql"
}

enum Role {
  MEMBER
  ADMIN
}

model User {
  id    Int    @id @default(autoincrement())
  email String @unique
  role  Role   @default(MEMBER)
}
`;

const SCHEMA_V2 =
  SCHEMA_V1.replace('  role  Role   @default(MEMBER)\n', '  role  Role   @default(MEMBER)\n  name  String?\n  posts Post[]\n') +
  `
model Post {
  id       Int    @id @default(autoincrement())
  title    String
  author   User   @relation(fields: [authorId], references: [id])
  authorId Int
}
`;

const databases: string[] = [];
const dirs: string[] = [];

async function freshDatabase(): Promise<string> {
  const url = withDatabase(testDatabaseUrl(), `herald_m_${randomBytes(5).toString('hex')}`);
  await ensureDatabaseExists(url);
  databases.push(url);
  return url;
}

async function fixture(schema?: string) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-migrate-'));
  dirs.push(dir);
  const schemaPath = path.join(dir, 'schema.prisma');
  const migrationsDir = path.join(dir, 'migrations');
  await fs.mkdir(migrationsDir);
  if (schema) await fs.writeFile(schemaPath, schema);
  return {
    schemaPath,
    migrationsDir,
    setSchema: (text: string) => fs.writeFile(schemaPath, text),
    /** Writes a hand-made migration directory. */
    addMigration: async (name: string, sql: string) => {
      await fs.mkdir(path.join(migrationsDir, name));
      await fs.writeFile(path.join(migrationsDir, name, 'migration.sql'), sql);
    },
    migrations: async () =>
      (await fs.readdir(migrationsDir, { withFileTypes: true }))
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort(),
  };
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values?: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

const history = (url: string) =>
  query<{ migration_name: string; checksum: string; finished_at: Date | null; logs: string | null; rolled_back_at: Date | null }>(
    url,
    'SELECT migration_name, checksum, finished_at, logs, rolled_back_at FROM _prisma_migrations ORDER BY started_at, migration_name',
  );

const tables = async (url: string) =>
  (await query<{ t: string }>(url, `SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`)).map((r) => r.t);

afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

afterAll(async () => {
  for (const url of databases) await dropDatabase(url);
});

describe('createMigration (migrate dev)', () => {
  it('creates a migration from the schema, applies it, and writes Prisma’s files', async () => {
    const url = await freshDatabase();
    const fx = await fixture(SCHEMA_V1);

    const result = await createMigration({ url, name: 'Init users', ...fx });

    expect(result.created).toMatch(/^\d{14}_init_users$/);
    expect(result.applied).toEqual([result.created]);
    const sqlFile = path.join(fx.migrationsDir, result.created!, 'migration.sql');
    const sql = await fs.readFile(sqlFile, 'utf8');
    expect(sql).toContain('CREATE TYPE "Role" AS ENUM');
    expect(sql).toContain('CREATE TABLE "User"');
    expect(await fs.readFile(path.join(fx.migrationsDir, 'migration_lock.toml'), 'utf8')).toContain('provider = "postgresql"');

    expect(await tables(url)).toEqual(['User', '_prisma_migrations']);
    const [row] = await history(url);
    expect(row.migration_name).toBe(result.created);
    expect(row.finished_at).not.toBeNull();
    // Same checksum as the Prisma CLI: sha256 of the file.
    expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
  });

  it('creates nothing when the schema and the migrations already match', async () => {
    const url = await freshDatabase();
    const fx = await fixture(SCHEMA_V1);
    await createMigration({ url, name: 'init', ...fx });

    const lines: string[] = [];
    const again = await createMigration({ url, name: 'again', ...fx, log: (line) => lines.push(line) });

    expect(again).toMatchObject({ created: null, applied: [] });
    expect(await fx.migrations()).toHaveLength(1);
    expect(lines.join('\n')).toMatch(/no migration created/);
  });

  it('turns a later schema change into a second migration (shadow database really separate)', async () => {
    const url = await freshDatabase();
    const fx = await fixture(SCHEMA_V1);
    const first = await createMigration({ url, name: 'init', ...fx });
    const shadowsBefore = await shadowDatabases(url);

    await fx.setSchema(SCHEMA_V2);
    // A second-precision timestamp names the directory: make sure it differs.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const second = await createMigration({ url, name: 'posts', ...fx });

    expect(second.created).toMatch(/_posts$/);
    expect(second.applied).toEqual([second.created]);
    expect(await fx.migrations()).toEqual([first.created, second.created]);
    const sql = await fs.readFile(path.join(fx.migrationsDir, second.created!, 'migration.sql'), 'utf8');
    expect(sql).toContain('ALTER TABLE "User" ADD COLUMN');
    expect(sql).not.toContain('CREATE TYPE "Role"');
    expect(await tables(url)).toEqual(['Post', 'User', '_prisma_migrations']);
    // The shadow database is dropped after use.
    expect(await shadowDatabases(url)).toEqual(shadowsBefore);
  });

  it('refuses an empty name', async () => {
    const fx = await fixture(SCHEMA_V1);
    await expect(createMigration({ url: testDatabaseUrl(), name: '  ', ...fx })).rejects.toThrow(/needs a name/);
  });
});

describe('deployMigrations (migrate deploy)', () => {
  it('applies pending migrations once; a second deploy applies nothing', async () => {
    const url = await freshDatabase();
    const fx = await fixture();
    await fx.addMigration('20240101000000_a', 'CREATE TABLE a (id int PRIMARY KEY);');
    await fx.addMigration('20240102000000_b', 'CREATE TABLE b (id int PRIMARY KEY);');

    expect(await deployMigrations({ url, ...fx })).toEqual({ applied: ['20240101000000_a', '20240102000000_b'], edited: [] });
    expect(await deployMigrations({ url, ...fx })).toEqual({ applied: [], edited: [] });
    expect((await history(url)).map((r) => r.migration_name)).toEqual(['20240101000000_a', '20240102000000_b']);
  });

  it('does nothing with an empty or missing migrations folder', async () => {
    const url = await freshDatabase();
    const fx = await fixture();
    expect(await deployMigrations({ url, ...fx })).toEqual({ applied: [], edited: [] });
    expect(await deployMigrations({ url, migrationsDir: path.join(fx.migrationsDir, 'nope') })).toEqual({ applied: [], edited: [] });
  });

  it('runs a migration as one statement: $$ bodies, triggers and CHECK constraints survive, and diffs still work', async () => {
    const url = await freshDatabase();
    const fx = await fixture();
    await fx.addMigration(
      '20240101000000_hand_written',
      `CREATE TABLE "Item" (
  "id" SERIAL NOT NULL,
  "qty" INTEGER NOT NULL,
  "label" TEXT NOT NULL,
  CONSTRAINT "Item_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "qty_positive" CHECK ("qty" > 0)
);

CREATE FUNCTION item_label() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."label" := upper(NEW."label"); -- semicolons inside the body
  RETURN NEW;
END;
$$;

CREATE TRIGGER item_label BEFORE INSERT ON "Item" FOR EACH ROW EXECUTE FUNCTION item_label();
`,
    );

    expect((await deployMigrations({ url, ...fx })).applied).toEqual(['20240101000000_hand_written']);
    const [item] = await query<{ label: string }>(url, `INSERT INTO "Item" (qty, label) VALUES (1, 'abc') RETURNING label`);
    expect(item.label).toBe('ABC');

    // Introspecting a CHECK constraint reads pg_catalog "char" columns.
    await fx.setSchema(`
datasource db {
  provider = "postgresql"
}

model Item {
  id    Int     @id @default(autoincrement())
  qty   Int
  label String
  note  String?
}
`);
    const next = await createMigration({ url, name: 'note', ...fx });
    expect(await fs.readFile(path.join(fx.migrationsDir, next.created!, 'migration.sql'), 'utf8')).toContain('ADD COLUMN     "note" TEXT');
  });

  it('records a failed migration without half-applying it, and refuses later deploys', async () => {
    const url = await freshDatabase();
    const fx = await fixture();
    await fx.addMigration('20240101000000_ok', 'CREATE TABLE ok (id int);');
    await fx.addMigration('20240102000000_bad', 'CREATE TABLE half (id int);\nSELECT * FROM missing_table;');

    await expect(deployMigrations({ url, ...fx })).rejects.toThrow(/^Migration 20240102000000_bad failed: .*missing_table/);

    const rows = await history(url);
    expect(rows.map((r) => [r.migration_name, r.finished_at !== null])).toEqual([
      ['20240101000000_ok', true],
      ['20240102000000_bad', false],
    ]);
    expect(rows[1].logs).toContain('missing_table');
    expect(await tables(url)).not.toContain('half'); // the whole script rolled back

    await fx.addMigration('20240103000000_later', 'CREATE TABLE later (id int);');
    await expect(deployMigrations({ url, ...fx })).rejects.toMatchObject({
      code: 'P3009',
      message: expect.stringMatching(/failed migrations[\s\S]*20240102000000_bad[\s\S]*resolve --rolled-back/),
    });
    expect(await tables(url)).not.toContain('later');

    // The way out: fix the migration, mark the failed attempt rolled back, deploy again.
    await fs.writeFile(path.join(fx.migrationsDir, '20240102000000_bad', 'migration.sql'), 'CREATE TABLE half (id int);');
    await resolveMigration({ url, rolledBack: '20240102000000_bad', ...fx });
    expect((await deployMigrations({ url, ...fx })).applied).toEqual(['20240102000000_bad', '20240103000000_later']);
    expect(await tables(url)).toEqual(expect.arrayContaining(['half', 'later']));
  });

  it('surfaces PostgreSQL’s own message and the line for a failing script', async () => {
    const url = await freshDatabase();
    const fx = await fixture();
    await fx.addMigration('20240101000000_typo', 'CREATE TABLE a (id int);\n\nSELEC 1;');
    await expect(deployMigrations({ url, ...fx })).rejects.toThrow(
      /^Migration 20240101000000_typo failed: .*syntax error at or near "SELEC" \(migration.sql line 3\)/,
    );
  });

  it('reports an applied migration whose file was edited afterwards', async () => {
    const url = await freshDatabase();
    const fx = await fixture();
    await fx.addMigration('20240101000000_a', 'CREATE TABLE a (id int);');
    await deployMigrations({ url, ...fx });

    await fs.writeFile(path.join(fx.migrationsDir, '20240101000000_a', 'migration.sql'), 'CREATE TABLE a (id bigint);');
    const lines: string[] = [];
    const result = await deployMigrations({ url, ...fx, log: (line) => lines.push(line) });

    expect(result).toEqual({ applied: [], edited: ['20240101000000_a'] });
    expect(lines.join('\n')).toMatch(/20240101000000_a was edited after it was applied/);
  });

  it('applies each migration exactly once when 4 deploys run at the same time', async () => {
    const url = await freshDatabase();
    const fx = await fixture();
    // Plain CREATE TABLE: applying any migration twice would fail.
    for (let i = 1; i <= 5; i++) await fx.addMigration(`2024010${i}000000_m${i}`, `CREATE TABLE m${i} (id int);`);

    const results = await Promise.all(Array.from({ length: 4 }, () => deployMigrations({ url, ...fx })));

    const applied = results.flatMap((r) => r.applied).sort();
    expect(applied).toEqual(['20240101000000_m1', '20240102000000_m2', '20240103000000_m3', '20240104000000_m4', '20240105000000_m5']);
    expect(await history(url)).toHaveLength(5);
  });
});

describe('migrationSlug', () => {
  it('names migrations the way the Prisma CLI does', () => {
    expect(migrationSlug('Add users')).toBe('add_users');
    expect(migrationSlug('addUserRoles')).toBe('add_user_roles');
    expect(migrationSlug('  crème brûlée!  ')).toBe('creme_brulee');
  });
});

async function shadowDatabases(url: string): Promise<string[]> {
  return withMaintenanceClient(url, async (c) =>
    (await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'prisma_migrate_shadow_db_%' ORDER BY 1`)).rows.map(
      (r) => r.datname,
    ),
  );
}
