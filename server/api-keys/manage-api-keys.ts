// The keys of one workspace: list, mint, revoke. The workspace is the one the request acts
// on (the key's own, or a client it manages through the selection header), so one workspace
// can never see or revoke another's keys: every query is bounded by it.
import { forgetKey } from '@/server/auth/key-cache';
import { SCOPES, type Scope } from '@/server/auth/scopes';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { isUuid } from '@/server/shared/schemas';
import type { ApiKeyDto, MintedKeyDto, MintKeyInput } from './api-keys.schemas';
import { createApiKey } from './mint-api-key';

/** Live keys first by creation, newest first; revoked keys are gone from the list (they cannot come back). */
export async function listApiKeys(workspaceId: string): Promise<ApiKeyDto[]> {
  const rows = await db.apiKey.findMany({ where: { workspaceId, revokedAt: null }, orderBy: { createdAt: 'desc' } });
  return rows.map((k) => ({
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: SCOPES.filter((s) => k.scopes.includes(s)),
    expiresAt: k.expiresAt?.toISOString() ?? null,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    assistant: k.oauthClientId !== null,
  }));
}

/**
 * Mints a key for the workspace the request acts on. The caller cannot grant a scope it lacks;
 * acting for a client (not its own workspace) follows the contract's minting rules for managed
 * workspaces: workspaces:manage is stripped, and a request for it alone is refused.
 */
export async function mintApiKey(opts: {
  workspaceId: string;
  homeWorkspaceId: string;
  callerScopes: readonly Scope[];
  input: MintKeyInput;
}): Promise<MintedKeyDto> {
  const forClient = opts.workspaceId !== opts.homeWorkspaceId;
  const requested = opts.input.scopes ? [...new Set(opts.input.scopes)] : [...opts.callerScopes];
  if (forClient && opts.input.scopes && requested.length === 1 && requested[0] === 'workspaces:manage') {
    throw new AppError('VALIDATION_FAILED', 'A key for a client workspace cannot hold only workspaces:manage: that scope is stripped', { field: 'scopes' });
  }
  const scopes = forClient ? requested.filter((s) => s !== 'workspaces:manage') : requested;
  const notHeld = scopes.filter((s) => !opts.callerScopes.includes(s));
  if (notHeld.length) throw new AppError('SCOPE_MISSING', `You cannot grant scopes you do not hold: ${notHeld.join(', ')}`, { field: 'scopes' });
  if (scopes.length === 0) throw new AppError('VALIDATION_FAILED', 'The key would hold no scope', { field: 'scopes' });
  const expiresAt = opts.input.expiresAt ? new Date(opts.input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw new AppError('VALIDATION_FAILED', 'expiresAt must be in the future', { field: 'expiresAt' });
  return createApiKey({ workspaceId: opts.workspaceId, name: opts.input.name, scopes: SCOPES.filter((s) => scopes.includes(s)), expiresAt });
}

/**
 * Revokes a key of the workspace at once. The row stays (its prefix must never be reissued and
 * logs name it); the ApiKey trigger NOTIFYs every instance, whose caches forget the key, so the
 * very next request with it answers 401. Revoking a revoked key is a no-op, not an error: a
 * retried DELETE gets the same answer.
 */
export async function revokeApiKey(workspaceId: string, id: string): Promise<void> {
  const key = isUuid(id) ? await db.apiKey.findFirst({ where: { id, workspaceId }, select: { id: true, prefix: true } }) : null;
  if (!key) throw new AppError('API_KEY_NOT_FOUND', 'No API key with that id in this workspace', { field: 'id' });
  await db.apiKey.updateMany({ where: { id: key.id, revokedAt: null }, data: { revokedAt: new Date() } });
  // This instance need not wait for its own notification.
  forgetKey(key.prefix);
}
