// Tool-endpoint sessions live in PostgreSQL (id, key, workspace, protocol version, last
// seen, ended), so any instance serves any request of a session and nothing is lost when
// one instance goes away.
import { randomUUID } from 'node:crypto';
import { prefixOf } from '@/server/auth/api-key-secret';
import { bearerKeyOf, principalOfKey, type KeyPrincipal, type StoredKey } from '@/server/auth/authenticate-key';
import { db } from '@/server/db/client';
import { sqlRows } from '@/server/db/sql';
import { Prisma } from '@/server/generated/prisma/client';

/** lastSeenAt is informative: written at most this often per session. */
const LAST_SEEN_RESOLUTION_MS = 30_000;

export interface McpSessionRecord {
  id: string;
  keyId: string;
  workspaceId: string;
  protocolVersion: string;
}

export async function openSession(opts: { keyId: string; workspaceId: string; protocolVersion: string; clientName: string | null }): Promise<string> {
  const id = randomUUID();
  await db.mcpSession.create({ data: { id, ...opts } });
  return id;
}

/**
 * A request inside a session: the bearer key and the session, in one round trip. Throws the
 * REST 401 family for a bad key; the session is null when the key is good but the session
 * unknown, ended or another key's (the caller answers 404, as the protocol asks). The read
 * also refreshes lastSeenAt when it is older than the resolution.
 */
export async function authenticateSessionRequest(
  authorization: string | null,
  sessionId: string,
): Promise<{ principal: KeyPrincipal; session: McpSessionRecord | null }> {
  const secret = bearerKeyOf(authorization);
  const id = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sessionId) ? sessionId : null;
  const rows = await sqlRows<StoredKey & { sessionId: string | null; sessionWorkspaceId: string | null; protocolVersion: string | null }>(Prisma.sql`
    WITH k AS (
      SELECT "id", "workspaceId", "hash", "scopes", "expiresAt", "revokedAt", "lastUsedAt" FROM "ApiKey" WHERE "prefix" = ${prefixOf(secret)}
    ), s AS (
      SELECT m."id", m."workspaceId", m."protocolVersion", m."lastSeenAt" FROM "McpSession" m JOIN k ON m."keyId" = k."id"
      WHERE m."id" = ${id}::uuid AND m."endedAt" IS NULL
    ), touched AS (
      UPDATE "McpSession" m SET "lastSeenAt" = now()
      FROM s WHERE m."id" = s."id" AND s."lastSeenAt" < now() - make_interval(secs => ${LAST_SEEN_RESOLUTION_MS / 1000})
    )
    SELECT k.*, s."id" AS "sessionId", s."workspaceId" AS "sessionWorkspaceId", s."protocolVersion"
    FROM k LEFT JOIN s ON TRUE`);
  const row = rows[0];
  const principal = principalOfKey(secret, row);
  const session =
    row?.sessionId && row.sessionWorkspaceId && row.protocolVersion
      ? { id: row.sessionId, keyId: principal.keyId, workspaceId: row.sessionWorkspaceId, protocolVersion: row.protocolVersion }
      : null;
  return { principal, session };
}

/** Ends the session; false when there was no live session of this key with that id. */
export async function endSession(id: string, keyId: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
  const res = await db.mcpSession.updateMany({ where: { id, keyId, endedAt: null }, data: { endedAt: new Date() } });
  return res.count === 1;
}

/** Remembers that the session created this post, so its outcome is announced on the session's stream. */
export async function linkSessionPost(sessionId: string, postId: string): Promise<void> {
  await db.mcpSessionPost.createMany({ data: [{ sessionId, postId }], skipDuplicates: true });
}
