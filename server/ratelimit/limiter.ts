// Per-workspace request budget, shared by REST, the tRPC endpoint's API-key calls and the
// tool endpoint, and enforced across processes: counters live in PostgreSQL (table
// rate_limits, created by our migrations) through rate-limiter-flexible's Postgres limiter,
// one atomic upsert per request. Policy: RATE_LIMIT_PER_MINUTE requests per fixed 60 s
// window per workspace (docs/decisions.md).
import { Pool } from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { env } from '@/server/config/env';
import { registerCloser } from '@/server/db/connections';
import { AppError } from '@/server/errors/app-error';

const WINDOW_SECONDS = 60;
const POLICY_NAME = 'workspace';

interface LimiterState {
  url: string;
  points: number;
  pool: Pool;
  limiter: RateLimiterPostgres;
}

const globalForLimiter = globalThis as unknown as { heraldLimiter?: LimiterState };

function getLimiter(): LimiterState {
  const url = env.databaseUrl()!;
  const points = env.rateLimitPerMinute();
  const current = globalForLimiter.heraldLimiter;
  if (current && current.url === url && current.points === points) return current;
  if (current) void current.pool.end().catch(() => {});
  // A small dedicated pool: the limiter's upsert must not queue behind long transactions.
  const pool = new Pool({ connectionString: url, max: 4, connectionTimeoutMillis: env.databaseConnectTimeoutMs() });
  // An idle connection dropped by the server must not crash the process; the pool reconnects.
  pool.on('error', (err) => console.warn('[ratelimit] idle connection error:', err.message));
  const limiter = new RateLimiterPostgres({
    storeClient: pool,
    storeType: 'pool',
    tableName: 'rate_limits',
    tableCreated: true,
    clearExpiredByTimeout: false,
    keyPrefix: 'ws',
    points,
    duration: WINDOW_SECONDS,
    // Once a workspace is over budget, refuse from memory until the window ends instead
    // of asking the database again for every rejected request.
    inMemoryBlockOnConsumed: points,
  });
  const state = { url, points, pool, limiter };
  globalForLimiter.heraldLimiter = state;
  registerCloser(async () => {
    if (globalForLimiter.heraldLimiter === state) globalForLimiter.heraldLimiter = undefined;
    await pool.end();
  });
  return state;
}

export interface RateLimitOutcome {
  headers: Record<string, string>;
}

function headersFor(points: number, res: RateLimiterRes): Record<string, string> {
  const reset = Math.max(0, Math.ceil(res.msBeforeNext / 1000));
  return {
    'RateLimit-Policy': `"${POLICY_NAME}";q=${points};w=${WINDOW_SECONDS}`,
    RateLimit: `"${POLICY_NAME}";r=${Math.max(0, res.remainingPoints)};t=${reset}`,
  };
}

/** Spends one request of the workspace's budget; throws RATE_LIMITED (429) when it is spent. */
export async function consumeRequest(workspaceId: string): Promise<RateLimitOutcome> {
  const { limiter, points } = getLimiter();
  try {
    const res = await limiter.consume(workspaceId, 1);
    return { headers: headersFor(points, res) };
  } catch (err) {
    if (err instanceof RateLimiterRes) {
      const retryAfter = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      throw new AppError('RATE_LIMITED', `Rate limit of ${points} requests per minute exceeded for this workspace; retry in ${retryAfter} s`, {
        headers: { ...headersFor(points, err), 'Retry-After': String(retryAfter) },
      });
    }
    throw err;
  }
}
