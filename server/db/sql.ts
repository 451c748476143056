// Statements on the driver: SQL built with `Prisma.sql` (the same tagged template, so values
// are always parameters) run on the pg pool Prisma's adapter uses, without Prisma's request
// pipeline and per-value result mapping. Used by the hot API reads and the post insert, where
// that mapping cost more than the statement (0.8 ms on a page of 50 posts; step 7 in
// docs/performance.md). Rows come back in the types Prisma gives for the same columns, so
// one row type serves both paths: timestamps (stored as UTC `timestamp(3)`) as Dates, json
// parsed, arrays as arrays, uuid and text as strings. A read that only sends timestamps on
// can ask for them as the ISO 8601 strings `toISOString` would give instead (step 9).
import type { Prisma } from '@/server/generated/prisma/client';
import pg from 'pg';
import { getPool } from './client';

const TIMESTAMP = 1114; // timestamp without time zone: the columns hold UTC

/**
 * PostgreSQL's text for a `timestamp(3)` ("2026-11-23 15:35:10.1", no fraction when it is
 * zero) as `Date.prototype.toISOString` writes it ("2026-11-23T15:35:10.100Z"), without
 * making a Date: under Next.js every Date goes through its patched constructor, which cost
 * about 5 µs each inside a request (docs/performance.md, step 9).
 */
export function isoTimestamp(text: string): string {
  const dot = text.indexOf('.', 19);
  const fraction = dot < 0 ? '000' : text.slice(dot + 1, dot + 4).padEnd(3, '0');
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
}
const utcDate = (text: string) => new Date(isoTimestamp(text));

const typesWith = (timestamp: (text: string) => unknown): pg.CustomTypesConfig => ({
  getTypeParser: ((oid: number, format?: string) =>
    oid === TIMESTAMP ? timestamp : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
});
const TYPES = { date: typesWith(utcDate), iso: typesWith(isoTimestamp) };

/** A row type with its timestamps as the ISO strings `{ timestamps: 'iso' }` gives. */
export type IsoTimestamps<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

/**
 * A Date parameter as UTC ISO 8601: PostgreSQL keeps its wall time for a `timestamp` column
 * (which holds UTC) and honours the `Z` where the context is `timestamptz`. node-postgres
 * would send local time.
 */
const param = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

/** The rows of one statement, outside any transaction (one statement is atomic by itself). */
export async function sqlRows<T>(query: Prisma.Sql, opts: { timestamps?: 'date' | 'iso' } = {}): Promise<T[]> {
  const result = await getPool().query({ text: query.text, values: query.values.map(param), types: TYPES[opts.timestamps ?? 'date'] });
  return result.rows as T[];
}
