// A webhook receiver for tests and the benchmark: real HTTPS on 127.0.0.1 with a fresh
// self-signed certificate, recording every request's headers and raw body bytes. Each path
// answers 200 unless told otherwise (a status, a redirect, or never).
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createSelfSignedCert } from '@/server/testing/self-signed-cert';

export interface ReceivedRequest {
  path: string;
  method: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Exactly the bytes received. */
  body: Buffer;
  receivedAt: number;
}

export type Reply = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

export interface WebhookReceiver {
  port: number;
  /** https://127.0.0.1:<port><path> */
  url(path: string): string;
  cert: string;
  certPath: string;
  /** How `path` answers from now on (default 200). */
  reply(path: string, reply: Reply): void;
  requests(path?: string): ReceivedRequest[];
  /** TCP connections accepted so far: proves a refused send never reached the socket. */
  connections(): number;
  /** Resolves once `count` requests reached `path` (or any path), or rejects after `timeoutMs`. */
  waitFor(count: number, path?: string, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Called for every request once its body is in (the benchmark counts with it). */
  onRequest?: (request: ReceivedRequest) => void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(options: { record?: boolean } = {}): Promise<WebhookReceiver> {
  const record = options.record ?? true;
  const tls = createSelfSignedCert('herald-webhook-receiver', ['IP:127.0.0.1', 'DNS:hooks.test', 'DNS:rebind.test', 'DNS:localhost']);
  const replies = new Map<string, Reply>();
  const received: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  let connections = 0;

  const server = https.createServer({ key: tls.key, cert: tls.cert, keepAliveTimeout: 10_000 }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://127.0.0.1').pathname;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: ReceivedRequest = {
        path,
        method: req.method ?? '',
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')])),
        body: Buffer.concat(chunks),
        receivedAt: Date.now(),
      };
      if (record) received.push(request);
      receiver.onRequest?.(request);
      for (const wake of [...waiters]) wake();
      const reply = replies.get(path) ?? { status: 200, body: 'ok' };
      if (reply === 'hang') return;
      res.writeHead(reply.status, { 'content-type': 'text/plain', ...(reply.headers ?? {}) });
      res.end(reply.body ?? '');
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const matching = (path?: string) => (path ? received.filter((r) => r.path === path) : [...received]);

  const receiver: WebhookReceiver = {
    port,
    url: (path) => `https://127.0.0.1:${port}${path}`,
    cert: tls.cert,
    certPath: tls.certPath,
    reply: (path, reply) => void replies.set(path, reply),
    requests: matching,
    connections: () => connections,
    waitFor(count, path, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = matching(path);
          if (found.length < count) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} request(s) to ${path ?? 'the receiver'}, got ${matching(path).length}`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      tls.remove();
    },
  };
  return receiver;
}
