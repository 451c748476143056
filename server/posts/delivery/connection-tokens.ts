// The token store delivery lends every publish: a connection's tokens live on its Connection
// row, sealed (server/connections/token-sealing.ts). A token a platform granted during a publish is written here the moment the adapter
// has it, not with the target's outcome: the reasons (rotating refresh tokens, concurrent
// deliveries to one account, crashes mid-publish) are in server/platforms/token-refresh.ts.
import { openToken, sealToken } from '@/server/connections/token-sealing';
import { db } from '@/server/db/client';
import type { PublishableConnection, TokenStore } from '@/server/platforms/publisher';
import type { Platform } from '@/server/shared/platforms';

export const connectionTokens: TokenStore = {
  async read(connectionId) {
    const row = await db.connection.findUnique({
      where: { id: connectionId },
      select: { accessToken: true, refreshToken: true, tokenExpiresAt: true },
    });
    return row && { accessToken: openToken(row.accessToken), refreshToken: openToken(row.refreshToken), expiresAt: row.tokenExpiresAt };
  },
  async save(connectionId, token) {
    await db.connection.update({
      where: { id: connectionId },
      data: { accessToken: sealToken(token.accessToken), refreshToken: sealToken(token.refreshToken), tokenExpiresAt: token.expiresAt },
    });
  },
};

/** A Connection row as the platform ports take it: the token opened, the adapter's data as a record. */
export function publishableConnection(row: {
  id: string;
  platform: string;
  provider: string;
  externalId: string;
  accountName: string;
  accessToken: string | null;
  tokenExpiresAt: Date | null;
  sandboxBehavior: string | null;
  platformData: unknown;
  createdAt?: Date;
}): PublishableConnection {
  return {
    id: row.id,
    platform: row.platform as Platform,
    provider: row.provider,
    externalId: row.externalId,
    accountName: row.accountName,
    accessToken: openToken(row.accessToken),
    tokenExpiresAt: row.tokenExpiresAt,
    sandboxBehavior: row.sandboxBehavior,
    ...(row.createdAt ? { connectedAt: row.createdAt } : {}),
    platformData: (row.platformData ?? {}) as Record<string, unknown>,
  };
}
