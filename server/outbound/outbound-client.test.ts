import { execFile } from 'node:child_process';
import type { LookupAddress } from 'node:dns';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Resolver } from './checked-lookup';
import { OutboundFailedError, OutboundRefusedError } from './errors';
import { createOutboundClient, type OutboundClient } from './outbound-client';
import { startTestReceiver, type TestReceiver } from './testing/test-receiver';

// Simulated DNS: no test depends on the machine's resolver or network.
function fakeDns(answers: Record<string, string[]>): Resolver {
  return async (hostname) => {
    const found = answers[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

let receiver: TestReceiver;
const clients: OutboundClient[] = [];
const savedAllow = process.env.OUTBOUND_ALLOW_HOSTS;

function client(answers: Record<string, string[]> = {}, opts: { trust?: boolean } = {}): OutboundClient {
  const c = createOutboundClient({ resolve: fakeDns(answers), ca: opts.trust === false ? undefined : receiver.cert });
  clients.push(c);
  return c;
}

async function refusal(promise: Promise<unknown>): Promise<OutboundRefusedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundRefusedError);
  return error as OutboundRefusedError;
}

async function failure(promise: Promise<unknown>): Promise<OutboundFailedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundFailedError);
  return error as OutboundFailedError;
}

beforeAll(async () => {
  receiver = await startTestReceiver();
});
afterEach(async () => {
  if (savedAllow === undefined) delete process.env.OUTBOUND_ALLOW_HOSTS;
  else process.env.OUTBOUND_ALLOW_HOSTS = savedAllow;
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await receiver.close();
});

describe('refusals before any connection', () => {
  it.each([
    ['http://receiver.test/ok', 'not_https'],
    ['https://user:pw@receiver.test/ok', 'credentials_in_url'],
    ['https://localhost/ok', 'localhost'],
    ['https://127.0.0.1/ok', 'private_address'],
    ['https://[::ffff:127.0.0.1]/ok', 'private_address'],
    ['https://[::1]/ok', 'private_address'],
  ])('%s → %s', async (url, code) => {
    const before = receiver.connections();
    const error = await refusal(client({ 'receiver.test': ['127.0.0.1'] }).fetch(url.replace('/ok', `:${receiver.port}/ok`)));
    expect(error.code).toBe(code);
    expect(error.reason).toMatch(/\w/);
    expect(receiver.connections()).toBe(before);
  });
});

describe('refusals at connect time (the address the socket would use)', () => {
  it.each([
    [['127.0.0.1'], 'loopback'],
    [['10.0.0.5'], 'private'],
    [['::ffff:127.0.0.1'], 'IPv4-mapped loopback'],
    [['::1'], 'IPv6 loopback'],
    [['93.184.216.34', '127.0.0.1'], 'a public answer mixed with a private one'],
  ])('refuses a host name resolving to %j (%s)', async (addresses) => {
    const before = receiver.connections();
    const c = client({ 'receiver.test': addresses });
    const url = `https://receiver.test:${receiver.port}/ok`;
    // The DNS-free check passes: only the resolved address is wrong.
    const error = await refusal(c.fetch(url));
    expect(error.code).toBe('private_address');
    expect(error.reason).toContain('receiver.test resolves to');
    expect(receiver.connections()).toBe(before);
  });

  it('refuses on the streaming variant too', async () => {
    const error = await refusal(client({ 'receiver.test': ['127.0.0.1'] }).stream(`https://receiver.test:${receiver.port}/ok`));
    expect(error.code).toBe('private_address');
  });

  it('reports a public address as a network failure, not a refusal', async () => {
    // 192.0.2.x is reserved, so use an address outside every special range; offline it cannot connect.
    const error = await failure(client({ 'public.test': ['1.1.1.1'] }).fetch(`https://public.test:9/ok`, { timeoutMs: 500 }));
    expect(['network', 'timeout']).toContain(error.code);
  });
});

describe('the resolving registration check', () => {
  it('checks the URL, then every resolved address', async () => {
    const c = client({ 'receiver.test': ['127.0.0.1'], 'public.test': ['1.1.1.1'] });
    expect(await c.check('https://public.test/hook')).toMatchObject({ ok: true });
    expect(await c.check('https://receiver.test/hook')).toMatchObject({ ok: false, code: 'private_address' });
    expect(await c.check('https://missing.test/hook')).toMatchObject({ ok: false, code: 'unresolvable' });
    expect(await c.check('http://public.test/hook')).toMatchObject({ ok: false, code: 'not_https' });
  });
});

