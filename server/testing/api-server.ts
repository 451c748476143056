// A real HTTP server around a Web-standard handler (the same functions the Next.js route
// files export), for integration tests that speak HTTP without a Next build: the same bridge
// between Node and Web requests as Herald's own server (server/http/node-bridge.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientError } from '@/server/http/client-error';
import { sendWebResponse, toWebRequest } from '@/server/http/node-bridge';
import { MAX_HTTP_HEADER_BYTES } from '@/server/shared/http-limits';

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

type Handler = (req: Request) => Promise<Response> | Response;

/** Routes by path prefix, longest first, like the app's route files. */
export async function startTestServer(routes: Record<string, Handler>, opts: { port?: number } = {}): Promise<TestServer> {
  const prefixes = Object.keys(routes).sort((a, b) => b.length - a.length);
  let base = 'http://127.0.0.1';
  // The same header limit as `npm start`, so tests see what production answers.
  const server: Server = createServer({ maxHeaderSize: MAX_HTTP_HEADER_BYTES }, async (req, res) => {
    try {
      const request = toWebRequest(req, base);
      const pathname = new URL(request.url).pathname;
      const prefix = prefixes.find((p) => pathname === p || pathname.startsWith(p.endsWith('/') ? p : `${p}/`));
      await sendWebResponse(res, prefix ? await routes[prefix]!(request) : new Response('not found', { status: 404 }));
    } catch (err) {
      res.statusCode = 500;
      res.end(String(err));
    }
  });
  // What Node's parser refuses is answered as Herald's server answers it.
  server.on('clientError', answerClientError);
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
