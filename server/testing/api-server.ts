// A real HTTP server around a Web-standard handler (the same functions the Next.js route
// files export), for integration tests that speak HTTP without a Next build.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { MAX_HTTP_HEADER_BYTES } from '@/server/shared/http-limits';

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

type Handler = (req: Request) => Promise<Response> | Response;

async function toRequest(req: IncomingMessage, base: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
    else if (v !== undefined) headers.set(k, v);
  }
  const body = chunks.length && req.method !== 'GET' && req.method !== 'HEAD' ? Buffer.concat(chunks) : undefined;
  return new Request(new URL(req.url ?? '/', base), { method: req.method, headers, body });
}

/** Routes by path prefix, longest first, like the app's route files. */
export async function startTestServer(routes: Record<string, Handler>, opts: { port?: number } = {}): Promise<TestServer> {
  const prefixes = Object.keys(routes).sort((a, b) => b.length - a.length);
  let base = 'http://127.0.0.1';
  // The same header limit as `npm start`, so tests see what production answers.
  const server: Server = createServer({ maxHeaderSize: MAX_HTTP_HEADER_BYTES }, async (req, res) => {
    try {
      const request = await toRequest(req, base);
      const pathname = new URL(request.url).pathname;
      const prefix = prefixes.find((p) => pathname === p || pathname.startsWith(p.endsWith('/') ? p : `${p}/`));
      const response = prefix ? await routes[prefix]!(request) : new Response('not found', { status: 404 });
      res.statusCode = response.status;
      response.headers.forEach((value, key) => res.setHeader(key, value));
      if (!response.body) return void res.end();
      // Streamed, not buffered: event streams (the tool endpoint's GET) send as they go, and
      // a client that hangs up cancels the stream.
      const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
      res.on('close', () => body.destroy());
      body.pipe(res);
    } catch (err) {
      res.statusCode = 500;
      res.end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
