// Statements on the driver: SQL built with `Prisma.sql` (the same tagged template, so values
// are always parameters) run on the pg pool Prisma's adapter uses, without Prisma's request
// pipeline and per-value result mapping. Used by the hot API reads and the post insert, where
// that mapping cost more than the statement (0.8 ms on a page of 50 posts; step 7 in
// docs/performance.md). Rows come back in the types Prisma gives for the same columns, so
// one row type serves both paths: timestamps (stored as UTC `timestamp(3)`) as Dates, json
// parsed, arrays as arrays, uuid and text as strings.
import type { Prisma } from '@/server/generated/prisma/client';
import pg from 'pg';
import { getPool } from './client';

const TIMESTAMP = 1114; // timestamp without time zone: the columns hold UTC
const utcTimestamp = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);

const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === TIMESTAMP ? utcTimestamp : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * A Date parameter as UTC ISO 8601: PostgreSQL keeps its wall time for a `timestamp` column
 * (which holds UTC) and honours the `Z` where the context is `timestamptz`. node-postgres
 * would send local time.
 */
const param = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

/** The rows of one statement, outside any transaction (one statement is atomic by itself). */
export async function sqlRows<T>(query: Prisma.Sql): Promise<T[]> {
  const result = await getPool().query({ text: query.text, values: query.values.map(param), types });
  return result.rows as T[];
}
