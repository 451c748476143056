// The serving process: `node server/runtime/serve.mjs --port=3000 --max-header-size=16384`.
// `npm start` (start.ts) runs it as its child; the container image runs it as its command, from
// Next's standalone output (where the project's next.config.mjs is absent and the build's own
// copy, .next/required-server-files.json, is what the server loads, as Next's server.js does).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHeraldServer } from './http-server.mjs';

const started = Date.now();
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .map((a) => /^--([^=]+)=(.*)$/.exec(a))
    .filter(Boolean)
    .map((m) => [m[1], m[2]]),
);
const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const port = Number(args.port ?? process.env.PORT ?? 3000);
// Unset: every interface, as `next start` listens. (Not $HOSTNAME: shells and containers set it
// to the machine's name, which is not an address to listen on.)
const hostname = args.hostname ?? undefined;
const maxHeaderSize = Number(args['max-header-size'] ?? 16 * 1024);

const serverFiles = path.join(dir, '.next/required-server-files.json');
if (!existsSync(path.join(dir, 'next.config.mjs')) && existsSync(serverFiles)) {
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG ??= JSON.stringify(JSON.parse(readFileSync(serverFiles, 'utf8')).config);
}
process.env.NODE_ENV ??= 'production';

const { close } = await startHeraldServer({ dir, port, hostname, maxHeaderSize, log: (msg) => console.log(`[herald] ${msg}`) });
console.log(`[herald] listening on port ${port} (API fast path, Next.js for the rest), ready in ${Date.now() - started} ms`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void close().finally(() => process.exit(0));
    // A connection that will not end (an open event stream) must not hold the exit.
    setTimeout(() => process.exit(0), 10_000).unref();
  });
}
