// One LISTEN connection per process, shared by every channel Herald listens on (tool-endpoint
// session events, API-key changes). PostgreSQL delivers a NOTIFY to every listening session
// when the notifying transaction commits, which is how instances tell each other about
// changes without a broker. A lost connection tells each channel (`onLost`) so a cache can
// stop trusting itself, and is opened again by the next `listen` or `ensureListening` call.
import pg from 'pg';
import { env } from '@/server/config/env';
import { registerCloser } from './connections';

type Handler = (payload: string) => void;

interface Channel {
  handlers: Set<Handler>;
  onLost: Set<() => void>;
}

interface Hub {
  channels: Map<string, Channel>;
  client?: pg.Client;
  connecting?: Promise<pg.Client>;
}

/** Visible to the database as the listener's application_name (tests cut it on purpose). */
export const LISTENER_APPLICATION_NAME = 'herald-listen';

const globalForHub = globalThis as unknown as { heraldNotificationHub?: Hub };
const hub: Hub = (globalForHub.heraldNotificationHub ??= { channels: new Map() });

function channelOf(name: string): Channel {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a channel name: ${name}`);
  let channel = hub.channels.get(name);
  if (!channel) hub.channels.set(name, (channel = { handlers: new Set(), onLost: new Set() }));
  return channel;
}

function lost(c: pg.Client): void {
  if (hub.client !== c) return;
  hub.client = undefined;
  void c.end().catch(() => {});
  for (const channel of hub.channels.values()) for (const cb of channel.onLost) cb();
}

/** The process's listening connection, opened (and every known channel LISTENed) on demand. */
export async function ensureListening(): Promise<void> {
  if (hub.client) return;
  hub.connecting ??= (async () => {
    const url = env.databaseUrl();
    if (!url) throw new Error('DATABASE_URL is not set');
    const c = new pg.Client({ connectionString: url, application_name: LISTENER_APPLICATION_NAME, connectionTimeoutMillis: env.databaseConnectTimeoutMs() });
    c.on('notification', (msg) => {
      const channel = hub.channels.get(msg.channel);
      if (!channel || msg.payload === undefined) return;
      for (const handler of channel.handlers) handler(msg.payload);
    });
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    await c.connect();
    for (const name of hub.channels.keys()) await c.query(`LISTEN ${name}`);
    hub.client = c;
    registerCloser(async () => {
      if (hub.client === c) hub.client = undefined;
      await c.end().catch(() => {});
    });
    return c;
  })().finally(() => {
    hub.connecting = undefined;
  });
  await hub.connecting;
}

/** Whether this process is listening right now: a notification sent now will reach it. */
export function isListening(): boolean {
  return hub.client !== undefined;
}

/**
 * Calls `handler` with each payload NOTIFYed on `name` (from any instance). Returns the
 * unsubscribe. `onLost` runs whenever the listening connection is lost.
 */
export async function listen(name: string, handler: Handler, opts: { onLost?: () => void } = {}): Promise<() => void> {
  const channel = channelOf(name);
  const isNew = channel.handlers.size === 0 && channel.onLost.size === 0;
  channel.handlers.add(handler);
  if (opts.onLost) channel.onLost.add(opts.onLost);
  if (hub.client && isNew) await hub.client.query(`LISTEN ${name}`);
  else await ensureListening();
  return () => {
    channel.handlers.delete(handler);
    if (opts.onLost) channel.onLost.delete(opts.onLost);
  };
}
