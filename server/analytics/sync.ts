// The daily ad sync: per account, fetch the last days from its source and rewrite them.
// Idempotent per account and day: the days asked for are replaced in one transaction
// (readings upserted, days the source no longer reports removed), so running the same sync
// twice leaves the same rows. A failure is recorded on the account, verbatim, and nothing of
// that run is written. The workspace is told once when an account starts failing (not on
// every daily retry of an account that already fails).
import { env } from '@/server/config/env';
import { openToken } from '@/server/connections/token-sealing';
import { db } from '@/server/db/client';
import { getJobs } from '@/server/jobs';
import { writeNotification } from '@/server/notifications/notifications';
import { addDays, todayIn } from '@/server/shared/analytics-window';
import type { AdSourceId } from './analytics.schemas';
import { adSourceFor } from './ad-platforms';
import type { AdInsightsSource, DailyReading } from './ad-platforms/port';

/** How far back an account's first sync reaches. */
export const FIRST_SYNC_DAYS = 60;

export interface SyncResult {
  accountId: string;
  ok: boolean;
  from: string;
  to: string;
  days: number;
  error?: string;
}

export interface SyncOptions {
  /** Replaces the account's source (tests point a live adapter at a local server). */
  source?: AdInsightsSource;
  from?: string;
  to?: string;
  now?: Date;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function syncAdAccount(accountId: string, options: SyncOptions = {}): Promise<SyncResult | null> {
  const account = await db.adAccount.findUnique({ where: { id: accountId }, include: { workspace: { select: { timeZone: true } } } });
  // Removed since the job was queued: nothing to do.
  if (!account) return null;
  const now = options.now ?? new Date();
  const to = options.to ?? todayIn(account.workspace.timeZone, now);
  const from = options.from ?? (account.syncedThrough ? addDays(to, -(env.adSyncLookbackDays() - 1)) : addDays(to, -(FIRST_SYNC_DAYS - 1)));
  const source = options.source ?? adSourceFor(account.source as AdSourceId);

  let readings: DailyReading[];
  try {
    readings = await source.fetchDaily(
      { externalId: account.externalId, currency: account.currency, accessToken: openToken(account.accessToken), loginCustomerId: account.loginCustomerId },
      from,
      to,
    );
  } catch (error) {
    const message = errorText(error);
    await db.$transaction(async (tx) => {
      // Conditional on the status read in this transaction: two failing syncs racing tell once.
      const turned = await tx.adAccount.updateMany({
        where: { id: account.id, syncStatus: { not: 'error' } },
        data: { syncStatus: 'error', lastSyncAt: now, lastError: message, lastErrorAt: now },
      });
      if (turned.count === 1) {
        await writeNotification(tx, account.workspaceId, 'sync.failed', `Ad account “${account.name}” stopped syncing`, message, { accountId: account.id });
      } else {
        await tx.adAccount.update({ where: { id: account.id }, data: { syncStatus: 'error', lastSyncAt: now, lastError: message, lastErrorAt: now } });
      }
    });
    return { accountId, ok: false, from, to, days: 0, error: message };
  }

  const inWindow = readings.filter((r) => r.day >= from && r.day <= to);
  await db.$transaction(async (tx) => {
    await tx.adMetricDaily.deleteMany({ where: { accountId: account.id, day: { gte: new Date(`${from}T00:00:00Z`), lte: new Date(`${to}T00:00:00Z`) } } });
    if (inWindow.length) {
      await tx.adMetricDaily.createMany({
        data: inWindow.map((r) => ({
          accountId: account.id,
          workspaceId: account.workspaceId,
          day: new Date(`${r.day}T00:00:00Z`),
          impressions: r.impressions === null ? null : BigInt(Math.round(r.impressions)),
          reach: r.reach === null ? null : BigInt(Math.round(r.reach)),
          clicks: r.clicks === null ? null : BigInt(Math.round(r.clicks)),
          spend: r.spend,
          conversions: r.conversions,
          currency: r.currency,
          source: account.source,
          collectedAt: now,
        })),
      });
    }
    const through = account.syncedThrough && account.syncedThrough.toISOString().slice(0, 10) > to ? account.syncedThrough : new Date(`${to}T00:00:00Z`);
    await tx.adAccount.update({
      where: { id: account.id },
      data: { syncStatus: 'ok', lastSyncAt: now, lastSuccessAt: now, lastError: null, lastErrorAt: null, syncedThrough: through },
    });
  });
  return { accountId, ok: true, from, to, days: inWindow.length };
}

/** The job key of one account's sync for one day: a second enqueue the same day replaces the first. */
export const adSyncJobKey = (accountId: string, day: string) => `ad-sync:${accountId}:${day}`;

/** Cron: one `analytics.sync-account` job per ad account of every workspace. */
export async function enqueueAdSyncs(now: Date = new Date()): Promise<number> {
  const accounts = await db.adAccount.findMany({ select: { id: true } });
  const day = now.toISOString().slice(0, 10);
  for (const a of accounts) await getJobs().enqueue('analytics.sync-account', { accountId: a.id }, { key: adSyncJobKey(a.id, day) });
  return accounts.length;
}
