// The no-login client-link routes (hosted connect page, review page) have no workspace budget
// to spend, and their token is the only credential: each request spends one unit of the
// link's budget and one of the client address's, CLIENT_LINK_RATE_LIMIT_PER_MINUTE each per
// fixed 60 s window, counted in PostgreSQL like the workspace limiter (so every instance
// shares them). Guessing tokens is hopeless at 256 bits; the address budget makes even
// trying expensive, and the link budget stops one leaked link from being hammered from many
// addresses (docs/decisions.md → "Client links").
import { Pool } from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { env } from '@/server/config/env';
import { registerCloser } from '@/server/db/connections';
import { AppError } from '@/server/errors/app-error';
import { log } from '@/server/observability/log';

const WINDOW_SECONDS = 60;

interface State {
  url: string;
  points: number;
  pool: Pool;
  limiter: RateLimiterPostgres;
}

const globalForLimiter = globalThis as unknown as { heraldClientLinkLimiter?: State };

function getLimiter(): State {
  const url = env.databaseUrl()!;
  const points = env.clientLinkRateLimitPerMinute();
  const current = globalForLimiter.heraldClientLinkLimiter;
  if (current && current.url === url && current.points === points) return current;
  if (current) void current.pool.end().catch(() => {});
  const pool = new Pool({ connectionString: url, max: 2, connectionTimeoutMillis: env.databaseConnectTimeoutMs() });
  pool.on('error', (err) => log.warn('ratelimit', 'idle connection error', err));
  const limiter = new RateLimiterPostgres({
    storeClient: pool,
    storeType: 'pool',
    tableName: 'rate_limits',
    tableCreated: true,
    clearExpiredByTimeout: false,
    keyPrefix: 'client-link',
    points,
    duration: WINDOW_SECONDS,
    inMemoryBlockOnConsumed: points,
  });
  const state = { url, points, pool, limiter };
  globalForLimiter.heraldClientLinkLimiter = state;
  registerCloser(async () => {
    if (globalForLimiter.heraldClientLinkLimiter === state) globalForLimiter.heraldClientLinkLimiter = undefined;
    await pool.end();
  });
  return state;
}

/**
 * Spends one request of the link's budget (keyed by a hash prefix of the token, never the
 * token) and one of the address's; throws RATE_LIMITED (429, Retry-After) when either is spent.
 */
export async function consumeClientLinkRequest(args: { tokenKey: string; address: string }): Promise<void> {
  const { limiter, points } = getLimiter();
  try {
    await limiter.consume(`addr:${args.address}`, 1);
    await limiter.consume(`link:${args.tokenKey}`, 1);
  } catch (err) {
    if (err instanceof RateLimiterRes) {
      const retryAfter = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      throw new AppError('RATE_LIMITED', `Too many requests for this link (limit ${points} per minute); retry in ${retryAfter} s`, {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
    throw err;
  }
}
