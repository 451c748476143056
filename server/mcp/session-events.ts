// Server-to-client notifications on a session's event stream (GET /public/v1/mcp), across
// instances: the outbox consumer below runs on whichever instance drains the event and
// NOTIFYs PostgreSQL in the drain's transaction (sent on commit, never for a rolled-back
// drain); every instance LISTENs and hands the message to the streams it holds.
import pg from 'pg';
import { env } from '@/server/config/env';
import { registerCloser } from '@/server/db/connections';
import type { OutboxConsumer } from '@/server/events';

export const MCP_CHANNEL = 'herald_mcp';

export interface SessionEvent {
  sessionId: string;
  /** `post.finished`: a post created in this session has an outcome for every target. */
  kind: 'post.finished';
  postId: string;
  status: string;
}

const FINAL_STATUSES = ['published', 'partial_published', 'failed'];

/**
 * On each per-target outcome, announces a session's post once it is finished — once per
 * post and session, whichever target finished last (announcedAt guards the repeat).
 */
export const notifyMcpSessions: OutboxConsumer = async (event, { tx }) => {
  if (event.type !== 'post.published' && event.type !== 'post.failed') return;
  const postId = (event.data as { postId?: string }).postId;
  if (!postId) return;
  const rows = await tx.$queryRaw<Array<{ sessionId: string; status: string }>>`
    UPDATE "McpSessionPost" sp SET "announcedAt" = now()
    FROM "Post" p, "McpSession" s
    WHERE sp."postId" = ${postId}::uuid AND sp."announcedAt" IS NULL
      AND p."id" = sp."postId" AND p."status" = ANY(${FINAL_STATUSES})
      AND s."id" = sp."sessionId" AND s."endedAt" IS NULL
    RETURNING sp."sessionId", p."status"`;
  for (const row of rows) {
    const message: SessionEvent = { sessionId: row.sessionId, kind: 'post.finished', postId, status: row.status };
    await tx.$executeRaw`SELECT pg_notify(${MCP_CHANNEL}, ${JSON.stringify(message)})`;
  }
};

type Listener = (event: SessionEvent) => void;

/** This process's LISTEN connection and the streams it feeds, by session. */
const listeners = new Map<string, Set<Listener>>();
let client: pg.Client | undefined;
let connecting: Promise<void> | undefined;

async function ensureListening(): Promise<void> {
  if (client) return;
  connecting ??= (async () => {
    const url = env.databaseUrl();
    if (!url) throw new Error('DATABASE_URL is not set');
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (msg) => {
      if (msg.channel !== MCP_CHANNEL || !msg.payload) return;
      let event: SessionEvent;
      try {
        event = JSON.parse(msg.payload) as SessionEvent;
      } catch {
        return;
      }
      for (const listener of listeners.get(event.sessionId) ?? []) listener(event);
    });
    // A lost connection is opened again by the next subscriber; streams already open end
    // (the client reconnects its GET stream, as the transport expects).
    c.on('error', () => void stopListening());
    await c.connect();
    await c.query(`LISTEN ${MCP_CHANNEL}`);
    client = c;
    registerCloser(stopListening);
  })().finally(() => {
    connecting = undefined;
  });
  await connecting;
}

async function stopListening(): Promise<void> {
  const c = client;
  client = undefined;
  await c?.end().catch(() => {});
}

/** Subscribes a stream to its session's events; returns the unsubscribe. */
export async function subscribeSession(sessionId: string, listener: Listener): Promise<() => void> {
  await ensureListening();
  let set = listeners.get(sessionId);
  if (!set) listeners.set(sessionId, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(sessionId);
  };
}
