// The Clients screen: each workspace the agency manages, with how its accounts are doing and
// what waits for approval. Health is the contract's token health, counted per client.
import { z } from 'zod';
import { tokenHealth } from '@/server/connections/token-health';
import { TOKEN_HEALTH } from '@/server/connections/connections.schemas';
import { db } from '@/server/db/client';
import { ZWorkspace, toWorkspaceDto } from '@/server/workspaces/workspaces.schemas';

export const ZClientSummary = ZWorkspace.extend({
  health: z.record(z.enum(TOKEN_HEALTH), z.number().int()),
  pendingApprovals: z.number().int(),
});
export type ClientSummary = z.infer<typeof ZClientSummary>;

export async function listClientSummaries(agencyWorkspaceId: string, now = new Date()): Promise<ClientSummary[]> {
  const clients = await db.workspace.findMany({
    where: { managedById: agencyWorkspaceId },
    orderBy: { createdAt: 'desc' },
    include: { connections: { select: { status: true, tokenExpiresAt: true, provider: true } } },
  });
  const ids = clients.map((c) => c.id);
  // Same rule as the shell's Approvals count: pending, not yet delivered.
  const pending = await db.post.groupBy({
    by: ['workspaceId'],
    where: { workspaceId: { in: ids }, approvalStatus: 'pending', status: { in: ['draft', 'scheduled'] } },
    _count: { _all: true },
  });
  const pendingBy = new Map(pending.map((p) => [p.workspaceId, p._count._all]));
  return clients.map((c) => {
    const health = Object.fromEntries(TOKEN_HEALTH.map((h) => [h, 0])) as ClientSummary['health'];
    for (const conn of c.connections) health[tokenHealth(conn, now)] += 1;
    return { ...toWorkspaceDto(c), health, pendingApprovals: pendingBy.get(c.id) ?? 0 };
  });
}
