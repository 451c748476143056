// The demo networks' memory kept in the database (server/platforms/sandbox/sandbox-network.ts):
// what a demo account's network accepted survives a crash of Herald, as a real network's posts do.
import { db } from '@/server/db/client';
import type { SandboxNetwork } from '@/server/platforms/sandbox/sandbox-network';

export const sandboxReceipts: SandboxNetwork = {
  async receive(receipt) {
    // The first post made with a key is the one the demo network keeps (as Mastodon's key does).
    const [kept] = await db.$queryRaw<{ postedId: string; permalink: string | null }[]>`
      INSERT INTO "SandboxReceipt" ("connectionId", "idempotencyKey", "postedId", "permalink")
      VALUES (${receipt.connectionId}::uuid, ${receipt.idempotencyKey}, ${receipt.postedId}, ${receipt.permalink})
      ON CONFLICT ("connectionId", "idempotencyKey") DO UPDATE SET "connectionId" = EXCLUDED."connectionId"
      RETURNING "postedId", "permalink"`;
    return { ...receipt, ...kept! };
  },
  async find(connectionId, idempotencyKey) {
    const row = await db.sandboxReceipt.findUnique({ where: { connectionId_idempotencyKey: { connectionId, idempotencyKey } } });
    return row && { connectionId, idempotencyKey, postedId: row.postedId, permalink: row.permalink };
  },
};
