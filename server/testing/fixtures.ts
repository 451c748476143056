// Rows tests need, created through the same services the app uses. Unique slugs let files
// share nothing even when pointed at one database.
import { randomBytes } from 'node:crypto';
import { createApiKey } from '@/server/api-keys/mint-api-key';
import { SCOPES, type Scope } from '@/server/auth/scopes';
import { db } from '@/server/db/client';

export const uniq = (p: string) => `${p}-${randomBytes(4).toString('hex')}`;

export async function createWorkspace(opts: { name?: string; managedById?: string; requireApproval?: boolean } = {}) {
  const slug = uniq('ws');
  return db.workspace.create({
    data: { name: opts.name ?? slug, slug, managedById: opts.managedById ?? null, requireApproval: opts.requireApproval ?? false },
  });
}

export async function createKey(workspaceId: string, opts: { scopes?: readonly Scope[]; expiresAt?: Date | null } = {}) {
  return createApiKey({ workspaceId, name: uniq('key'), scopes: opts.scopes ?? SCOPES, expiresAt: opts.expiresAt ?? null });
}

export async function createWorkspaceWithKey(opts: { scopes?: readonly Scope[]; managedById?: string } = {}) {
  const workspace = await createWorkspace({ managedById: opts.managedById });
  const key = await createKey(workspace.id, { scopes: opts.scopes });
  return { workspace, key, secret: key.secret };
}

export async function createSandboxConnection(workspaceId: string, opts: { platform?: string; behaviour?: 'ok' | 'rejects_posts' | 'expired' } = {}) {
  const behaviour = opts.behaviour ?? 'ok';
  return db.connection.create({
    data: {
      workspaceId,
      platform: opts.platform ?? 'linkedin',
      provider: 'sandbox',
      externalId: uniq('acct'),
      accountName: uniq('acct'),
      displayName: 'Test account',
      sandboxBehavior: behaviour,
      tokenExpiresAt: behaviour === 'expired' ? new Date(Date.now() - 3_600_000) : new Date(Date.now() + 30 * 24 * 3_600_000),
    },
  });
}
