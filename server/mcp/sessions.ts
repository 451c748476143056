// Tool-endpoint sessions live in PostgreSQL (id, key, workspace, protocol version, toolsets,
// last seen, ended), so any instance serves any request of a session and nothing is lost when
// one instance goes away.
import { randomUUID } from 'node:crypto';
import { prefixOf } from '@/server/auth/api-key-secret';
import { bearerKeyOf, principalOfKey, type KeyPrincipal, type StoredKey } from '@/server/auth/authenticate-key';
import { cachedKey, keyCacheMark, rememberKey } from '@/server/auth/key-cache';
import { env } from '@/server/config/env';
import { notifiedCache } from '@/server/db/notified-cache';
import { log } from '@/server/observability/log';
import { db } from '@/server/db/client';
import { sqlRows } from '@/server/db/sql';
import { Prisma } from '@/server/generated/prisma/client';
import { isUuid } from '@/server/shared/schemas';
import { resourceUrl } from '@/server/oauth/oauth';
import { effectiveToolsets, type ToolsetName } from './toolsets';

/** lastSeenAt is informative: written at most this often per session. */
const LAST_SEEN_RESOLUTION_MS = 30_000;

export interface McpSessionRecord {
  id: string;
  keyId: string;
  workspaceId: string;
  protocolVersion: string;
  /** The toolsets chosen at initialize: they stick to the session whatever later requests' URLs say. */
  toolsets: ToolsetName[];
}

export async function openSession(opts: {
  keyId: string;
  workspaceId: string;
  protocolVersion: string;
  clientName: string | null;
  toolsets: readonly ToolsetName[];
}): Promise<string> {
  const id = randomUUID();
  await db.mcpSession.create({ data: { id, ...opts, toolsets: [...opts.toolsets] } });
  return id;
}

interface CachedSession {
  session: McpSessionRecord;
  /** When this instance last wrote lastSeenAt (or read it fresh). */
  seenAt: number;
}

/**
 * Sessions this instance has served, so a tool call inside a known session with a known key
 * reads nothing (the REST path reads nothing either, server/auth/key-cache.ts). Ending a
 * session, or deleting it, NOTIFYs its id from a trigger (migration 20261123170000) and every
 * instance forgets it; it is served from here only while its key is served from the key cache
 * too, so a revoked key is refused on its next call. Same lifetime bound as keys.
 */
const sessionCache = notifiedCache<CachedSession>('herald_mcp_sessions', () => env.apiKeyCacheTtlMs());

/**
 * A request inside a session: the bearer key and the session, from this instance's caches or
 * in one round trip. Throws the REST 401 family for a bad key; the session is null when the
 * key is good but the session unknown, ended or another key's (the caller answers 404, as the
 * protocol asks). lastSeenAt is refreshed when it is older than the resolution.
 */
export async function authenticateSessionRequest(
  authorization: string | null,
  sessionId: string,
): Promise<{ principal: KeyPrincipal; session: McpSessionRecord | null }> {
  const secret = bearerKeyOf(authorization);
  const prefix = prefixOf(secret);
  const id = isUuid(sessionId) ? sessionId.toLowerCase() : null;
  const key = cachedKey(prefix);
  const cached = id ? sessionCache.get(id) : undefined;
  if (key && cached && cached.session.keyId === key.id) {
    const principal = principalOfKey(secret, key, resourceUrl());
    if (Date.now() - cached.seenAt > LAST_SEEN_RESOLUTION_MS) {
      cached.seenAt = Date.now();
      // Informative only: written without making the call wait.
      void db.$executeRaw`UPDATE "McpSession" SET "lastSeenAt" = now() WHERE "id" = ${cached.session.id}::uuid`.catch((err: unknown) =>
        log.warn('mcp', 'could not record a session as seen', err),
      );
    }
    return { principal, session: cached.session };
  }
  const since = { key: keyCacheMark(), session: sessionCache.mark() };
  const rows = await sqlRows<
    StoredKey & { sessionId: string | null; sessionWorkspaceId: string | null; protocolVersion: string | null; toolsets: string[] | null }
  >(Prisma.sql`
    WITH k AS (
      SELECT "id", "workspaceId", "hash", "scopes", "expiresAt", "revokedAt", "lastUsedAt", "resource" FROM "ApiKey" WHERE "prefix" = ${prefix}
    ), s AS (
      SELECT m."id", m."workspaceId", m."protocolVersion", m."toolsets", m."lastSeenAt" FROM "McpSession" m JOIN k ON m."keyId" = k."id"
      WHERE m."id" = ${id}::uuid AND m."endedAt" IS NULL
    ), touched AS (
      UPDATE "McpSession" m SET "lastSeenAt" = now()
      FROM s WHERE m."id" = s."id" AND s."lastSeenAt" < now() - make_interval(secs => ${LAST_SEEN_RESOLUTION_MS / 1000})
    )
    SELECT k.*, s."id" AS "sessionId", s."workspaceId" AS "sessionWorkspaceId", s."protocolVersion", s."toolsets"
    FROM k LEFT JOIN s ON TRUE`);
  const row = rows[0];
  const principal = principalOfKey(secret, row, resourceUrl());
  const { sessionId: foundId, sessionWorkspaceId, protocolVersion, toolsets, ...stored } = row!;
  rememberKey(prefix, stored, since.key);
  if (!foundId || !sessionWorkspaceId || !protocolVersion) return { principal, session: null };
  const session = { id: foundId, keyId: principal.keyId, workspaceId: sessionWorkspaceId, protocolVersion, toolsets: effectiveToolsets(toolsets) };
  sessionCache.remember(foundId, { session, seenAt: Date.now() }, since.session);
  return { principal, session };
}

/** Ends the session; false when there was no live session of this key with that id. */
export async function endSession(id: string, keyId: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const res = await db.mcpSession.updateMany({ where: { id, keyId, endedAt: null }, data: { endedAt: new Date() } });
  sessionCache.forget(id.toLowerCase()); // at once here; the trigger tells the other instances
  return res.count === 1;
}

/** Remembers that the session created this post, so its outcome is announced on the session's stream. */
export async function linkSessionPost(sessionId: string, postId: string): Promise<void> {
  await db.mcpSessionPost.createMany({ data: [{ sessionId, postId }], skipDuplicates: true });
}
