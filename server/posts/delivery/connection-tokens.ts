// The token store delivery lends every publish: a connection's tokens live on its Connection
// row. A token a platform granted during a publish is written here the moment the adapter
// has it, not with the target's outcome: the reasons (rotating refresh tokens, concurrent
// deliveries to one account, crashes mid-publish) are in server/platforms/token-refresh.ts.
import { db } from '@/server/db/client';
import type { TokenStore } from '@/server/platforms/publisher';

export const connectionTokens: TokenStore = {
  async read(connectionId) {
    const row = await db.connection.findUnique({
      where: { id: connectionId },
      select: { accessToken: true, refreshToken: true, tokenExpiresAt: true },
    });
    return row && { accessToken: row.accessToken, refreshToken: row.refreshToken, expiresAt: row.tokenExpiresAt };
  },
  async save(connectionId, token) {
    await db.connection.update({
      where: { id: connectionId },
      data: { accessToken: token.accessToken, refreshToken: token.refreshToken, tokenExpiresAt: token.expiresAt },
    });
  },
};
