// A local HTTPS origin serving media for the mediaUrls tests, with a freshly generated
// self-signed certificate (the test's outbound client trusts it explicitly).
import https from 'node:https';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSelfSignedCert } from '@/server/testing/self-signed-cert';

export type OriginRoute =
  | { status?: number; headers?: Record<string, string>; body: Buffer | string }
  /** Streams `bytes` bytes (first `prefix`, then filler) without a Content-Length. */
  | { status?: number; headers?: Record<string, string>; stream: { prefix: Buffer; bytes: number } }
  | { hang: true };

export interface MediaOrigin {
  port: number;
  cert: string;
  /** Requests seen per path. */
  hits(pathname: string): number;
  close(): Promise<void>;
}

function streamBody(res: ServerResponse, prefix: Buffer, bytes: number) {
  const filler = Buffer.alloc(64 * 1024, 0);
  let sent = 0;
  const write = () => {
    while (sent < bytes) {
      const chunk = sent === 0 ? prefix : filler.subarray(0, Math.min(filler.length, bytes - sent));
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', write);
    }
    res.end();
  };
  write();
}

export async function startMediaOrigin(routes: Record<string, OriginRoute>): Promise<MediaOrigin> {
  const tls = createSelfSignedCert('media.test', ['DNS:media.test', 'DNS:private.test', 'IP:127.0.0.1']);
  const cert = tls.cert;
  const hits = new Map<string, number>();
  const server = https.createServer({ key: tls.key, cert }, (req, res) => {
    const pathname = new URL(req.url ?? '/', 'https://media.test').pathname;
    hits.set(pathname, (hits.get(pathname) ?? 0) + 1);
    const route = routes[pathname];
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/html' });
      return res.end('<!doctype html><title>Not found</title>');
    }
    if ('hang' in route) return;
    res.writeHead(route.status ?? 200, route.headers ?? {});
    if ('body' in route) return res.end(route.body);
    streamBody(res, route.stream.prefix, route.stream.bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cert,
    hits: (p) => hits.get(p) ?? 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      tls.remove();
    },
  };
}
