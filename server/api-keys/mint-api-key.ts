// Minting keys. The secret is returned once; only its hash and public prefix are stored.
import { generateKey } from '@/server/auth/api-key-secret';
import { SCOPES, type Scope } from '@/server/auth/scopes';
import type { Actor } from '@/server/auth/actor';
import { db } from '@/server/db/client';
import { actorFields, recordSecurityEvent } from '@/server/security-events/security-events';
import { AppError } from '@/server/errors/app-error';
import { getManagedWorkspace } from '@/server/workspaces/managed-workspaces';
import type { MintedKeyDto, MintKeyInput } from './api-keys.schemas';

/** Inserts a key for a workspace. Used by the mint route, the app and the seed. */
export async function createApiKey(opts: {
  workspaceId: string;
  name: string;
  scopes: readonly Scope[];
  expiresAt?: Date | null;
  /** Who minted it (a security event names them); an assistant connection names its member. */
  by?: Pick<Actor, 'kind' | 'userId' | 'keyId'>;
  oauthClientId?: string;
}): Promise<MintedKeyDto> {
  const key = generateKey();
  const row = await db.apiKey.create({
    data: {
      workspaceId: opts.workspaceId,
      name: opts.name,
      prefix: key.prefix,
      hash: key.hash,
      scopes: [...opts.scopes],
      expiresAt: opts.expiresAt ?? null,
    },
  });
  await recordSecurityEvent({
    kind: 'key.minted',
    workspaceId: opts.workspaceId,
    ...actorFields(opts.by),
    detail: { keyId: row.id, name: row.name, prefix: row.prefix, scopes: row.scopes, ...(opts.oauthClientId ? { assistant: true } : {}) },
  });
  return { ...toKeyRecord(row), secret: key.secret };
}

/**
 * A new secret for a key, the old one refused from now on (the key row, its id, name, scopes
 * and sessions stay): an assistant connection's access token rotates this way on refresh.
 */
export async function rotateKeySecret(keyId: string, data: { expiresAt: Date; scopes: readonly Scope[] }): Promise<string> {
  const key = generateKey();
  await db.apiKey.update({ where: { id: keyId }, data: { prefix: key.prefix, hash: key.hash, expiresAt: data.expiresAt, scopes: [...data.scopes] } });
  return key.secret;
}

/** The fields every key record answers, minted or listed (never the hash). */
export function toKeyRecord(row: {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  expiresAt: Date | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: SCOPES.filter((s) => row.scopes.includes(s)),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * The contract's key minting rules, for every way a key is minted: omitted scopes mean the
 * caller's; a key cannot grant a scope the caller lacks; a key for a client workspace never
 * manages (workspaces:manage is stripped, and a request for it alone is refused); the key
 * holds at least one scope; an expiry is in the future. Answers the scopes in the
 * catalogue's order (records read the same way) and the expiry.
 */
export function mintRules(opts: { callerScopes: readonly Scope[]; input: MintKeyInput; forClient: boolean }): { scopes: Scope[]; expiresAt: Date | null } {
  const requested = opts.input.scopes ? [...new Set(opts.input.scopes)] : [...opts.callerScopes];
  if (opts.forClient && opts.input.scopes && requested.length === 1 && requested[0] === 'workspaces:manage') {
    throw new AppError('VALIDATION_FAILED', 'A key for a client workspace cannot hold only workspaces:manage: that scope is stripped', { field: 'scopes' });
  }
  const scopes = opts.forClient ? requested.filter((s) => s !== 'workspaces:manage') : requested;
  const notHeld = scopes.filter((s) => !opts.callerScopes.includes(s));
  if (notHeld.length) {
    throw new AppError('SCOPE_MISSING', `This key cannot grant scopes it does not hold: ${notHeld.join(', ')}`, { field: 'scopes' });
  }
  if (scopes.length === 0) throw new AppError('VALIDATION_FAILED', 'The minted key would hold no scope', { field: 'scopes' });
  const expiresAt = opts.input.expiresAt ? new Date(opts.input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) {
    throw new AppError('VALIDATION_FAILED', 'expiresAt must be in the future', { field: 'expiresAt' });
  }
  return { scopes: SCOPES.filter((s) => scopes.includes(s)), expiresAt };
}

/**
 * Mints a key for a managed workspace (POST /workspaces/{id}/api-keys). Only the agency that
 * manages the workspace may (anything else is WORKSPACE_NOT_FOUND, like a workspace that
 * never existed); the key is always a client's key.
 */
export async function mintKeyForManagedWorkspace(opts: {
  agencyWorkspaceId: string;
  workspaceId: string;
  callerScopes: readonly Scope[];
  input: MintKeyInput;
}): Promise<MintedKeyDto> {
  const workspace = await getManagedWorkspace(opts.agencyWorkspaceId, opts.workspaceId);
  const { scopes, expiresAt } = mintRules({ callerScopes: opts.callerScopes, input: opts.input, forClient: true });
  return createApiKey({ workspaceId: workspace.id, name: opts.input.name, scopes, expiresAt });
}
