// Stores an account a client connected (hosted connect page) in its workspace. A reconnect of
// the same account (same platform and platform id) updates its row in place, so posts and
// their delivery history keep pointing at it; the row is active again with fresh tokens.
// The workspace that sent the link is told, in the same transaction.
import { db } from '@/server/db/client';
import { notifyLinkIssuer } from '@/server/notifications/notifications';
import { PLATFORM_CATALOGUE } from '@/server/platforms/catalogue';
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
  /** Non-secret data the platform's adapter needs (Connection.platformData); replaced on reconnect. */
  platformData?: Record<string, string | number | boolean | null>;
}

export async function saveConnectedAccount(args: {
  /** The link the client connected through. */
  link: { issuedById: string; workspace: { id: string; name: string } };
  platform: Platform;
  provider: 'live' | 'sandbox';
  account: AccountToSave;
}): Promise<{ id: string; created: boolean }> {
  const { link, platform, provider, account } = args;
  const workspaceId = link.workspace.id;
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
    platformData: account.platformData ?? {},
  };
  return db.$transaction(async (tx) => {
    const existing = await tx.connection.findUnique({
      where: { workspaceId_platform_externalId: { workspaceId, platform, externalId: account.externalId } },
      select: { id: true },
    });
    const row = await tx.connection.upsert({
      where: { workspaceId_platform_externalId: { workspaceId, platform, externalId: account.externalId } },
      create: { workspaceId, platform, externalId: account.externalId, ...fields },
      update: fields,
      select: { id: true },
    });
    const label = PLATFORM_CATALOGUE[platform].label;
    await notifyLinkIssuer(
      tx,
      link,
      'client.connected',
      `${link.workspace.name} ${existing ? 'reconnected' : 'connected'} ${fields.displayName} on ${label}`,
      existing ? 'The account posts again with fresh access.' : 'The account can be picked in Compose for this client now.',
      { connectionId: row.id },
    );
    return { id: row.id, created: !existing };
  });
}
