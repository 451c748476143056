// The token store delivery lends every publish: a connection's tokens live on its Connection
// row, sealed (server/connections/token-sealing.ts). A token a platform granted during a publish is written here the moment the adapter
// has it, not with the target's outcome: the reasons (rotating refresh tokens, concurrent
// deliveries to one account, crashes mid-publish) are in server/platforms/token-refresh.ts.
import { openToken, sealToken } from '@/server/connections/token-sealing';
import { db } from '@/server/db/client';
import type { TokenStore } from '@/server/platforms/publisher';

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
