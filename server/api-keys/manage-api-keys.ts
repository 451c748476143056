// The keys of one workspace: list, mint, revoke. The workspace is the one the request acts
// on (the key's own, or a client it manages through the selection header), so one workspace
// can never see or revoke another's keys: every query is bounded by it.
import { forgetKey } from '@/server/auth/key-cache';
import type { Actor } from '@/server/auth/actor';
import type { Scope } from '@/server/auth/scopes';
import { actorFields, recordSecurityEvent } from '@/server/security-events/security-events';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { isUuid } from '@/server/shared/schemas';
import type { ApiKeyDto, MintedKeyDto, MintKeyInput } from './api-keys.schemas';
import { createApiKey, mintRules, toKeyRecord } from './mint-api-key';

/** Live keys, newest first; revoked keys are gone from the list (they cannot come back). */
export async function listApiKeys(workspaceId: string): Promise<ApiKeyDto[]> {
  const rows = await db.apiKey.findMany({ where: { workspaceId, revokedAt: null }, orderBy: { createdAt: 'desc' } });
  return rows.map((k) => ({ ...toKeyRecord(k), assistant: k.oauthClientId !== null }));
}

/**
 * Mints a key for the workspace the request acts on, by the same rules as every mint
 * (mintRules): acting for a client rather than its own workspace, the key is a client's key.
 */
export async function mintApiKey(opts: {
  workspaceId: string;
  homeWorkspaceId: string;
  callerScopes: readonly Scope[];
  input: MintKeyInput;
  by?: Actor;
}): Promise<MintedKeyDto> {
  const forClient = opts.workspaceId !== opts.homeWorkspaceId;
  const { scopes, expiresAt } = mintRules({ callerScopes: opts.callerScopes, input: opts.input, forClient });
  return createApiKey({ workspaceId: opts.workspaceId, name: opts.input.name, scopes, expiresAt, by: opts.by });
}

/**
 * Revokes a key of the workspace at once. The row stays (its prefix must never be reissued and
 * logs name it); the ApiKey trigger NOTIFYs every instance, whose caches forget the key, so the
 * very next request with it answers 401. Revoking a revoked key is a no-op, not an error: a
 * retried DELETE gets the same answer.
 */
export async function revokeApiKey(workspaceId: string, id: string, by?: Actor): Promise<void> {
  const key = await findApiKey(workspaceId, id);
  const { count } = await db.apiKey.updateMany({ where: { id: key.id, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count) await recordSecurityEvent({ kind: 'key.revoked', workspaceId, ...actorFields(by), detail: { keyId: key.id, prefix: key.prefix } });
  // This instance need not wait for its own notification.
  forgetKey(key.prefix);
}

/** The workspace's key with that id, or API_KEY_NOT_FOUND. */
export async function findApiKey(workspaceId: string, id: string): Promise<{ id: string; prefix: string }> {
  const key = isUuid(id) ? await db.apiKey.findFirst({ where: { id, workspaceId }, select: { id: true, prefix: true } }) : null;
  if (!key) throw new AppError('API_KEY_NOT_FOUND', 'No API key with that id in this workspace', { field: 'id' });
  return key;
}