describe('allowed hosts (OUTBOUND_ALLOW_HOSTS)', () => {
  it('reaches a private receiver by name when the name is allowed', async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = 'receiver.test';
    const res = await client({ 'receiver.test': ['127.0.0.1'] }).fetch(`https://receiver.test:${receiver.port}/ok`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"hello":"world"}',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(res.body.toString())).toEqual({ method: 'POST', body: '{"hello":"world"}' });
  });

  it('reaches an allowed IP literal', async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = '127.0.0.1';
    const res = await client().fetch(`https://127.0.0.1:${receiver.port}/ok`);
    expect(res.status).toBe(200);
  });

  it('never exempts from https', async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = 'receiver.test';
    const error = await refusal(client({ 'receiver.test': ['127.0.0.1'] }).fetch(`http://receiver.test:${receiver.port}/ok`));
    expect(error.code).toBe('not_https');
  });

  it('still verifies TLS: an untrusted self-signed certificate fails', async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = 'receiver.test';
    const error = await failure(client({ 'receiver.test': ['127.0.0.1'] }, { trust: false }).fetch(`https://receiver.test:${receiver.port}/ok`));
    expect(error.code).toBe('network');
    // The handshake failed: no request left, so nothing needs asking about.
    expect(error.requestMayHaveArrived).toBe(false);
  });

  it('says a refused connection sent nothing', async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = 'receiver.test';
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const error = await failure(client({ 'receiver.test': ['127.0.0.1'] }).fetch(`https://receiver.test:${closed}/ok`, { timeoutMs: 2_000 }));
    expect(error.code).toBe('network');
    expect(error.requestMayHaveArrived).toBe(false);
  });

  it('trusts a receiver through NODE_EXTRA_CA_CERTS in a fresh process', async () => {
    const run = promisify(execFile);
    const moduleUrl = new URL('./outbound-client.ts', import.meta.url).href;
    const script = `
      const { guardedFetch } = await import(${JSON.stringify(moduleUrl)});
      const res = await guardedFetch('https://127.0.0.1:${receiver.port}/ok');
      process.stdout.write(String(res.status));
    `;
    const root = path.resolve(import.meta.dirname, '../..');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: receiver.certPath, OUTBOUND_ALLOW_HOSTS: '127.0.0.1' },
      timeout: 20_000,
    });
    expect(stdout).toBe('200');
  });
});

describe('limits', () => {
  const allowed = () => {
    process.env.OUTBOUND_ALLOW_HOSTS = 'receiver.test';
    return client({ 'receiver.test': ['127.0.0.1'] });
  };

  it('does not follow redirects: the 3xx comes back as-is', async () => {
    const before = receiver.hits('/target');
    const res = await allowed().fetch(`https://receiver.test:${receiver.port}/redirect`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/target');
    expect(receiver.hits('/target')).toBe(before);
  });

  it('times out', async () => {
    const started = Date.now();
    const error = await failure(allowed().fetch(`https://receiver.test:${receiver.port}/slow`, { timeoutMs: 300 }));
    expect(error.code).toBe('timeout');
    // The request reached the receiver, which was still working on it: it may have acted.
    expect(error.requestMayHaveArrived).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('caps a body without Content-Length', async () => {
    const error = await failure(allowed().fetch(`https://receiver.test:${receiver.port}/big`, { maxBytes: 100_000 }));
    expect(error.code).toBe('too_large');
  });

  it('refuses a declared Content-Length over the cap without reading it', async () => {
    const error = await failure(allowed().fetch(`https://receiver.test:${receiver.port}/big-declared`, { maxBytes: 1024 }));
    expect(error.code).toBe('too_large');
  });

  it('answers a HEAD whatever size it declares: there is no body to refuse', async () => {
    const res = await allowed().fetch(`https://receiver.test:${receiver.port}/big-declared`, { method: 'HEAD', maxBytes: 1024 });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(1024);
  });

  it('streams a body under the cap', async () => {
    const res = await allowed().stream(`https://receiver.test:${receiver.port}/big`, { maxBytes: 4 * 1024 * 1024 });
    let total = 0;
    for await (const chunk of res.body) total += (chunk as Buffer).length;
    expect(res.status).toBe(200);
    expect(total).toBe(2 * 1024 * 1024);
  });

  it('errors the stream once it passes the cap', async () => {
    const res = await allowed().stream(`https://receiver.test:${receiver.port}/big`, { maxBytes: 200_000 });
    let total = 0;
    const error = await (async () => {
      try {
        for await (const chunk of res.body) total += (chunk as Buffer).length;
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(OutboundFailedError);
    expect((error as OutboundFailedError).code).toBe('too_large');
    expect(total).toBeLessThanOrEqual(200_000);
  });
});
