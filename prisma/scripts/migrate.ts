/**
 * Prisma migrations without the native schema engine.
 *
 * `prisma migrate` needs a native schema-engine binary that is downloaded at
 * install time; where that is impossible we run the same engine compiled to
 * WebAssembly (`@prisma/schema-engine-wasm`) through a driver adapter. The
 * on-disk and in-database formats are Prisma's own:
 * `prisma/migrations/<timestamp>_<name>/migration.sql`, `migration_lock.toml`
 * and the `_prisma_migrations` table (same checksums, same advisory lock), so
 * `prisma migrate deploy` works unchanged wherever the native engine exists.
 *
 *   tsx prisma/scripts/migrate.ts deploy        apply pending migrations
 *   tsx prisma/scripts/migrate.ts dev <name>    create a migration from the schema, then apply it
 *   tsx prisma/scripts/migrate.ts resolve --rolled-back|--applied <name>
 *
 * Without DATABASE_URL both use the embedded server (database `herald`).
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { MigrationList, SchemaEngine as Engine } from '@prisma/schema-engine-wasm';
import { createMigrationAdapterFactory } from './migration-adapter';
import { resolveDatabaseUrl, stopEmbeddedIfOwned } from '../../server/db/url';
import { env } from '../../server/config/env';

const PRISMA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_MIGRATIONS_DIR = path.join(PRISMA_DIR, 'migrations');
export const DEFAULT_SCHEMA_PATH = path.join(PRISMA_DIR, 'schema.prisma');

const LOCKFILE = 'migration_lock.toml';
const FILTERS = { externalTables: [], externalEnums: [] };

export interface MigrateOptions {
  url: string;
  migrationsDir?: string;
  schemaPath?: string;
  /** Where progress lines go; silent by default (the CLI passes console.log). */
  log?: (line: string) => void;
}

export interface DeployResult {
  /** Migrations applied by this call, in order. */
  applied: string[];
  /** Applied migrations whose migration.sql changed since (checksum mismatch). */
  edited: string[];
}

export interface CreateResult {
  /** Directory name of the new migration, or null when the schema had no changes. */
  created: string | null;
  /** Migrations applied by this call (pending ones first, then the new one). */
  applied: string[];
  /** Data-loss warnings the engine reported for the new migration. */
  warnings: string[];
}

// ---------------------------------------------------------------------------
// Loading the engine. Node 20 cannot `import` a .wasm file, which is what the
// package's entry point does, so we instantiate the module ourselves and hand
// it to the package's JS runtime. Once per process.

type Runtime = typeof import('@prisma/schema-engine-wasm');
let runtime: Promise<Runtime> | undefined;
let lastPanic: string | undefined;

function loadRuntime(): Promise<Runtime> {
  runtime ??= (async () => {
    // Without this registry an engine panic surfaces only as "unreachable".
    (globalThis as Record<string, unknown>).PRISMA_WASM_PANIC_REGISTRY ??= {
      set_message: (message: string) => {
        lastPanic = message;
      },
    };
    const js = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bindings = (await import('@prisma/schema-engine-wasm/schema_engine_bg')) as Runtime & {
      __wbg_set_wasm(exports: WebAssembly.Exports): void;
    };
    const wasmModule = await WebAssembly.compile(await fsp.readFile(path.join(path.dirname(js), 'schema_engine_bg.wasm')));
    // The engine arms a 10 s timeout around its work and never clears it (it
    // imports no clearTimeout), which kept every caller alive for 10 s after
    // the work was done. Unref'd, such a timer still fires while the process
    // has anything else to do; it just no longer holds the process open.
    const imports: Record<string, unknown> = { ...bindings };
    for (const name of Object.keys(imports).filter((key) => key.startsWith('__wbg_setTimeout_'))) {
      const setTimer = imports[name] as (...args: unknown[]) => NodeJS.Timeout;
      imports[name] = (...args: unknown[]) => {
        const timer = setTimer(...args);
        timer?.unref?.();
        return timer;
      };
    }
    const instance = await WebAssembly.instantiate(wasmModule, {
      './schema_engine_bg.js': imports as WebAssembly.ModuleImports,
    });
    bindings.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bindings;
  })();
  return runtime;
}

