// Is this error "the database cannot be reached right now"? Such failures say nothing about
// the request: the client should retry later (503 SERVICE_UNAVAILABLE with Retry-After,
// server/errors/http.ts), and code that must clean up after itself retries its cleanup.
//
// What reaches us, with Prisma 7 and @prisma/adapter-pg (checked against a cut connection,
// a refused one and an administrator shutdown):
// - PrismaClientKnownRequestError P1001 / P1017 (or P2010 for raw queries) whose
//   meta.driverAdapterError.cause.kind is DatabaseNotReachable, ConnectionClosed or
//   SocketTimeout (the adapter's names for ECONNREFUSED/ENOTFOUND, ECONNRESET, ETIMEDOUT), or
//   kind "postgres" with the server's SQLSTATE (57P01 admin shutdown, 08006 …);
// - errors node-postgres raises as plain Errors, which the adapter passes through untouched:
//   "Connection terminated unexpectedly", "Connection terminated due to connection timeout",
//   the pool's "timeout exceeded when trying to connect", "… is not queryable";
// - raw pg and socket errors from the rate limiter's own pool (code ECONNREFUSED, 57P01 …).

/** SQLSTATEs that mean the connection, not the statement, failed. */
function isConnectionSqlState(code: string): boolean {
  return (
    code.startsWith('08') || // connection_exception and its subclasses
    code === '57P01' || // admin_shutdown: the server is stopping
    code === '57P02' || // crash_shutdown
    code === '57P03' || // cannot_connect_now: starting up or in recovery
    code === '53300' // too_many_connections: no slot for a new connection right now
  );
}

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
]);
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** P1001 can't reach, P1002 timed out reaching, P1017 server closed the connection, P2024 pool timeout. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1017', 'P2024']);
const PG_MESSAGES = [/^Connection terminated\b/, /^timeout exceeded when trying to connect$/, /is not queryable$/, /^Connection refused\b/];

function matches(e: Record<string, unknown>): boolean {
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (code && (SOCKET_CODES.has(code) || PRISMA_CODES.has(code))) return true;
  // node-postgres DatabaseError (and the adapter's "postgres" kind) carry severity with the SQLSTATE.
  if (code && /^[0-9A-Z]{5}$/.test(code) && (typeof e.severity === 'string' || e.kind === 'postgres') && isConnectionSqlState(code)) return true;
  if (typeof e.originalCode === 'string' && isConnectionSqlState(e.originalCode)) return true;
  if (typeof e.kind === 'string' && ADAPTER_KINDS.has(e.kind)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return e instanceof Error && PG_MESSAGES.some((re) => re.test(message));
}

export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length && seen.size < 50) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const rec = e as Record<string, unknown>;
    if (matches(rec)) return true;
    queue.push(rec.cause, (rec.meta as Record<string, unknown> | undefined)?.driverAdapterError);
    if (Array.isArray(rec.errors)) queue.push(...rec.errors); // AggregateError (one per address tried)
  }
  return false;
}
