// Per-workspace request budget, shared by REST, the tRPC endpoint's API-key calls and the
// tool endpoint, and enforced across processes: the counter of each fixed 60 s window lives
// in PostgreSQL (table rate_limits, created by our migrations). Policy: RATE_LIMIT_PER_MINUTE
// requests per window per workspace (docs/decisions.md).
//
// Counting is local and settled in batches: an instance leases a few points of the window
// from the shared counter in one atomic upsert and spends them from memory, so a busy
// workspace costs one round trip per lease, not per request. How exact: the points leased
// across all instances never exceed the limit, so a workspace never gets more than its
// budget. A lease is at most min(50, a tenth of what remained), and a window's leftover is
// dropped when it ends, so with several busy instances a workspace can be refused slightly
// early (at most that leftover per other instance); with one instance, or small limits
// (under 20 a lease is one point), it is exact.
import { Pool } from 'pg';
import { env } from '@/server/config/env';
import { registerCloser } from '@/server/db/connections';
import { AppError } from '@/server/errors/app-error';

const WINDOW_MS = 60_000;
const POLICY_NAME = 'workspace';
const MAX_LEASE = 50;

interface Lease {
  /** When the shared window this lease belongs to ends (epoch ms). */
  windowEnd: number;
  /** Points leased and not yet spent by this instance. */
  left: number;
  /** The shared counter after this instance's last lease, capped at the limit. */
  settled: number;
  /** The window is spent: refuse from memory until it ends. */
  blocked: boolean;
  /** A lease request in flight; concurrent requests wait for it instead of asking again. */
  pending?: Promise<void>;
}

interface LimiterState {
  url: string;
  points: number;
  pool: Pool;
  leases: Map<string, Lease>;
}

const globalForLimiter = globalThis as unknown as { heraldLimiter?: LimiterState };

function getLimiter(): LimiterState {
  const url = env.databaseUrl()!;
  const points = env.rateLimitPerMinute();
  const current = globalForLimiter.heraldLimiter;
  if (current && current.url === url && current.points === points) return current;
  if (current) void current.pool.end().catch(() => {});
  // A small dedicated pool: the lease upsert must not queue behind long transactions.
  const pool = new Pool({ connectionString: url, max: 4, connectionTimeoutMillis: env.databaseConnectTimeoutMs() });
  // An idle connection dropped by the server must not crash the process; the pool reconnects.
  pool.on('error', (err) => console.warn('[ratelimit] idle connection error:', err.message));
  const state: LimiterState = { url, points, pool, leases: new Map() };
  globalForLimiter.heraldLimiter = state;
  registerCloser(async () => {
    if (globalForLimiter.heraldLimiter === state) globalForLimiter.heraldLimiter = undefined;
    await pool.end();
  });
  return state;
}

const leaseSize = (points: number, settled: number) => Math.max(1, Math.min(MAX_LEASE, Math.floor((points - settled) / 10)));

/**
 * Adds a lease to the shared counter (a new window starts at the first lease after the old
 * one ended). Concurrent upserts of one row are serialised by PostgreSQL, so each sees the
 * counter before its own addition (`total - asked`) and takes only what is left of the limit.
 */
async function lease(state: LimiterState, key: string, current: Lease | undefined): Promise<Lease> {
  const now = Date.now();
  const settled = current && current.windowEnd > now ? current.settled : 0;
  const asked = leaseSize(state.points, settled);
  const { rows } = await state.pool.query<{ points: number; expire: string }>(
    `INSERT INTO "rate_limits" ("key", "points", "expire") VALUES ($1, $2, $3)
     ON CONFLICT ("key") DO UPDATE SET
       "points" = CASE WHEN "rate_limits"."expire" <= $4 THEN $2 ELSE "rate_limits"."points" + $2 END,
       "expire" = CASE WHEN "rate_limits"."expire" <= $4 THEN $3 ELSE "rate_limits"."expire" END
     RETURNING "points", "expire"`,
    [`ws:${key}`, asked, now + WINDOW_MS, now],
  );
  const total = rows[0]!.points;
  const granted = Math.max(0, Math.min(asked, state.points - (total - asked)));
  return { windowEnd: Number(rows[0]!.expire), left: granted, settled: Math.min(total, state.points), blocked: granted === 0 };
}

export interface RateLimitOutcome {
  headers: Record<string, string>;
}

function headersFor(points: number, remaining: number, windowEnd: number): Record<string, string> {
  const reset = Math.max(0, Math.ceil((windowEnd - Date.now()) / 1000));
  return {
    'RateLimit-Policy': `"${POLICY_NAME}";q=${points};w=${WINDOW_MS / 1000}`,
    RateLimit: `"${POLICY_NAME}";r=${Math.max(0, remaining)};t=${reset}`,
  };
}

/** Spends one request of the workspace's budget; throws RATE_LIMITED (429) when it is spent. */
export async function consumeRequest(workspaceId: string): Promise<RateLimitOutcome> {
  const state = getLimiter();
  const { points, leases } = state;
  for (;;) {
    const current = leases.get(workspaceId);
    const live = current && current.windowEnd > Date.now() ? current : undefined;
    if (live?.blocked) {
      const retryAfter = Math.max(1, Math.ceil((live.windowEnd - Date.now()) / 1000));
      throw new AppError('RATE_LIMITED', `Rate limit of ${points} requests per minute exceeded for this workspace; retry in ${retryAfter} s`, {
        headers: { ...headersFor(points, 0, live.windowEnd), 'Retry-After': String(retryAfter) },
      });
    }
    if (live && live.left > 0) {
      live.left--;
      return { headers: headersFor(points, points - live.settled + live.left, live.windowEnd) };
    }
    if (current?.pending) {
      await current.pending;
      continue;
    }
    const holder: Lease = current ?? { windowEnd: 0, left: 0, settled: 0, blocked: false };
    holder.pending = lease(state, workspaceId, current).then(
      (next) => {
        leases.set(workspaceId, next);
      },
      (err: unknown) => {
        holder.pending = undefined;
        throw err;
      },
    );
    if (!current) leases.set(workspaceId, holder);
    try {
      await holder.pending;
    } catch (err) {
      if (leases.get(workspaceId) === holder && !current) leases.delete(workspaceId);
      throw err;
    }
  }
}