/** Runs `fn` with an engine for `url`; always frees the engine and closes every connection it opened. */
async function withEngine<T>(url: string, schema: SchemaFile | undefined, fn: (engine: Engine) => Promise<T>): Promise<T> {
  const { SchemaEngine } = await loadRuntime();
  const { adapterFactory, close } = createMigrationAdapterFactory(url);
  const debug = env.debugMigrations() ? (line: string) => console.error(line) : () => undefined;
  lastPanic = undefined;
  let engine: Engine | undefined;
  try {
    engine = await SchemaEngine.new({ datamodels: schema ? [[schema.path, schema.content]] : undefined }, debug, adapterFactory);
    return await fn(engine);
  } catch (error) {
    throw engineError(error);
  } finally {
    engine?.free();
    await close();
  }
}

/**
 * Engine errors carry a Rust span trace and sometimes arrive as JSON text or
 * a bare wasm "unreachable". Turn them into one short, readable Error that
 * keeps Prisma's error code (`P3009`, …) in `code`.
 */
function engineError(error: unknown): Error {
  if (error instanceof Error && error.message === 'unreachable' && lastPanic) {
    return new Error(`The schema engine panicked: ${lastPanic}`);
  }
  let message: string;
  let code: string | undefined;
  if (error instanceof Error) {
    message = error.message;
    code = (error as { code?: string }).code;
  } else {
    let detail = error as { message?: string; error_code?: string } | string;
    if (typeof detail === 'string') {
      try {
        detail = JSON.parse(detail) as { message?: string; error_code?: string };
      } catch {
        /* plain text */
      }
    }
    message = typeof detail === 'string' ? detail : (detail.message ?? JSON.stringify(detail));
    code = typeof detail === 'string' ? undefined : detail.error_code;
  }
  const migration = /with migration_name="([^"]+)"/.exec(message)?.[1];
  const text = message
    .split(/\n\s+0: /)[0] // drop the span trace
    .replace(/^external connector error\n/, '')
    .trim();
  const hint =
    code === 'P3009'
      ? '\nFix the migration (and the database, if the script left changes behind), then run ' +
        '`npx tsx prisma/scripts/migrate.ts resolve --rolled-back <name>` and deploy again.'
      : '';
  const wrapped = new Error(migration && !text.includes(migration) ? `Migration ${migration} failed: ${text}${hint}` : `${text}${hint}`);
  return Object.assign(wrapped, { code });
}

// ---------------------------------------------------------------------------
// Files: the same reading rules as the Prisma CLI.

interface SchemaFile {
  path: string;
  content: string;
}

async function readSchema(schemaPath: string): Promise<SchemaFile | undefined> {
  const content = await fsp.readFile(schemaPath, 'utf8').catch(() => undefined);
  return content === undefined ? undefined : { path: schemaPath, content };
}

async function readMigrations(baseDir: string): Promise<MigrationList> {
  const lockContent = await fsp.readFile(path.join(baseDir, LOCKFILE), 'utf8').catch(() => null);
  const entries = await fsp.readdir(baseDir, { withFileTypes: true }).catch(() => []);
  const migrationDirectories = await Promise.all(
    entries
      .filter((entry) => entry.isDirectory())
      .map(async (entry) => ({
        path: entry.name,
        migrationFile: {
          path: 'migration.sql',
          content: await fsp
            .readFile(path.join(baseDir, entry.name, 'migration.sql'), 'utf8')
            .then((value) => ({ tag: 'ok' as const, value }))
            .catch((error: Error) => ({ tag: 'error' as const, value: error.message })),
        },
      })),
  );
  migrationDirectories.sort((a, b) => a.path.localeCompare(b.path));
  return { baseDir, lockfile: { path: LOCKFILE, content: lockContent }, migrationDirectories, shadowDbInitScript: '' };
}

