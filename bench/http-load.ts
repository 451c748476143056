// The load client of the HTTP benches (api-vs-raw.ts, next-floor.ts): keep-alive requests
// from CLIENTS concurrent loops for throughput, one client's sequential requests for the
// median latency. Every response is read to its end and its status checked.
import { readFileSync } from 'node:fs';
import http from 'node:http';

export const CLIENTS = Number(process.env.CLIENTS ?? 20);
export const ROUNDS = Number(process.env.ROUNDS ?? 3);
export const SECONDS = Number(process.env.SECONDS ?? 3);
export const SERIAL = Number(process.env.SERIAL ?? 200);

export interface Route {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
  expect: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });

export function request(port: number, route: Route, auth?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: route.method,
        path: route.path,
        agent,
        headers: {
          ...(auth ? { Authorization: auth } : {}),
          ...(route.body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(route.body) } : {}),
          ...route.headers,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === route.expect ? resolve() : reject(new Error(`${route.name} on :${port} answered ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(route.body);
  });
}

/** Requests per second over `seconds` with CLIENTS concurrent clients. */
export async function throughput(port: number, route: Route, auth: string | undefined, seconds: number): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < end) {
        await request(port, route, auth);
        done++;
      }
    }),
  );
  return done / seconds;
}

/** The median of n sequential requests from one client, in milliseconds. */
export async function medianMs(port: number, route: Route, auth: string | undefined, n: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await request(port, route, auth);
    times.push(performance.now() - t);
  }
  return median(times);
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function closeLoad(): void {
  agent.destroy();
}

/** CPU seconds (user + system) a process has used so far (Linux /proc). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime and stime, in clock ticks
}

/**
 * A throughput run with the server's CPU time per request: what its layers cost, whatever
 * the load client and the database take of the same cores.
 */
export async function cpuMsPerRequest(pid: number, run: () => Promise<number>): Promise<{ rps: number; cpuMs: number }> {
  const before = cpuSeconds(pid);
  const rps = await run();
  return { rps, cpuMs: ((cpuSeconds(pid) - before) * 1000) / (rps * SECONDS) };
}
