// Server-to-client notifications on a session's event stream (GET /public/v1/mcp), across
// instances: the outbox consumer below runs on whichever instance drains the event and
// NOTIFYs PostgreSQL in the drain's transaction (sent on commit, never for a rolled-back
// drain); every instance LISTENs and hands the message to the streams it holds.
import { ensureListening, listen } from '@/server/db/notifications';
import type { OutboxConsumer } from '@/server/events';
import { isUuid } from '@/server/shared/schemas';

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
 * post and session, whichever target finished last (announcedAt guards the repeat). A batch
 * of events costs one UPDATE and, when a post finished, one NOTIFY statement.
 */
export const notifyMcpSessions: OutboxConsumer = async (events, { tx }) => {
  const postIds = new Set<string>();
  for (const event of events) {
    if (event.type !== 'post.published' && event.type !== 'post.failed') continue;
    const postId = (event.data as { postId?: string }).postId;
    if (postId && isUuid(postId)) postIds.add(postId);
  }
  if (postIds.size === 0) return;
  const rows = await tx.$queryRaw<Array<{ sessionId: string; postId: string; status: string }>>`
    UPDATE "McpSessionPost" sp SET "announcedAt" = now()
    FROM "Post" p, "McpSession" s
    WHERE sp."postId" = ANY(${[...postIds]}::uuid[]) AND sp."announcedAt" IS NULL
      AND p."id" = sp."postId" AND p."status" = ANY(${FINAL_STATUSES})
      AND s."id" = sp."sessionId" AND s."endedAt" IS NULL
    RETURNING sp."sessionId", sp."postId", p."status"`;
  if (rows.length === 0) return;
  const messages = rows.map((row) =>
    JSON.stringify({ sessionId: row.sessionId, kind: 'post.finished', postId: row.postId, status: row.status } satisfies SessionEvent),
  );
  await tx.$executeRaw`SELECT pg_notify(${MCP_CHANNEL}, m) FROM unnest(${messages}::text[]) AS m`;
};

type Listener = (event: SessionEvent) => void;

/** The streams this process holds, by session; fed from the process's LISTEN connection. */
const listeners = new Map<string, Set<Listener>>();
let subscribed: Promise<unknown> | undefined;

function dispatch(payload: string): void {
  let event: SessionEvent;
  try {
    event = JSON.parse(payload) as SessionEvent;
  } catch {
    return;
  }
  for (const listener of listeners.get(event.sessionId) ?? []) listener(event);
}

/** Subscribes a stream to its session's events; returns the unsubscribe. */
export async function subscribeSession(sessionId: string, listener: Listener): Promise<() => void> {
  // A lost connection is opened again by the next subscriber (server/db/notifications).
  subscribed ??= listen(MCP_CHANNEL, dispatch).catch((err: unknown) => {
    subscribed = undefined;
    throw err;
  });
  await subscribed;
  await ensureListening();
  let set = listeners.get(sessionId);
  if (!set) listeners.set(sessionId, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(sessionId);
  };
}