/** A path as a human wants to read it: relative inside the project, absolute elsewhere. */
function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') ? relative : file;
}

/** Prisma's slug for migration names: `Add users` / `addUsers` -> `add_users`. */
export function migrationSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 200);
}

// ---------------------------------------------------------------------------
// deploy = `prisma migrate deploy`

export async function deployMigrations(opts: MigrateOptions): Promise<DeployResult> {
  const log = opts.log ?? (() => undefined);
  const migrationsDir = path.resolve(opts.migrationsDir ?? DEFAULT_MIGRATIONS_DIR);
  const list = await readMigrations(migrationsDir);
  if (list.migrationDirectories.length === 0) {
    log(`No migrations in ${shown(migrationsDir)}.`);
    return { applied: [], edited: [] };
  }
  const schema = await readSchema(path.resolve(opts.schemaPath ?? DEFAULT_SCHEMA_PATH));
  return withEngine(opts.url, schema, async (engine) => {
    // Applying refuses by itself when a migration failed earlier (P3009), and
    // takes pg_advisory_lock(72707369) so concurrent deploys apply each migration once.
    const { appliedMigrationNames: applied } = await engine.applyMigrations({ migrationsList: list, filters: FILTERS });
    const { editedMigrationNames: edited } = await engine.diagnoseMigrationHistory({
      migrationsList: list,
      optInToShadowDatabase: false,
      filters: FILTERS,
    });
    for (const name of applied) log(`Applied ${name}`);
    if (applied.length === 0) log('No pending migrations.');
    for (const name of edited) log(`Warning: ${name} was edited after it was applied (checksum differs).`);
    return { applied, edited };
  });
}

// ---------------------------------------------------------------------------
// dev = `prisma migrate dev --name <name>` (non-interactive)

export async function createMigration(opts: MigrateOptions & { name: string }): Promise<CreateResult> {
  const log = opts.log ?? (() => undefined);
  const migrationsDir = path.resolve(opts.migrationsDir ?? DEFAULT_MIGRATIONS_DIR);
  const schemaPath = path.resolve(opts.schemaPath ?? DEFAULT_SCHEMA_PATH);
  const name = migrationSlug(opts.name);
  if (!name) throw new Error('A migration needs a name, e.g. `npm run db:migrate -- add_users`.');
  const schema = await readSchema(schemaPath);
  if (!schema) throw new Error(`No Prisma schema at ${schemaPath}.`);
  const schemas = { files: [schema] };

  return withEngine(opts.url, schema, async (engine) => {
    let list = await readMigrations(migrationsDir);
    const diagnose = async () => {
      const { action } = await engine.devDiagnostic({ migrationsList: list, filters: FILTERS });
      if (action.tag === 'reset') {
        throw new Error(
          `The database has to be reset before a new migration can be created:\n${action.reason}\n` +
            'Drop and recreate the development database (its data will be lost), then run this again.',
        );
      }
    };

    // The shadow database the engine needs for createMigration is armed by
    // devDiagnostic, and applying migrations disarms it: diagnose again after.
    await diagnose();
    const applied = (await engine.applyMigrations({ migrationsList: list, filters: FILTERS })).appliedMigrationNames;
    for (const applied1 of applied) log(`Applied ${applied1}`);
    if (applied.length) await diagnose();

    const { unexecutableSteps, warnings } = await engine.evaluateDataLoss({ migrationsList: list, schema: schemas, filters: FILTERS });
    if (unexecutableSteps.length) {
      throw new Error('The schema change cannot be applied as a migration:\n' + unexecutableSteps.map((step) => `  - ${step.message}`).join('\n'));
    }
    const warningMessages = warnings.map((warning) => warning.message);
    for (const message of warningMessages) log(`Warning: ${message}`);

    const result = await engine.createMigration({
      draft: false,
      migrationName: name,
      migrationsList: list,
      schema: schemas,
      filters: FILTERS,
    });
    if (result.migrationScript === null) {
      log('The schema and the migrations already match: no migration created.');
      return { created: null, applied, warnings: warningMessages };
    }

    const dir = path.join(migrationsDir, result.generatedMigrationName);
    await fsp.mkdir(dir, { recursive: true });
    await fsp.writeFile(path.join(dir, `migration.${result.extension}`), result.migrationScript, { flag: 'wx' });
    await fsp.writeFile(
      path.join(migrationsDir, LOCKFILE),
      '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\n' + `provider = "${result.connectorType}"\n`,
    );
    log(`Created ${shown(path.join(dir, `migration.${result.extension}`))}`);

    list = await readMigrations(migrationsDir);
    const appliedNew = (await engine.applyMigrations({ migrationsList: list, filters: FILTERS })).appliedMigrationNames;
    for (const name1 of appliedNew) log(`Applied ${name1}`);
    return { created: result.generatedMigrationName, applied: [...applied, ...appliedNew], warnings: warningMessages };
  });
}

