// Stores an account a client connected (hosted connect page) in its workspace. A reconnect of
// the same account (same platform and platform id) updates its row in place, so posts and
// their delivery history keep pointing at it; the row is active again with fresh tokens.
import { db } from '@/server/db/client';
import type { Platform } from '@/server/shared/platforms';
import { sealToken } from './token-sealing';

export interface AccountToSave {
  externalId: string;
  accountName: string;
  displayName: string;
  avatarUrl: string | null;
  accessToken: string | null;
  refreshToken: string | null;
  expiresAt: Date | null;
  scopes: string | null;
}

export async function saveConnectedAccount(args: {
  workspaceId: string;
  platform: Platform;
  provider: 'live' | 'sandbox';
  account: AccountToSave;
}): Promise<{ id: string; created: boolean }> {
  const { workspaceId, platform, provider, account } = args;
  const fields = {
    provider,
    accountName: account.accountName.slice(0, 200),
    displayName: account.displayName.slice(0, 200),
    avatarUrl: account.avatarUrl,
    status: 'active',
    accessToken: sealToken(account.accessToken),
    refreshToken: sealToken(account.refreshToken),
    tokenExpiresAt: account.expiresAt,
    scopes: account.scopes,
    lastError: null,
    lastErrorAt: null,
    sandboxBehavior: provider === 'sandbox' ? 'ok' : null,
  };
  const existing = await db.connection.findUnique({
    where: { workspaceId_platform_externalId: { workspaceId, platform, externalId: account.externalId } },
    select: { id: true },
  });
  const row = await db.connection.upsert({
    where: { workspaceId_platform_externalId: { workspaceId, platform, externalId: account.externalId } },
    create: { workspaceId, platform, externalId: account.externalId, ...fields },
    update: fields,
    select: { id: true },
  });
  return { id: row.id, created: !existing };
}
