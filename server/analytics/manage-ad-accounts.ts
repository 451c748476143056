// Ad accounts are added and removed by a member in the app (tRPC; the REST contract only
// reads them). A live account stores its access token sealed, like connection tokens.
import type { Actor } from '@/server/auth/actor';
import { sealToken } from '@/server/connections/token-sealing';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { getJobs } from '@/server/jobs';
import { todayIn } from '@/server/shared/analytics-window';
import type { AdAccountDto, AdSourceId } from './analytics.schemas';
import { findAdAccount, toAdAccountDto } from './ad-accounts';
import { adSyncJobKey } from './sync';

function requireStaff(actor: Actor): void {
  if (actor.kind !== 'staff') throw new AppError('FORBIDDEN', 'Ad accounts are managed by a member in the app');
}

export interface AddAdAccountInput {
  source: AdSourceId;
  externalId: string;
  name: string;
  currency: string;
  accessToken?: string;
  loginCustomerId?: string;
}

export async function addAdAccount(actor: Actor, input: AddAdAccountInput): Promise<AdAccountDto> {
  requireStaff(actor);
  if (input.source !== 'sandbox' && !input.accessToken) {
    throw new AppError('VALIDATION_FAILED', `A ${input.source} account needs its access token`, { field: 'accessToken' });
  }
  if (input.source !== 'google' && input.loginCustomerId) {
    throw new AppError('VALIDATION_FAILED', 'loginCustomerId applies to Google Ads accounts only', { field: 'loginCustomerId' });
  }
  const key = { workspaceId: actor.workspaceId, source: input.source, externalId: input.externalId };
  if (await db.adAccount.findUnique({ where: { workspaceId_source_externalId: key } })) {
    throw new AppError('VALIDATION_FAILED', `${input.source} account ${input.externalId} is already connected`, { field: 'externalId', status: 409 });
  }
  const row = await db.adAccount.create({
    data: {
      ...key,
      name: input.name,
      currency: input.currency,
      accessToken: input.accessToken ? sealToken(input.accessToken) : null,
      loginCustomerId: input.loginCustomerId ?? null,
    },
  });
  await queueSync(row.id, actor.workspaceId);
  return toAdAccountDto(row);
}

/** Removes the account and its readings. */
export async function removeAdAccount(actor: Actor, accountId: string): Promise<void> {
  requireStaff(actor);
  const account = await findAdAccount(actor.workspaceId, accountId);
  await db.adAccount.delete({ where: { id: account.id } });
}

/** Queues the account's sync now (keyed per account and day, like the daily run). */
export async function syncAdAccountNow(actor: Actor, accountId: string): Promise<void> {
  requireStaff(actor);
  const account = await findAdAccount(actor.workspaceId, accountId);
  await queueSync(account.id, actor.workspaceId);
}

async function queueSync(accountId: string, workspaceId: string): Promise<void> {
  const ws = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { timeZone: true } });
  await getJobs().enqueue('analytics.sync-account', { accountId }, { key: adSyncJobKey(accountId, todayIn(ws.timeZone)) });
}
