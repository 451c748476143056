// The webhook receiver of bench/inbox-webhooks.ts, in a process of its own so the bench can
// kill it mid-burst (SIGKILL) and start it again on the same port: POST /hooks/{network} on a
// plain node:http server, through the bridge Herald's server uses (node-bridge.ts) to the
// route file's handler. Herald's own server (http-server.mjs) needs a Next build; this is the
// same bridge and handler without it. Prints `listening PORT`.
//   DATABASE_URL=… META_APP_SECRET=… PORT=… npx tsx bench/webhook-ingest-server.ts
// PROFILE=1: the statements sent on the driver are timed (by their first words) and so is the
// handler; the parent asks for the totals over IPC ({ stats: true }) and they start again.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { errorToResponse } from '@/server/errors/http';
import { sendWebResponse, toWebRequest } from '@/server/http/node-bridge';
import { API_ROUTE_FILES } from '@/server/runtime/api-routes';

const PROFILE = process.env.PROFILE === '1';
type Totals = Record<string, { n: number; ms: number }>;
let totals: Totals = {};
const add = (key: string, ms: number) => {
  const t = (totals[key] ??= { n: 0, ms: 0 });
  t.n++;
  t.ms += ms;
};

if (PROFILE) {
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    const text = typeof config === 'string' ? config : ((config as { text?: string } | undefined)?.text ?? '');
    const key = text
      .replace(/\s+/g, ' ')
      .replace(/"public"\./g, '')
      .trim()
      .slice(0, 48);
    const started = performance.now();
    const done = () => add(`sql: ${key}`, performance.now() - started);
    // pg-pool's own query() passes a callback; everything else awaits the promise.
    const last = rest.length - 1;
    const callback = rest[last];
    if (typeof callback === 'function') {
      rest[last] = (...args: unknown[]) => {
        done();
        return (callback as (...a: unknown[]) => unknown)(...args);
      };
    }
    const result = (original as (...args: unknown[]) => unknown).call(this, config, ...rest);
    if (result instanceof Promise) void result.then(done, () => undefined);
    return result;
  } as typeof original;
}

const handler = API_ROUTE_FILES.networkWebhook.POST;
let origin = 'http://127.0.0.1';
const server = createServer(async (req, res) => {
  const started = performance.now();
  let response: Response;
  try {
    response = await handler(toWebRequest(req, origin));
  } catch (err) {
    // As the fast path answers a handler that threw: the bench counts it as an error.
    response = errorToResponse(err);
  }
  if (PROFILE) add('handler (request to answer)', performance.now() - started);
  await sendWebResponse(res, response).catch(() => res.destroy());
});
// Room for every socket the bench opens.
server.maxConnections = 4096;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  console.log(`listening ${port}`);
});
process.on('message', (message: { stats?: boolean }) => {
  if (!message.stats) return;
  process.send!({ stats: totals });
  totals = {};
});
// The bench died without telling us: its IPC channel closes, and so do we.
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
