// The herald command line as people run it: the built program (dist/herald.js) started as a
// subprocess against a real Herald (the REST handler and the local media store on a real HTTP
// server, this file's PostgreSQL database), with its own config folder per test.
import { execFileSync, spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { drainOutbox } from '@/server/events/drain-outbox';
import { handleMediaRoutes } from '@/server/media/http';
import { LocalDiskStorage, setMediaStorageForTests } from '@/server/media/storage';
import { makePng } from '@/server/media/testing/sample-images';
import { outboxConsumers } from '@/server/runtime/job-handlers';
import { startTestServer, type TestServer } from '@/server/testing/api-server';
import { createSandboxConnection, createWorkspaceWithKey } from '@/server/testing/fixtures';
import { checkDocumentedOutcomes } from '@/server/testing/public-api';
import { useWebhookHarness } from '@/server/webhooks/testing/webhook-harness';
import { createHerald, verifyWebhook, type Herald } from '../../sdk/src/index';

const here = path.resolve(import.meta.dirname, '..');
const outcomes = checkDocumentedOutcomes();
const hooks = useWebhookHarness();
let server: TestServer;
let dir: string;
let bin: string;

beforeAll(async () => {
  vi.stubEnv('SANDBOX_LATENCY_MS', '5');
  dir = mkdtempSync(path.join(os.tmpdir(), 'herald-cli-'));
  execFileSync(process.execPath, [path.join(here, 'scripts/build.mjs'), path.join(dir, 'dist')], { stdio: 'pipe' });
  bin = path.join(dir, 'dist/herald.js');
  server = await startTestServer({ '/public/v1': outcomes.handle, '/media': handleMediaRoutes });
  setMediaStorageForTests(new LocalDiskStorage({ root: path.join(dir, 'blobs'), baseUrl: server.url, secret: 'cli-test-secret' }));
}, 120_000);
afterAll(async () => {
  setMediaStorageForTests(undefined);
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

let apiKey: string;
let workspaceId: string;
let connectionId: string;
let configHome: string;
let herald: Herald;
beforeEach(async () => {
  const ws = await createWorkspaceWithKey();
  apiKey = ws.secret;
  workspaceId = ws.workspace.id;
  connectionId = (await createSandboxConnection(workspaceId, { platform: 'linkedin' })).id;
  configHome = mkdtempSync(path.join(dir, 'config-'));
  herald = createHerald({ apiKey, baseUrl: server.url });
});

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a run: its own config folder, and (unless `loggedIn` is false) the key in HERALD_API_KEY. */
function envFor(opts: { loggedIn?: boolean } = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: configHome, HERALD_BASE_URL: server.url };
  delete env.HERALD_API_KEY;
  delete env.HERALD_WORKSPACE;
  if (opts.loggedIn !== false) env.HERALD_API_KEY = apiKey;
  return env;
}

/** Runs `herald …` to its end (asynchronously: the server answers from this process). */
function herald$(args: string[], opts: { loggedIn?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: opts.env ?? envFor(opts), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdin.end();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const json = (ran: Ran) => {
  expect(ran.code, ran.stderr).toBe(0);
  return JSON.parse(ran.stdout);
};
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

describe('login and logout', () => {
  it('checks the key, stores it 0600 in a 0700 folder, and later commands use it', async () => {
    const ran = await herald$(['login', '--key', apiKey, '--base-url', server.url, '--json'], { loggedIn: false });
    const out = json(ran);
    const file = path.join(configHome, 'herald', 'config.json');
    expect(out).toMatchObject({ baseUrl: server.url, configPath: file, workspaceId });
    expect(out.key).not.toContain(apiKey.slice(12, -4));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ apiKey, baseUrl: server.url });

    // No HERALD_API_KEY and no HERALD_BASE_URL: the file alone.
    const env = envFor({ loggedIn: false });
    delete env.HERALD_BASE_URL;
    expect(json(await herald$(['posts', 'list', '--json'], { env }))).toEqual([]);
    // The environment wins over the file.
    const wrong = await herald$(['posts', 'list'], { env: { ...env, HERALD_API_KEY: 'sk_live_not_a_key' } });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain('UNAUTHORIZED');

    const logout = await herald$(['logout'], { env });
    expect(logout.code).toBe(0);
    expect(existsSync(file)).toBe(false);
    const after = await herald$(['posts', 'list', '--json'], { env });
    expect(after.code).toBe(3);
    expect(JSON.parse(after.stderr)).toMatchObject({ error: { code: 'NOT_LOGGED_IN' }, exitCode: 3 });
  });

  it('refuses a bad key with exit 3 and stores nothing', async () => {
    const ran = await herald$(['login', '--key', 'sk_live_0000', '--base-url', server.url], { loggedIn: false });
    expect(ran.code).toBe(3);
    expect(ran.stderr).toMatch(/UNAUTHORIZED/);
    expect(existsSync(path.join(configHome, 'herald', 'config.json'))).toBe(false);
  });
});

describe('posts', () => {
  it('creates, lists, gets, publishes and cancels on a sandbox account', async () => {
    const created = json(
      await herald$(['posts', 'create', '--text', 'Autumn menu', '--account', connectionId, '--at', inHours(24), '--first-comment', 'More soon', '--json']),
    );
    expect(created.data).toMatchObject({ content: 'Autumn menu', status: 'scheduled', firstComment: 'More soon' });
    const id = created.data.id as string;

    const listed = json(await herald$(['posts', 'list', '--status', 'scheduled', '--json']));
    expect(listed.map((p: { id: string }) => p.id)).toEqual([id]);
    const table = await herald$(['posts', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+SCHEDULED\s+CONTENT$/);
    expect(table.stdout).toContain(id);

    expect(json(await herald$(['posts', 'get', id, '--json'])).targets).toHaveLength(1);
    const shown = await herald$(['posts', 'get', id]);
    expect(shown.stdout).toMatch(/status\s+scheduled/);

    const published = json(await herald$(['posts', 'publish', id, '--json']));
    expect(['publishing', 'published']).toContain(published.data.status);

    const draft = json(await herald$(['posts', 'create', '--text', 'Later', '--account', connectionId, '--json'])).data;
    expect(draft.status).toBe('draft');
    const cancelled = await herald$(['posts', 'cancel', draft.id]);
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toContain(`Cancelled ${draft.id}`);
    expect((await herald.posts.get(draft.id)).data.status).toBe('cancelled');
  });

  it('pages through everything with --all, and takes an account by its handle and thread parts', async () => {
    const twitter = await createSandboxConnection(workspaceId, { platform: 'twitter' });
    const thread = json(
      await herald$([
        'posts',
        'create',
        '--text',
        'Part one',
        '--part',
        'Part two',
        '--part',
        'Part three',
        '--account',
        `twitter:@${twitter.accountName}`,
        '--json',
      ]),
    );
    expect(thread.data.parts.map((p: { content: string }) => p.content)).toEqual(['Part two', 'Part three']);
    for (const n of [1, 2]) await herald.posts.create({ content: `Post ${n}`, connectionIds: [connectionId] });
    expect(json(await herald$(['posts', 'list', '--limit', '1', '--json']))).toHaveLength(1);
    expect(json(await herald$(['posts', 'list', '--limit', '1', '--all', '--json']))).toHaveLength(3);
    expect((await herald$(['posts', 'create', '--text', 'x', '--account', 'nobody'])).stderr).toContain('No account nobody');
  });

  it('exits 2 with the error code when Herald refuses, as text or as JSON', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const ran = await herald$(['posts', 'get', missing]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/^herald: POST_NOT_FOUND: /);
    const asJson = await herald$(['posts', 'create', '--text', 'x', '--account', missing, '--json']);
    expect(asJson.code).toBe(2);
    expect(asJson.stdout).toBe('');
    expect(JSON.parse(asJson.stderr)).toMatchObject({ error: { status: expect.any(Number), code: expect.any(String) }, exitCode: 2 });
  });

  it('exits 1 on usage errors, and answers --help per command', async () => {
    expect((await herald$(['posts', 'create', '--account', connectionId])).code).toBe(1);
    expect((await herald$(['posts', 'create', '--text', 'x', '--account', connectionId, '--bogus'])).code).toBe(1);
    expect((await herald$(['posts', 'get', 'a', '--yes'])).code).toBe(1);
    expect((await herald$(['nonsense'])).code).toBe(1);
    const help = await herald$(['posts', 'create', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: herald posts create');
    expect(help.stdout).toContain('--first-comment');
    expect((await herald$(['--help'])).stdout).toContain('webhooks listen');
  });
});

describe('media upload', () => {
  it('uploads a PNG and prints the asset id, which a post takes', async () => {
    const file = path.join(dir, 'logo.png');
    writeFileSync(file, makePng(64, 48));
    const ran = await herald$(['media', 'upload', file]);
    expect(ran.code, ran.stderr).toBe(0);
    const id = ran.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    // No terminal: no progress bar.
    expect(ran.stderr).toBe('');
    const asset = await db.mediaAsset.findUniqueOrThrow({ where: { id } });
    expect(asset).toMatchObject({ workspaceId, status: 'ready' });
    const post = json(await herald$(['posts', 'create', '--text', 'New logo', '--account', connectionId, '--media', id, '--json']));
    expect(post.data.status).toBe('draft');
  });
});

describe('import', () => {
  it('previews, refuses without confirmation when there is no terminal, then imports with --yes', async () => {
    const file = path.join(dir, `posts-${workspaceId}.csv`);
    writeFileSync(file, `content,accounts,scheduledAt\nFirst imported post,${connectionId},${inHours(48)}\n"Second, with a comma",${connectionId},\n`);

    const asked = await herald$(['import', file]);
    expect(asked.code).toBe(4);
    expect(asked.stdout).toMatch(/2 rows: 2 ready, 0 refused, 0 already imported/);
    expect(asked.stderr).toContain('--yes');
    expect(await db.post.count({ where: { workspaceId } })).toBe(0);

    const done = json(await herald$(['import', file, '--yes', '--json']));
    expect(done.preview.totals).toMatchObject({ rows: 2, ready: 2 });
    expect(done.result).toMatchObject({ created: 2, alreadyImported: 0 });
    expect(await db.post.count({ where: { workspaceId } })).toBe(2);

    const again = await herald$(['import', file, '--yes']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Nothing to import.');

    const bad = path.join(dir, `bad-${workspaceId}.csv`);
    writeFileSync(bad, `content,accounts\nNo such account,nobody-here\n`);
    const refused = await herald$(['import', bad, '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toMatch(/row 1 .*accounts/);
    expect(refused.stderr).toContain('IMPORT_INVALID');
  });
});

describe('webhooks listen', () => {
  it('forwards a post.published event to a local receiver, signed with the secret it printed, and stops on Ctrl-C', async () => {
    await herald.webhooks.create({ name: 'staging', url: hooks.receiver.url('/staging'), events: ['post.published'] });
    const received: { body: Buffer; headers: IncomingHttpHeaders }[] = [];
    const local = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      received.push({ body: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    const forwardTo = `http://127.0.0.1:${(local.address() as AddressInfo).port}/hooks`;

    const child = spawn(process.execPath, [bin, 'webhooks', 'listen', '--forward-to', forwardTo, '--interval', '200', '--json'], { env: envFor() });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const lines: Record<string, unknown>[] = [];
    const waiters: (() => void)[] = [];
    createInterface({ input: child.stdout }).on('line', (text) => {
      lines.push(JSON.parse(text));
      waiters.splice(0).forEach((w) => w());
    });
    const lineOf = (type: string, ms = 15_000) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${type} line in ${ms} ms; stderr: ${stderr}`)), ms);
        const check = () => {
          const found = lines.find((l) => l.type === type);
          if (found) return (clearTimeout(timer), resolve(found));
          waiters.push(check);
        };
        check();
      });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));

    try {
      const ready = await lineOf('ready');
      const secret = ready.secret as string;
      expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);

      const post = (await herald.posts.create({ content: 'Live now', connectionIds: [connectionId] })).data;
      await herald.posts.publish(post.id);
      await drainOutbox({ consumers: outboxConsumers });

      const forwarded = await lineOf('forwarded');
      expect(forwarded).toMatchObject({ event: 'post.published', status: 204, error: null });
      expect(received).toHaveLength(1);
      const event = await verifyWebhook(received[0]!.body, received[0]!.headers, secret);
      expect(event).toMatchObject({ event: 'post.published', data: { postId: post.id, connectionId } });
      expect(received[0]!.headers['x-service-delivery']).toBe(forwarded.deliveryId);

      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(lines.at(-1)).toEqual({ type: 'stopped', forwarded: 1 });
    } finally {
      child.kill('SIGKILL');
      await new Promise<void>((resolve) => local.close(() => resolve()));
    }
  });

  it('says what it needs when the workspace has no webhook endpoint', async () => {
    const ran = await herald$(['webhooks', 'listen', '--forward-to', 'http://127.0.0.1:1/hooks']);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('NO_WEBHOOK_ENDPOINT');
  });
});