// ---------------------------------------------------------------------------
// resolve = `prisma migrate resolve`: the way out of a failed migration (P3009)

export async function resolveMigration(
  opts: MigrateOptions & ({ rolledBack: string; applied?: never } | { applied: string; rolledBack?: never }),
): Promise<void> {
  const log = opts.log ?? (() => undefined);
  const migrationsDir = path.resolve(opts.migrationsDir ?? DEFAULT_MIGRATIONS_DIR);
  await withEngine(opts.url, undefined, async (engine) => {
    if (opts.rolledBack) {
      await engine.markMigrationRolledBack({ migrationName: opts.rolledBack });
      log(`Marked ${opts.rolledBack} as rolled back.`);
    } else {
      await engine.markMigrationApplied({ migrationName: opts.applied!, migrationsList: await readMigrations(migrationsDir) });
      log(`Marked ${opts.applied} as applied.`);
    }
  });
}

// ---------------------------------------------------------------------------
// CLI

const USAGE = `Usage: tsx prisma/scripts/migrate.ts <command> [--schema <file>] [--migrations <dir>]
  deploy                        apply pending migrations        (npm run db:deploy)
  dev <name>                    create a migration and apply it (npm run db:migrate -- <name>)
  resolve --rolled-back <name>  after fixing a failed migration
  resolve --applied <name>      record a migration as applied without running it`;

function parseArgs(argv: string[]) {
  const words: string[] = [];
  const options: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const [key, inline] = arg.slice(2).split(/=(.*)/s);
    const takesValue = key === 'schema' || key === 'migrations';
    options[key] = inline ?? (takesValue ? (argv[++i] ?? '') : true);
  }
  return { command: words.shift(), words, options };
}

async function main(argv: string[]): Promise<void> {
  const { command, words, options } = parseArgs(argv);
  const log = (line: string) => console.log(line);
  const paths = {
    schemaPath: typeof options.schema === 'string' ? options.schema : undefined,
    migrationsDir: typeof options.migrations === 'string' ? options.migrations : undefined,
  };
  const rolledBack = options['rolled-back'] === true;
  const valid =
    command === 'deploy' ||
    (command === 'dev' && words.length > 0) ||
    (command === 'resolve' && (rolledBack || options.applied === true) && words.length === 1);
  if (!valid) throw new Error(USAGE);

  const url = await resolveDatabaseUrl();
  try {
    if (command === 'deploy') await deployMigrations({ url, log, ...paths });
    else if (command === 'dev') await createMigration({ url, name: words.join(' '), log, ...paths });
    else if (rolledBack) await resolveMigration({ url, rolledBack: words[0], log, ...paths });
    else await resolveMigration({ url, applied: words[0], log, ...paths });
  } finally {
    // An embedded server this run had to start is stopped cleanly; a shared one is left alone.
    await stopEmbeddedIfOwned();
  }
}

const isCli = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isCli) {
  // End explicitly: nothing the engine or pg left behind may keep a CLI alive.
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (error: Error) => {
      console.error(error.message.startsWith('Usage:') ? error.message : `Error: ${error.message}`);
      process.exit(1);
    },
  );
}
