// A local HTTPS receiver with a freshly generated self-signed certificate, for the outbound
// tests. Real sockets and real TLS: the client must trust the certificate explicitly.
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createSelfSignedCert } from '@/server/testing/self-signed-cert';

export interface TestReceiver {
  port: number;
  /** PEM of the self-signed certificate (it is its own CA). */
  cert: string;
  certPath: string;
  /** TCP connections accepted so far: proves a refused request never reached the socket. */
  connections(): number;
  /** Requests seen per path. */
  hits(pathname: string): number;
  close(): Promise<void>;
}

export async function startTestReceiver(): Promise<TestReceiver> {
  const tls = createSelfSignedCert('herald-test-receiver', ['DNS:receiver.test', 'DNS:localhost', 'IP:127.0.0.1', 'IP:::1']);
  const { cert, key, certPath } = tls;

  let connections = 0;
  const hits = new Map<string, number>();
  const server = https.createServer({ key, cert }, (req, res) => {
    const pathname = new URL(req.url ?? '/', 'https://receiver.test').pathname;
    hits.set(pathname, (hits.get(pathname) ?? 0) + 1);
    switch (pathname) {
      case '/ok': {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ method: req.method, body }));
        });
        return;
      }
      case '/redirect':
        res.writeHead(302, { location: '/target' });
        res.end();
        return;
      case '/target':
        res.end('target');
        return;
      case '/slow':
        return; // never answers
      case '/big': {
        // Chunked, no Content-Length: only counting the bytes can catch it.
        const chunk = Buffer.alloc(64 * 1024, 97);
        let sent = 0;
        const write = () => {
          while (sent < 2 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', write);
          }
          res.end();
        };
        write();
        return;
      }
      case '/big-declared':
        res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
        // A HEAD answer ends with its headers; a GET's body never arrives in full.
        if (req.method === 'HEAD') return void res.end();
        res.write('x');
        return;
      default:
        res.writeHead(404);
        res.end();
    }
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    port: (server.address() as AddressInfo).port,
    cert,
    certPath,
    connections: () => connections,
    hits: (p) => hits.get(p) ?? 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      tls.remove();
    },
  };
}
