// Everything a process needs before it touches the database: the generated Prisma client,
// a database URL (DATABASE_URL, or the embedded server started or joined here), and the
// migrations applied. Shared by `npm start`, `npm run seed` and `npm test`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { env } from '@/server/config/env';

const ROOT = path.resolve(import.meta.dirname, '../..');

export function ensurePrismaClient(): void {
  if (existsSync(path.join(ROOT, 'server/generated/prisma/client.ts'))) return;
  const res = spawnSync(process.execPath, [path.join(ROOT, 'prisma/scripts/generate.mjs')], { stdio: 'inherit', cwd: ROOT });
  if (res.status !== 0) throw new Error('prisma generate failed');
}

/** A secret Herald needs in `variable`: when unset, created once under DATA_DIR in `file` and read from there. */
function ensureGeneratedSecret(variable: 'AUTH_SECRET' | 'WEBHOOK_SECRET_KEY', file: string, current: string | undefined): void {
  if (current) return;
  const dir = path.resolve(ROOT, env.dataDir());
  const target = path.join(dir, file);
  if (!existsSync(target)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(target, randomBytes(32).toString('base64url'), { mode: 0o600 });
  }
  process.env[variable] = readFileSync(target, 'utf8').trim();
}

/**
 * AUTH_SECRET signs staff sessions and WEBHOOK_SECRET_KEY seals webhook signing secrets; on a
 * bare machine each is created once under DATA_DIR.
 */
export function ensureGeneratedSecrets(): void {
  ensureGeneratedSecret('AUTH_SECRET', 'auth-secret', env.authSecret());
  ensureGeneratedSecret('WEBHOOK_SECRET_KEY', 'webhook-secret-key', env.webhookSecretKey());
}

export async function prepareDatabase(opts: { migrate?: boolean } = {}): Promise<string> {
  ensurePrismaClient();
  const { resolveDatabaseUrl } = await import('@/server/db/url');
  const embedded = env.databaseUrl() === undefined;
  const url = await resolveDatabaseUrl();
  process.env.DATABASE_URL = url;
  // The embedded database means a local or demo install: its connect page offers sandbox
  // accounts unless CONNECT_SANDBOX says otherwise (env.connectSandbox reads DATABASE_URL,
  // which is set from here on).
  if (embedded) process.env.CONNECT_SANDBOX ||= 'on';
  if (opts.migrate !== false) {
    const { deployMigrations } = await import('@/prisma/scripts/migrate');
    await deployMigrations({ url });
  }
  return url;
}

const BUILD_INPUTS = ['app', 'server', 'inngest', 'public', 'next.config.mjs', 'package.json', 'instrumentation.ts'];

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) {
    if (entry === 'generated' || entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

/** True when there is no production build, or a source it is built from changed since. */
export function buildIsStale(): boolean {
  const id = path.join(ROOT, '.next/BUILD_ID');
  if (!existsSync(id)) return true;
  const built = statSync(id).mtimeMs;
  return BUILD_INPUTS.some((p) => newestMtime(path.join(ROOT, p)) > built);
}

export { ROOT };
