// Minting keys. The secret is returned once; only its hash and public prefix are stored.
import { generateKey } from '@/server/auth/api-key-secret';
import { SCOPES, type Scope } from '@/server/auth/scopes';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { getManagedWorkspace } from '@/server/workspaces/managed-workspaces';
import type { MintedKeyDto, MintKeyInput } from './api-keys.schemas';

/** Inserts a key for a workspace. Used by the mint route, the app and the seed. */
export async function createApiKey(opts: { workspaceId: string; name: string; scopes: readonly Scope[]; expiresAt?: Date | null }): Promise<MintedKeyDto> {
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
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes as Scope[],
    expiresAt: row.expiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: null,
    secret: key.secret,
  };
}

/**
 * Mints a key for a managed workspace (contract: Key minting rules). Only the agency that
 * manages the workspace may (anything else is WORKSPACE_NOT_FOUND, like a workspace that
 * never existed). Omitted scopes mean the caller's scopes; workspaces:manage is always
 * stripped (a client key never manages); a request for workspaces:manage alone is refused;
 * a key cannot grant a scope it lacks.
 */
export async function mintKeyForManagedWorkspace(opts: {
  agencyWorkspaceId: string;
  workspaceId: string;
  callerScopes: readonly Scope[];
  input: MintKeyInput;
}): Promise<MintedKeyDto> {
  const workspace = await getManagedWorkspace(opts.agencyWorkspaceId, opts.workspaceId);
  const requested = opts.input.scopes ? [...new Set(opts.input.scopes)] : [...opts.callerScopes];
  if (opts.input.scopes && requested.length === 1 && requested[0] === 'workspaces:manage') {
    throw new AppError('VALIDATION_FAILED', 'A minted key cannot hold only workspaces:manage: that scope is stripped from minted keys', { field: 'scopes' });
  }
  const scopes: Scope[] = requested.filter((s) => s !== 'workspaces:manage');
  const notHeld = scopes.filter((s) => !opts.callerScopes.includes(s));
  if (notHeld.length) {
    throw new AppError('SCOPE_MISSING', `This key cannot grant scopes it does not hold: ${notHeld.join(', ')}`, { field: 'scopes' });
  }
  if (scopes.length === 0) {
    throw new AppError('VALIDATION_FAILED', 'The minted key would hold no scope', { field: 'scopes' });
  }
  let expiresAt: Date | null = null;
  if (opts.input.expiresAt) {
    expiresAt = new Date(opts.input.expiresAt);
    if (expiresAt.getTime() <= Date.now()) {
      throw new AppError('VALIDATION_FAILED', 'expiresAt must be in the future', { field: 'expiresAt' });
    }
  }
  // Keep the stored order canonical (the catalogue's order) so records read the same way.
  const ordered = SCOPES.filter((s) => scopes.includes(s));
  return createApiKey({ workspaceId: workspace.id, name: opts.input.name, scopes: ordered, expiresAt });
}
