// `npm run conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance)
// against Herald's tool endpoint, on the production build, for the server scenarios that apply
// to a server without the suite's own test tools (docs/mcp.md lists the others and why).
//
// The suite needs Node ≥ 22 (it calls fs.globSync): the registry's `node` package brings one
// into a scratch folder without touching the system's. Its server mode sends no
// Authorization header, so a local proxy adds the seeded key's; the proxy's origins are the
// deployment's allowed browser origins (MCP_ALLOWED_ORIGINS), as a reverse proxy's would be.
// Prints one line per scenario and exits non-zero when any failed.
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '@/server/runtime/prepare';
import { ensureBuild, startApp } from '../chaos/app-process';

/** The scenarios that apply to Herald; the rest need the suite's own test tools or prompts. */
export const SCENARIOS = [
  'server-initialize',
  'ping',
  'logging-set-level',
  'tools-list',
  'resources-list',
  'prompts-list',
  'server-sse-polling',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
] as const;
const SUITE = '@modelcontextprotocol/conformance@0.1.16';
const NODE = 'node@22.23.3';

function installSuite(dir: string): { node: string; cli: string } {
  const node = path.join(dir, 'node_modules/.bin/node');
  const cli = path.join(dir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  if (!existsSync(node) || !existsSync(cli)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), '{"private":true}');
    console.log(`conformance: installing ${SUITE} and ${NODE} into ${dir}`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', SUITE, NODE], { cwd: dir, stdio: 'inherit' });
  }
  return { node, cli };
}

/** Forwards to `target`, adding the key when the request has no Authorization of its own. */
function authorizingProxy(target: string, key: string, port: number): Promise<{ url: string; close(): void }> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, ...(req.headers.authorization ? {} : { authorization: `Bearer ${key}` }) };
    const forward = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve({ url: `http://localhost:${port}`, close: () => server.close() }));
  });
}

async function main(): Promise<number> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'herald-conformance-'));
  const suite = installSuite(path.join(os.tmpdir(), 'herald-conformance-suite'));
  ensureBuild();

  const { resolveServerUrl, withDatabase, ensureDatabaseExists, dropDatabase, stopEmbeddedIfOwned } = await import('@/server/db/url');
  const { deployMigrations } = await import('@/prisma/scripts/migrate');
  const databaseUrl = withDatabase(await resolveServerUrl(), `herald_conformance_${randomBytes(3).toString('hex')}`);
  await ensureDatabaseExists(databaseUrl);
  await deployMigrations({ url: databaseUrl });
  const seeded = execFileSync(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'prisma/seed.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
  });
  const { apiKey } = JSON.parse(seeded.trim().split('\n').at(-1)!) as { apiKey: string };

  // The proxy's port is known before the app starts: its origins are the allowed ones.
  const proxyPort = 3393;
  const proxyOrigins = ['localhost', '127.0.0.1', '[::1]'].map((h) => `http://${h}:${proxyPort}`).join(',');
  const app = await startApp({ port: 3392, databaseUrl, logFile: path.join(workDir, 'app.log'), env: { MCP_ALLOWED_ORIGINS: proxyOrigins } });
  const proxy = await authorizingProxy(app.baseUrl, apiKey, proxyPort);

  const failed: string[] = [];
  try {
    for (const scenario of SCENARIOS) {
      // Not spawnSync: the proxy answers the suite from this process's event loop.
      const run = await new Promise<{ status: number; output: string }>((resolve) => {
        execFile(
          suite.node,
          [suite.cli, 'server', '--url', `${proxy.url}/public/v1/mcp`, '--scenario', scenario],
          { cwd: workDir, timeout: 120_000 },
          (error, stdout, stderr) => resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
        );
      });
      const output = run.output;
      const result = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(output);
      const ok = run.status === 0 && result !== null && result[3] === '0';
      console.log(`${ok ? 'PASS' : 'FAIL'} ${scenario}${result ? ` (${result[1]}/${result[2]} checks)` : ''}`);
      if (!ok) {
        failed.push(scenario);
        console.log(output.replace(/\u001b\[[0-9;]*m/g, '').slice(-3000));
      }
    }
  } finally {
    proxy.close();
    await app.stop();
    await dropDatabase(databaseUrl).catch(() => {});
    await stopEmbeddedIfOwned();
  }
  console.log(
    failed.length ? `conformance: ${failed.length} of ${SCENARIOS.length} scenarios failed` : `conformance: all ${SCENARIOS.length} scenarios passed`,
  );
  return failed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
