// A TCP proxy that can be cut: Herald's way of taking the database away from a running app
// without touching the PostgreSQL server itself (which other processes share). Point the
// app's DATABASE_URL at the proxy (`proxiedDatabaseUrl`), then `cut()` to drop every open
// connection and refuse new ones, and `restore()` to let connections through again.
//
// Used by the outage tests and the chaos script. `cutOn(pattern)` cuts at a precise moment of
// a request: when the app sends bytes matching the pattern (e.g. the SQL of one INSERT),
// which are then never delivered. Two ways to cut, as a real outage shows them:
// - 'reset' (default): open sockets and every new connection are reset (clients see
//   ECONNRESET / "Connection terminated unexpectedly"); the port stays bound, so restore()
//   is instant and nothing else can take the port meanwhile;
// - 'refuse': the listener also closes, so new connections are refused (ECONNREFUSED), as
//   while PostgreSQL restarts; restore() listens again on the same port.
import net, { type AddressInfo, type Socket } from 'node:net';

export type CutMode = 'reset' | 'refuse';

export interface TcpProxy {
  /** Where clients connect: 127.0.0.1 and the port the proxy listens on. */
  readonly host: string;
  readonly port: number;
  /** Connections currently forwarded. */
  readonly openConnections: number;
  /** Connections accepted since start (forwarded or reset). */
  readonly acceptedConnections: number;
  readonly isCut: boolean;
  /** Destroys every open connection and refuses new ones until restore(). */
  cut(mode?: CutMode): Promise<void>;
  /**
   * Arms a cut for the moment a client sends data matching `pattern` (tested per chunk, so
   * keep it short, e.g. `INSERT INTO "public"."Workspace"`); the matching data is not
   * forwarded. Resolves once the cut happened.
   */
  cutOn(pattern: string | RegExp, mode?: CutMode): Promise<void>;
  /** Forwards new connections again. */
  restore(): Promise<void>;
  /** Destroys every connection and stops listening for good. */
  close(): Promise<void>;
}

export interface TcpProxyTarget {
  host: string;
  port: number;
}

export async function startTcpProxy(target: TcpProxyTarget): Promise<TcpProxy> {
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let state: 'open' | CutMode | 'closed' = 'open';
  let accepted = 0;
  let armed: { test: (chunk: Buffer) => boolean; mode: CutMode; fire: () => void } | undefined;

  const reset = (socket: Socket) => {
    // An RST, not a polite FIN: the peer learns at once that the connection is gone.
    if (typeof socket.resetAndDestroy === 'function' && !socket.destroyed) socket.resetAndDestroy();
    else socket.destroy();
  };

  const server = net.createServer((client) => {
    accepted++;
    if (state !== 'open') {
      reset(client);
      return;
    }
    client.setNoDelay(true);
    const upstream = net.connect({ host: target.host, port: target.port });
    upstream.setNoDelay(true);
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      if (!pairs.delete(pair)) return;
      reset(client);
      reset(upstream);
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
    client.on('data', (chunk: Buffer) => {
      if (armed?.test(chunk)) {
        const trigger = armed;
        armed = undefined;
        void cut(trigger.mode).then(trigger.fire);
        return;
      }
      if (!upstream.write(chunk)) {
        client.pause();
        upstream.once('drain', () => client.resume());
      }
    });
    client.on('end', () => upstream.end());
    upstream.pipe(client);
  });

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  const stopListening = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  const dropAll = () => {
    for (const pair of [...pairs]) {
      pairs.delete(pair);
      reset(pair.client);
      reset(pair.upstream);
    }
  };

  const cut = async (mode: CutMode = 'reset') => {
    if (state === 'closed') throw new Error('The proxy is closed');
    state = mode;
    dropAll();
    if (mode === 'refuse') await stopListening();
  };

  const port = await listen(0);

  return {
    host: '127.0.0.1',
    port,
    get openConnections() {
      return pairs.size;
    },
    get acceptedConnections() {
      return accepted;
    },
    get isCut() {
      return state === 'reset' || state === 'refuse';
    },
    cut,
    cutOn(pattern: string | RegExp, mode: CutMode = 'reset') {
      const test = typeof pattern === 'string' ? (chunk: Buffer) => chunk.includes(pattern) : (chunk: Buffer) => pattern.test(chunk.toString('latin1'));
      return new Promise<void>((fire) => {
        armed = { test, mode, fire };
      });
    },
    async restore() {
      if (state === 'closed') throw new Error('The proxy is closed');
      if (!server.listening) await listen(port);
      state = 'open';
    },
    async close() {
      armed = undefined;
      state = 'closed';
      dropAll();
      await stopListening();
    },
  };
}

/** The database URL with its host and port replaced by the proxy's. */
export function proxiedDatabaseUrl(databaseUrl: string, proxy: Pick<TcpProxy, 'host' | 'port'>): string {
  const url = new URL(databaseUrl);
  url.hostname = proxy.host;
  url.port = String(proxy.port);
  // A socket directory given as ?host=/path would bypass the proxy.
  url.searchParams.delete('host');
  return url.toString();
}

/** Starts a proxy in front of the database `databaseUrl` names; returns it with the URL to use. */
export async function startDatabaseProxy(databaseUrl: string): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(databaseUrl);
  if (target.searchParams.get('host')?.startsWith('/')) {
    throw new Error('The database is reached through a Unix socket: a TCP proxy cannot stand in front of it');
  }
  const proxy = await startTcpProxy({ host: target.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1', port: Number(target.port || 5432) });
  return { proxy, url: proxiedDatabaseUrl(databaseUrl, proxy) };
}
