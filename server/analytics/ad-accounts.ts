// Ad accounts of a workspace with their sync state.
import { db } from '@/server/db/client';
import type { AdAccount } from '@/server/generated/prisma/client';
import { AppError } from '@/server/errors/app-error';
import { isoOrNull, isUuid } from '@/server/shared/schemas';
import type { AdAccountDto, AdSourceId } from './analytics.schemas';
import { SOURCE_LABELS } from './sources';

export const dayText = (d: Date | null): string | null => (d ? d.toISOString().slice(0, 10) : null);

export function toAdAccountDto(a: AdAccount): AdAccountDto {
  const source = a.source as AdSourceId;
  return {
    id: a.id,
    source,
    externalId: a.externalId,
    name: a.name,
    currency: a.currency,
    sync: {
      status: a.syncStatus as AdAccountDto['sync']['status'],
      lastSyncAt: isoOrNull(a.lastSyncAt),
      lastSuccessAt: isoOrNull(a.lastSuccessAt),
      lastError: a.lastError,
      lastErrorAt: isoOrNull(a.lastErrorAt),
      syncedThrough: dayText(a.syncedThrough),
    },
    provenance: { source, label: SOURCE_LABELS[source], collectedAt: isoOrNull(a.lastSuccessAt) },
    createdAt: a.createdAt.toISOString(),
  };
}

export async function listAdAccounts(workspaceId: string): Promise<AdAccountDto[]> {
  const rows = await db.adAccount.findMany({ where: { workspaceId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map(toAdAccountDto);
}

/** The account, only in this workspace, with the workspace's time zone; AD_ACCOUNT_NOT_FOUND otherwise. */
export async function findAdAccount(workspaceId: string, accountId: string): Promise<AdAccount & { workspace: { timeZone: string } }> {
  const account = !isUuid(accountId)
    ? null
    : await db.adAccount.findFirst({ where: { id: accountId, workspaceId }, include: { workspace: { select: { timeZone: true } } } });
  if (!account) throw new AppError('AD_ACCOUNT_NOT_FOUND', 'No ad account with that id in this workspace', { field: 'accountId' });
  return account;
}

/** GET /ad-accounts: each account carries its own provenance; the list's is the newest sync. */
export async function adAccountsAnswer(workspaceId: string) {
  const data = await listAdAccounts(workspaceId);
  const newest = data.map((a) => a.sync.lastSuccessAt).reduce<string | null>((m, t) => (t && (!m || t > m) ? t : m), null);
  return { data, provenance: { source: 'herald' as const, label: SOURCE_LABELS.herald, collectedAt: newest } };
}
