// The ad-insights port: what the daily sync asks of every ad source, live or sandbox.
import type { Fetcher } from '@/server/platforms/http';
import type { AdSourceId } from '../analytics.schemas';

/** One day of one account as the source reported it. null: the source gave no reading. */
export interface DailyReading {
  day: string;
  impressions: number | null;
  reach: number | null;
  clicks: number | null;
  /** Decimal text in the account currency (kept exact until PostgreSQL stores it as numeric). */
  spend: string | null;
  conversions: number | null;
  currency: string;
}

export interface AdAccountRef {
  externalId: string;
  currency: string;
  /** The opened access token; null for the sandbox. */
  accessToken: string | null;
  loginCustomerId: string | null;
}

export interface AdInsightsSource {
  id: AdSourceId;
  /** Readings for every day from `from` to `to` inclusive that the source reports; days it omits have no reading. */
  fetchDaily(account: AdAccountRef, from: string, to: string): Promise<DailyReading[]>;
}

/** What a live adapter is built with; production uses the defaults (guarded fetch, env base URL). */
export interface AdSourceOptions {
  fetch?: Fetcher;
  baseUrl?: string;
}

/** A failed sync, with the platform's own words (recorded verbatim on the account). */
export class AdSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdSourceError';
  }
}

/** A JSON number or numeric string as a number; anything else is no reading. */
export function numberOrNull(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

/** A decimal amount as exact text, or null. */
export function decimalOrNull(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return value.trim();
  return null;
}

export function requireToken(account: AdAccountRef, source: string): string {
  if (!account.accessToken) throw new AdSourceError(`No ${source} access token is stored for account ${account.externalId}; reconnect it.`);
  return account.accessToken;
}
