// Token health as the contract names it: valid, expiring_soon, expired, unknown.
import { catalogueEntry } from '@/server/platforms/catalogue';
import { isPlatform } from '@/server/shared/platforms';
import type { TokenHealth } from './connections.schemas';

export const EXPIRING_SOON_MS = 7 * 24 * 3_600_000;

export function tokenHealth(c: { status: string; tokenExpiresAt: Date | null; provider?: string; platform?: string }, now = new Date()): TokenHealth {
  if (c.tokenExpiresAt && c.tokenExpiresAt.getTime() <= now.getTime()) return 'expired';
  if (c.status !== 'active') return 'expired';
  // A sandbox account's access never lapses by itself (its "expired" behaviour sets a past
  // expiry, above): it is known to be valid, not unknown.
  // Nor does a grant the platform never expires (a Telegram bot, a Discord or Slack webhook).
  if (!c.tokenExpiresAt)
    return c.provider === 'sandbox' || (c.platform && isPlatform(c.platform) && catalogueEntry(c.platform).tokensExpire === false) ? 'valid' : 'unknown';
  return c.tokenExpiresAt.getTime() - now.getTime() < EXPIRING_SOON_MS ? 'expiring_soon' : 'valid';
}

/** Whether a post may target this connection now (else CONNECTION_EXPIRED). */
export function isUsable(c: { status: string; tokenExpiresAt: Date | null }, now = new Date()): boolean {
  return tokenHealth(c, now) !== 'expired';
}
