// Herald's HTTP server: one node:http listener, one port, one process. API requests take the
// fast path (server/runtime/fast-path.ts: the route files' own handlers, without Next's
// request pipeline); everything else goes to Next's request handler. Plain JavaScript, so the
// container image runs it with node alone (Next's standalone output has no TypeScript loader).
//
// The fast path is not imported here: Next's instrumentation hook (instrumentation.ts) hands it
// over from Next's own build when the app is prepared, so it runs the compiled handlers, and
// the process-wide state every module keeps on globalThis (the database pool, the key and
// session caches, the metrics registry, the rate limiter) is the one Next's routes use too.
import { createServer } from 'node:http';
import next from 'next';

const FAST_PATH_KEY = Symbol.for('herald.fast-path');
const HERALD_SERVER_KEY = Symbol.for('herald.http-server');

/**
 * Starts the server and resolves once it listens.
 * @param {{ dir: string, port: number, hostname?: string, maxHeaderSize: number, log?: (msg: string) => void }} options
 * @returns {Promise<{ server: import('node:http').Server, close: () => Promise<void> }>}
 */
export async function startHeraldServer({ dir, port, hostname, maxHeaderSize, log = () => {} }) {
  globalThis[HERALD_SERVER_KEY] = true;
  const server = createServer({ maxHeaderSize });
  const app = next({ dev: false, dir, port, hostname, httpServer: server });
  await app.prepare();
  const handleNext = app.getRequestHandler();
  const where = { port, hostname };
  // Next runs the instrumentation hook as it warms up, just after prepare(): until the fast path
  // is registered (or if it never is), requests simply go through Next.
  /** @type {import('./fast-path').FastPath | undefined} */
  let fast;
  const fastPath = () => (fast ??= globalThis[FAST_PATH_KEY]);
  setTimeout(() => {
    if (!fastPath()) log('the API fast path has not registered (instrumentation hook): API requests go through Next');
  }, 30_000).unref();

  server.on('request', (req, res) => {
    if (fastPath()?.handle(req, res, where)) return;
    void handleNext(req, res);
  });
  server.on('clientError', (err, socket) => {
    const path = fastPath();
    if (path) path.clientError(err, socket);
    else socket.destroy();
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => resolve(undefined));
  });
  return {
    server,
    close: async () => {
      await new Promise((resolve) => server.close(() => resolve(undefined)));
      await app.close();
    },
  };
}
