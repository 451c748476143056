/**
 * The driver adapter the schema engine (WebAssembly build) migrates through.
 *
 * It is `@prisma/adapter-pg`, with four fixes for the migration path, all in
 * this one place rather than patched around the code base:
 *
 * 1. Shadow database: adapter-pg builds the shadow pool from
 *    `{ ...config, database }`, but pg lets `connectionString` override
 *    `database`, so the "shadow" silently becomes the main database. We put
 *    the shadow database's name into the URL itself.
 * 2. Dropping the shadow database: adapter-pg drops it while its own pool is
 *    still connected. We close the pool first, then `DROP … WITH (FORCE)`.
 * 3. Migration scripts: adapter-pg splits a script on `;`, which breaks
 *    `$$` function bodies and, on failure, leaves half a migration applied.
 *    We send the whole script as one simple-protocol query, as the native
 *    engine does: PostgreSQL runs it as one implicit transaction.
 * 4. `"char"` columns (OID 18, all over pg_catalog): adapter-pg throws
 *    "Unsupported column type char". We report them as
 *    `ColumnTypeEnum.Character` (calling them text makes the engine panic
 *    once a CHECK constraint exists).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  ColumnTypeEnum,
  DriverAdapterError,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQueryable,
  type Transaction,
} from '@prisma/driver-adapter-utils';
import { quoteIdent, withDatabase } from '../../server/db/url';

const CHAR_OID = 18;
const TEXT_OID = 25;

// Result rows arrays that contained "char" columns -> those column indexes.
// adapter-pg hands the driver's `rows` array through untouched, which is how
// the information gets from the driver (fix 4, part 1) to the adapter (part 2).
const charColumns = new WeakMap<object, number[]>();

type PgResult = { fields?: { dataTypeID: number }[]; rows?: unknown[] };

function relabelCharColumns(result: PgResult | PgResult[] | undefined): void {
  for (const one of Array.isArray(result) ? result : [result]) {
    if (!one?.fields || !one.rows) continue;
    const indexes: number[] = [];
    one.fields.forEach((field, i) => {
      if (field.dataTypeID === CHAR_OID) {
        field.dataTypeID = TEXT_OID; // so adapter-pg accepts the column...
        indexes.push(i);
      }
    });
    if (indexes.length) charColumns.set(one.rows, indexes);
  }
}

/** pg client whose results mark "char" columns (pg-pool's documented `Client` option). */
class CharAwareClient extends pg.Client {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const callback = args[args.length - 1];
    if (typeof callback === 'function') {
      args[args.length - 1] = (error: unknown, result: PgResult) => {
        if (!error) relabelCharColumns(result);
        callback(error, result);
      };
      return (super.query as (...a: unknown[]) => unknown)(...args);
    }
    const pending = (super.query as (...a: unknown[]) => unknown)(...args);
    if (pending && typeof (pending as Promise<PgResult>).then === 'function') {
      return (pending as Promise<PgResult>).then((result) => {
        relabelCharColumns(result);
        return result;
      });
    }
    return pending; // a Submittable (cursor, stream): passed through untouched
  }
}

function withCharColumns<T extends SqlQueryable>(queryable: T): T {
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.queryRaw = async (query) => {
    const result = await queryRaw(query);
    // ...and the engine learns the truth here.
    for (const i of charColumns.get(result.rows) ?? []) result.columnTypes[i] = ColumnTypeEnum.Character;
    return result;
  };
  return queryable;
}

/** `?schema=name` in the URL, as Prisma URLs allow; PostgreSQL's default otherwise. */
function schemaOf(url: string): string | undefined {
  return new URL(url).searchParams.get('schema') ?? undefined;
}

function withoutSchemaParam(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.delete('schema');
  return parsed.toString();
}

async function openAdapter(url: string): Promise<SqlDriverAdapter> {
  const schema = schemaOf(url);
  const factory = new PrismaPg(
    {
      connectionString: withoutSchemaParam(url),
      Client: CharAwareClient,
      // Unqualified names in migration scripts land in the chosen schema, as with the native engine.
      ...(schema ? { options: `-c search_path=${quoteIdent(schema)}` } : {}),
    },
    { schema, onPoolError: () => undefined },
  );
  const adapter = await factory.connect();
  withCharColumns(adapter);

  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (...args) => withCharColumns<Transaction>(await startTransaction(...args));

  // Fix 3: one query without parameters -> pg's simple query protocol, which
  // takes several statements and runs them as one implicit transaction.
  const pool = (adapter as unknown as { underlyingDriver(): pg.Pool }).underlyingDriver();
  adapter.executeScript = async (script: string) => {
    try {
      await pool.query(script);
    } catch (error) {
      throw scriptError(error, script);
    }
  };
  return adapter;
}

/**
 * PostgreSQL's own error for a failing script, with the line in
 * migration.sql; it ends up in the error and in `_prisma_migrations.logs`.
 * (The engine words a few well-known codes its own way, e.g. 42P01 becomes
 * "No such table: x".)
 */
function scriptError(error: unknown, script: string): unknown {
  const e = error as pg.DatabaseError;
  if (typeof e?.code !== 'string' || typeof e.severity !== 'string') return error; // socket errors etc.
  const line = e.position ? script.slice(0, Number(e.position) - 1).split('\n').length : undefined;
  const message = `${e.message}${line ? ` (migration.sql line ${line})` : ''}`;
  return new DriverAdapterError({
    kind: 'postgres',
    code: e.code,
    severity: e.severity,
    message,
    detail: e.detail,
    column: e.column,
    hint: e.hint,
    originalCode: e.code,
    originalMessage: e.message,
  });
}

async function runOnce(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: withoutSchemaParam(url) });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end().catch(() => undefined);
  }
}

class MigrationAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres' as const;
  readonly adapterName = '@prisma/adapter-pg';
  // Adapters the engine has not disposed yet: closed by closeAll() so that no
  // pool outlives the operation (an open connection blocks CREATE DATABASE …
  // TEMPLATE and DROP DATABASE, and keeps the process alive).
  readonly open = new Set<SqlDriverAdapter>();

  constructor(private readonly url: string) {}

  private track(adapter: SqlDriverAdapter): SqlDriverAdapter {
    const dispose = adapter.dispose.bind(adapter);
    let disposed: Promise<void> | undefined;
    adapter.dispose = () => {
      this.open.delete(adapter);
      return (disposed ??= dispose());
    };
    this.open.add(adapter);
    return adapter;
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.open].map((adapter) => adapter.dispose()));
  }

  async connect(): Promise<SqlDriverAdapter> {
    return this.track(await openAdapter(this.url));
  }

  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    const name = `prisma_migrate_shadow_db_${randomUUID()}`;
    await runOnce(this.url, `CREATE DATABASE ${quoteIdent(name)}`);
    let shadow: SqlDriverAdapter;
    try {
      shadow = await openAdapter(withDatabase(this.url, name)); // fix 1
    } catch (error) {
      await runOnce(this.url, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`).catch(() => undefined);
      throw error;
    }
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose(); // fix 2: our pool goes first...
      await runOnce(this.url, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`); // ...then the database
    };
    return this.track(shadow);
  }
}

/**
 * The factory to hand to `SchemaEngine.new(…)` for the database at `url`,
 * and `close()` to call when the engine is done with it.
 */
export function createMigrationAdapterFactory(url: string) {
  const factory = new MigrationAdapterFactory(url);
  return { adapterFactory: bindMigrationAwareSqlAdapterFactory(factory), close: () => factory.closeAll() };
}
