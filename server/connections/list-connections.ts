import { db } from '@/server/db/client';
import type { Connection } from '@/server/generated/prisma/client';
import type { ConnectionDto } from './connections.schemas';
import { tokenHealth } from './token-health';

export function toConnectionDto(c: Connection): ConnectionDto {
  return {
    id: c.id,
    platform: c.platform as ConnectionDto['platform'],
    provider: c.provider as ConnectionDto['provider'],
    accountName: c.accountName,
    displayName: c.displayName,
    avatarUrl: c.avatarUrl,
    status: c.status as ConnectionDto['status'],
    tokenHealth: tokenHealth(c),
    tokenExpiresAt: c.tokenExpiresAt?.toISOString() ?? null,
    lastError: c.lastError,
    lastErrorAt: c.lastErrorAt?.toISOString() ?? null,
    lastSuccessfulPostAt: c.lastSuccessfulPostAt?.toISOString() ?? null,
    createdAt: c.createdAt.toISOString(),
  };
}

export async function listConnections(workspaceId: string): Promise<ConnectionDto[]> {
  const rows = await db.connection.findMany({ where: { workspaceId }, orderBy: [{ platform: 'asc' }, { createdAt: 'asc' }] });
  return rows.map(toConnectionDto);
}
