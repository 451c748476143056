// Typed configuration: every environment variable Herald reads, with its default.
// Read lazily (functions, not constants) so tests and the start script can set
// variables before first use. README.md → "Configuration" documents the same list.

function int(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number.parseInt(raw, 10);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

function list(name: string): string[] {
  return (process.env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export const env = {
  /** Port `npm start` listens on. */
  port: () => int('PORT', 3000),
  /** Public base URL used in links we hand out (connect links, upload URLs). */
  baseUrl: () => (process.env.HERALD_BASE_URL ?? process.env.AUTH_URL ?? `http://localhost:${int('PORT', 3000)}`).replace(/\/$/, ''),
  /** Where embedded data lives (embedded PostgreSQL, local blobs). */
  dataDir: () => process.env.DATA_DIR ?? '.data',
  /** PostgreSQL URL; unset means the embedded server. */
  databaseUrl: () => process.env.DATABASE_URL,
  /**
   * Longest wait for a database connection, new or from a busy pool. Without it a request
   * waits as long as the operating system lets an unanswered connect hang; with it the
   * request answers 503 SERVICE_UNAVAILABLE and the client retries.
   */
  databaseConnectTimeoutMs: () => int('DATABASE_CONNECT_TIMEOUT_MS', 5000),
  /** Per-workspace request budget per minute, shared by REST and the tool endpoint. */
  rateLimitPerMinute: () => int('RATE_LIMIT_PER_MINUTE', 600),
  /** Hosts exempt from the outbound private-address rule (never from https). */
  outboundAllowHosts: () => list('OUTBOUND_ALLOW_HOSTS'),
  /** Inngest is selected when either key is present; otherwise the local runner. */
  inngestEnabled: () => Boolean(process.env.INNGEST_EVENT_KEY || process.env.INNGEST_SIGNING_KEY),
  /** How long an Idempotency-Key is remembered. */
  idempotencyTtlHours: () => int('IDEMPOTENCY_TTL_HOURS', 24),
};
