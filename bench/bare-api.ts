// The bare-metal baseline for bench/api-vs-raw.ts: node:http + pg, no framework, doing the
// same database work Herald does for GET /public/v1/posts?limit=50, GET /public/v1/posts/{id}
// and POST /public/v1/posts (statement for statement, as traced from Herald's pool), and
// answering the same JSON. What it leaves out is exactly the layers being measured:
// Next.js, the REST facade, tRPC, zod, Prisma and the error catalogue.
//   DATABASE_URL=… PORT=… npx tsx bench/bare-api.ts
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { mcpUrl, setupSnippets } from '@/server/mcp/setup';

// The same numeric/timestamp handling Herald's driver adapter applies (JSON-compatible).
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const LIMIT_POINTS = 1_000_000;

type Row = Record<string, any>;

// Herald reads a key once per instance and then from memory (server/auth/key-cache.ts), and
// leases rate-limit points in batches of up to 50 (server/ratelimit/limiter.ts), and reads a
// post or a page of posts with their targets in one query: the bare server does the same
// database work. BARE_BEFORE=1 does the database work Herald did before those changes (key
// and counter on every request, targets in a query of their own) — docs/performance.md.
const PER_REQUEST = process.env.BARE_BEFORE === '1';

// The same statement as server/posts/read-posts.ts: targets as a JSON column.
const ts = (c: string) => `to_char(t."${c}", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const targetsJson = (from: string) => `COALESCE((SELECT json_agg(json_build_object('id', t."id", 'postId', t."postId", 'connectionId', t."connectionId",
  'platform', t."platform", 'status', t."status", 'postedId', t."postedId", 'permalink', t."permalink", 'error', t."error",
  'attempts', t."attempts", 'attemptStartedAt', ${ts('attemptStartedAt')}, 'publishedAt', ${ts('publishedAt')},
  'createdAt', ${ts('createdAt')}, 'updatedAt', ${ts('updatedAt')}) ORDER BY t."createdAt", t."id")
  FROM ${from}), '[]'::json) AS "targets"`;
const TARGETS_JSON = targetsJson(`"PostTarget" t WHERE t."postId" = p."id"`);
// Targets from the JSON column keep SQL's ISO strings, as Herald's post-rows.ts does (BARE_BEFORE: Dates).
const fromJson = (t: Row) => (PER_REQUEST ? { ...t, publishedAt: t.publishedAt && new Date(t.publishedAt), updatedAt: new Date(t.updatedAt) } : t);
const keys = new Map<string, Row>();
const leases = new Map<string, { left: number; windowEnd: number }>();

async function authenticate(req: http.IncomingMessage): Promise<{ workspaceId: string } | null> {
  const m = /^Bearer\s+(sk_live_[A-Za-z0-9_-]{43})$/.exec(req.headers.authorization ?? '');
  if (!m) return null;
  const secret = m[1]!;
  let key = PER_REQUEST ? undefined : keys.get(secret.slice(0, 20));
  if (!key) {
    const { rows } = await pool.query(
      'SELECT "id", "workspaceId", "hash", "scopes", "expiresAt", "revokedAt", "lastUsedAt" FROM "ApiKey" WHERE "prefix" = $1 LIMIT 1',
      [secret.slice(0, 20)],
    );
    key = rows[0];
    if (key) keys.set(secret.slice(0, 20), key);
  }
  if (!key) return null;
  const a = createHash('sha256').update(secret).digest();
  const b = Buffer.from(key.hash, 'hex');
  if (a.length !== b.length || !timingSafeEqual(a, b) || key.revokedAt) return null;
  return { workspaceId: key.workspaceId };
}

// The same upsert rate-limiter-flexible's Postgres limiter runs.
async function consume(workspaceId: string): Promise<number> {
  const now = Date.now();
  const lease = leases.get(workspaceId);
  if (!PER_REQUEST && lease && lease.left > 0 && lease.windowEnd > now) {
    lease.left--;
    return LIMIT_POINTS - 1;
  }
  const asked = PER_REQUEST ? 1 : 50;
  const { rows } = await pool.query(
    `INSERT INTO "rate_limits" VALUES ($1, $2, $3) ON CONFLICT(key) DO UPDATE SET points = CASE WHEN ("rate_limits".expire <= $4 OR 1=0) THEN $2 ELSE "rate_limits".points + ($2) END, expire = CASE WHEN "rate_limits".expire <= $4 THEN $3 ELSE "rate_limits".expire END RETURNING points, expire`,
    [`ws:${workspaceId}`, asked, now + 60_000, now],
  );
  leases.set(workspaceId, { left: asked - 1, windowEnd: Number(rows[0].expire) });
  return LIMIT_POINTS - Number(rows[0].points);
}

const iso = (d: Date | string | null) => (d === null ? null : typeof d === 'string' ? d : d.toISOString());
function target(t: Row) {
  return {
    id: t.id,
    connectionId: t.connectionId,
    platform: t.platform,
    status: t.status,
    postedId: t.postedId,
    permalink: t.permalink,
    error: t.error,
    attempts: t.attempts,
    publishedAt: iso(t.publishedAt),
    updatedAt: iso(t.updatedAt),
  };
}
function post(p: Row, targets: Row[], withTargets: boolean) {
  const shipped = targets.filter((t) => t.status === 'published' && t.postedId);
  const failed = targets.filter((t) => t.status === 'failed');
  const row: Row = {
    id: p.id,
    content: p.content,
    variants: p.variants ?? null,
    mediaUrls: p.mediaUrls,
    platforms: p.platforms,
    connectionIds: p.connectionIds,
    status: p.status,
    approvalStatus: p.approvalStatus,
    scheduledAt: iso(p.scheduledAt),
    publishedAt: iso(p.publishedAt),
    platformSettings: p.platformSettings ?? null,
    platformPostIds: shipped.length ? Object.fromEntries(shipped.map((t) => [t.connectionId, t.postedId])) : null,
    error: failed.length ? failed.map((t) => `${t.platform}: ${t.error ?? 'failed'}`).join('; ') : null,
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
  };
  if (withTargets) row.targets = targets.map(target);
  return row;
}

async function listPosts(workspaceId: string, limit: number) {
  if (!PER_REQUEST) {
    const [count, page] = await Promise.all([
      pool.query('SELECT COALESCE(SUM("n"), 0)::int AS "n" FROM "PostCount" WHERE "workspaceId" = $1::uuid AND "platform" = $2', [workspaceId, '*']),
      pool.query(`SELECT p.*, ${TARGETS_JSON} FROM "Post" p WHERE "workspaceId" = $1::uuid ORDER BY p."createdAt" DESC, p."id" DESC LIMIT $2 OFFSET $3`, [
        workspaceId,
        limit,
        0,
      ]),
    ]);
    return { data: page.rows.map((p) => post(p, p.targets.map(fromJson), false)), page: 1, limit, total: Number(count.rows[0].n) };
  }
  const [count, page] = await Promise.all([
    pool.query('SELECT SUM("n") AS "n" FROM "PostCount" WHERE "workspaceId" = $1 AND "platform" = $2', [workspaceId, '*']),
    pool.query('SELECT * FROM "Post" WHERE "workspaceId" = $1::uuid ORDER BY "createdAt" DESC, "id" DESC LIMIT $2 OFFSET $3', [workspaceId, limit, 0]),
  ]);
  const ids = page.rows.map((r) => r.id);
  const targets = ids.length ? (await pool.query('SELECT * FROM "PostTarget" WHERE "postId" = ANY($1)', [ids])).rows : [];
  const byPost = new Map<string, Row[]>();
  for (const t of targets) byPost.set(t.postId, [...(byPost.get(t.postId) ?? []), t]);
  return { data: page.rows.map((p) => post(p, byPost.get(p.id) ?? [], false)), page: 1, limit, total: Number(count.rows[0].n ?? 0) };
}

async function getPost(workspaceId: string, id: string) {
  if (!PER_REQUEST) {
    const { rows } = await pool.query(`SELECT p.*, ${TARGETS_JSON} FROM "Post" p WHERE p."id" = $1::uuid AND p."workspaceId" = $2::uuid`, [id, workspaceId]);
    if (!rows[0]) return null;
    const order = new Map<string, number>(rows[0].connectionIds.map((c: string, i: number) => [c, i]));
    const targets = rows[0].targets.map(fromJson).sort((a: Row, b: Row) => order.get(a.connectionId)! - order.get(b.connectionId)!);
    return { data: post(rows[0], targets, true) };
  }
  const { rows } = await pool.query('SELECT * FROM "Post" WHERE "id" = $1 AND "workspaceId" = $2 LIMIT 1', [id, workspaceId]);
  if (!rows[0]) return null;
  const targets = (await pool.query('SELECT * FROM "PostTarget" WHERE "postId" = ANY($1)', [[id]])).rows;
  return { data: post(rows[0], targets, true) };
}

async function createPost(workspaceId: string, body: { content: string; connectionIds: string[] }) {
  const conns = (await pool.query('SELECT * FROM "Connection" WHERE "id" = ANY($1) AND "workspaceId" = $2', [body.connectionIds, workspaceId])).rows;
  if (conns.length !== body.connectionIds.length) return null;
  await pool.query('SELECT "id", "requireApproval" FROM "Workspace" WHERE "id" = $1 LIMIT 1', [workspaceId]);
  if (!PER_REQUEST) {
    // The same statement as server/posts/post-rows.ts: the post and its targets in one CTE.
    const id = randomUUID();
    const now = new Date();
    const platforms = [...new Set(conns.map((c) => c.platform))];
    const { rows } = await pool.query(
      `WITH p AS (
        INSERT INTO "Post" ("id","workspaceId","content","variants","media","mediaUrls","platforms","connectionIds","status","approvalStatus",
          "approvalRequestedBy","approvalRequestedAt","requireApproval","scheduledAt","platformSettings","createdAt","updatedAt")
        VALUES ($1::uuid,$2::uuid,$3,$4::jsonb,$5::jsonb,$6::text[],$7::text[],$8::text[],$9,$10,$11,$12,$13,$14,$15::jsonb,$16,$17) RETURNING *
      ), t AS (
        INSERT INTO "PostTarget" ("id","postId","connectionId","platform","createdAt","updatedAt")
        SELECT gen_random_uuid(), $1::uuid, c.id, c.platform, $16, $17 FROM unnest($18::uuid[], $19::text[]) AS c(id, platform) RETURNING *
      ) SELECT p.*, ${targetsJson('t')} FROM p`,
      [
        id,
        workspaceId,
        body.content,
        null,
        '[]',
        [],
        platforms,
        body.connectionIds,
        'draft',
        'none',
        null,
        null,
        false,
        null,
        null,
        now,
        now,
        conns.map((c) => c.id),
        conns.map((c) => c.platform),
      ],
    );
    const order = new Map(body.connectionIds.map((c, i) => [c, i]));
    const targets = rows[0].targets.map(fromJson).sort((a: Row, b: Row) => order.get(a.connectionId)! - order.get(b.connectionId)!);
    return { data: post(rows[0], targets, true), warnings: [] };
  }
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const id = randomUUID();
    const now = new Date();
    const platforms = [...new Set(conns.map((c) => c.platform))];
    await client.query(
      `INSERT INTO "Post" ("id","workspaceId","content","mediaUrls","media","platforms","connectionIds","status","approvalStatus","requireApproval","scheduledAt","scheduleVersion","createdAt","updatedAt")
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14) RETURNING "id"`,
      [id, workspaceId, body.content, [], '[]', platforms, body.connectionIds, 'draft', 'none', false, null, 0, now, now],
    );
    const values: unknown[] = [];
    const tuples = conns.map((c, i) => {
      values.push(randomUUID(), id, c.id, c.platform, 'pending', 0, now, now);
      return `(${Array.from({ length: 8 }, (_, k) => `$${i * 8 + k + 1}`).join(',')})`;
    });
    await client.query(
      `INSERT INTO "PostTarget" ("id","postId","connectionId","platform","status","attempts","createdAt","updatedAt") VALUES ${tuples.join(',')}`,
      values,
    );
    const p = (await client.query('SELECT * FROM "Post" WHERE "id" = $1 LIMIT 1', [id])).rows[0];
    const targets = (await client.query('SELECT * FROM "PostTarget" WHERE "postId" = ANY($1)', [[id]])).rows;
    await client.query('COMMIT');
    const order = new Map(body.connectionIds.map((c, i) => [c, i]));
    targets.sort((a, b) => order.get(a.connectionId)! - order.get(b.connectionId)!);
    return { data: post(p, targets, true), warnings: [] };
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}

const setupBody = () => {
  const url = mcpUrl();
  return { data: { url, transport: 'streamable-http', authentication: 'Authorization: Bearer sk_live_…', clients: setupSnippets(url) } };
};

function send(res: http.ServerResponse, status: number, body: unknown, remaining?: number) {
  const json = JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (remaining !== undefined) headers.RateLimit = `"workspace";r=${remaining};t=60`;
  res.writeHead(status, headers).end(json);
}

const server = http.createServer(async (req, res) => {
  try {
    // The framework floor (bench/api-vs-raw.ts route 4): a route with no key and no database,
    // the same bytes Herald answers (its snippets, built by the same function).
    if (req.method === 'GET' && req.url === '/public/v1/mcp/setup') return send(res, 200, setupBody());
    const principal = await authenticate(req);
    if (!principal) return send(res, 401, { error: 'unauthorized' });
    const remaining = await consume(principal.workspaceId);
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/public/v1/posts') {
      return send(res, 200, await listPosts(principal.workspaceId, Number(url.searchParams.get('limit') ?? 20)), remaining);
    }
    const one = /^\/public\/v1\/posts\/([0-9a-f-]{36})$/.exec(url.pathname);
    if (req.method === 'GET' && one) {
      const found = await getPost(principal.workspaceId, one[1]!);
      return found ? send(res, 200, found, remaining) : send(res, 404, { error: 'not found' });
    }
    if (req.method === 'POST' && url.pathname === '/public/v1/posts') {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const created = await createPost(principal.workspaceId, JSON.parse(Buffer.concat(chunks).toString('utf8')));
      return created ? send(res, 201, created, remaining) : send(res, 400, { error: 'bad connections' });
    }
    send(res, 404, { error: 'no route' });
  } catch (err) {
    send(res, 500, { error: String(err) });
  }
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const addr = server.address() as { port: number };
  console.log(`bare listening on ${addr.port}`);
});
