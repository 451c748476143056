// Tracked links, the reading side of a click: a short code resolved to the destination Herald
// stored for it (never one the request names), and the click counted in memory and added to
// its (link, UTC day) row about once a second, many clicks in one statement. Nothing about the
// visitor is kept: no address, no user agent, no cookie, no referrer. Requests from crawlers
// and link-preview fetchers (by user agent) are redirected but not counted, and so are HEAD
// requests. What a crash can lose: the clicks of the last second not yet written.
import { sqlRows } from '@/server/db/sql';
import { Prisma } from '@/server/generated/prisma/client';
import { log } from '@/server/observability/log';
import { SHORT_CODE } from './links.schemas';

/** How often counted clicks are written. */
export const CLICK_FLUSH_MS = 1000;
/** How long a resolved code is kept in memory (a deleted post's links stop working within it). */
const CACHE_MS = 60_000;
const CACHE_MAX = 10_000;

/**
 * User agents that are not a person following a link: crawlers, link-preview fetchers of the
 * networks and chat apps, monitoring, and command-line clients. Matched case-insensitively
 * anywhere in the header; an empty or missing user agent is not counted either.
 */
export const BOT_USER_AGENT =
  /bot\b|bot\/|crawler|spider|slurp|facebookexternalhit|facebookcatalog|meta-externalagent|twitterbot|slackbot|linkedinbot|discordbot|telegrambot|whatsapp|skypeuripreview|embedly|redditbot|applebot|googlebot|google-inspectiontool|googleother|adsbot|mediapartners|bingbot|bingpreview|yandex|baiduspider|duckduckbot|petalbot|semrush|ahrefs|mj12bot|dotbot|bytespider|gptbot|claudebot|perplexitybot|headlesschrome|lighthouse|preview|curl\/|wget\/|python-requests|python-urllib|aiohttp|go-http-client|okhttp|java\/|libwww|httpclient|node-fetch|undici|axios|uptime|monitor|pingdom/i;

export const isBot = (userAgent: string | null | undefined): boolean => !userAgent || BOT_USER_AGENT.test(userAgent);

interface Resolved {
  id: string;
  destination: string;
}

/** Process-wide state on globalThis: Next bundles route handlers apart, and one buffer must serve them all. */
interface LinkState {
  cache: Map<string, Resolved & { until: number }>;
  /** `${linkId} ${YYYY-MM-DD}` → clicks not yet written */
  pending: Map<string, number>;
  timer: ReturnType<typeof setTimeout> | null;
  flushing: Promise<void> | null;
}
const KEY = Symbol.for('herald.links');
const state: LinkState = ((globalThis as Record<symbol, unknown>)[KEY] ??= {
  cache: new Map(),
  pending: new Map(),
  timer: null,
  flushing: null,
} satisfies LinkState) as LinkState;

/** The link a short code names, or null: a code of another form is not looked up at all. */
export async function resolveShortCode(code: string): Promise<Resolved | null> {
  if (!SHORT_CODE.test(code)) return null;
  const now = Date.now();
  const hit = state.cache.get(code);
  if (hit && hit.until > now) return hit;
  const [row] = await sqlRows<Resolved>(Prisma.sql`SELECT "id", "destination" FROM "TrackedLink" WHERE "code" = ${code}`);
  if (!row) {
    state.cache.delete(code);
    return null;
  }
  if (state.cache.size >= CACHE_MAX) state.cache.delete(state.cache.keys().next().value!);
  state.cache.set(code, { ...row, until: now + CACHE_MS });
  return row;
}

/** Counts one click on `linkId` today (UTC), written with the next flush. */
export function countClick(linkId: string, at: Date = new Date()): void {
  const key = `${linkId} ${at.toISOString().slice(0, 10)}`;
  state.pending.set(key, (state.pending.get(key) ?? 0) + 1);
  if (!state.timer) {
    state.timer = setTimeout(() => {
      state.timer = null;
      void flushClicks();
    }, CLICK_FLUSH_MS);
    state.timer.unref?.();
  }
}

/**
 * Writes the counted clicks: one statement adding each (link, day)'s count to its row. A link
 * deleted since (its post was deleted) is skipped. When the write fails, the counts go back to
 * the buffer and are tried again with the next click's flush.
 */
export async function flushClicks(): Promise<void> {
  if (state.flushing) await state.flushing;
  if (state.pending.size === 0) return;
  const batch = state.pending;
  state.pending = new Map();
  const ids: string[] = [];
  const days: string[] = [];
  const counts: number[] = [];
  for (const [key, n] of batch) {
    const [id, day] = key.split(' ') as [string, string];
    ids.push(id);
    days.push(day);
    counts.push(n);
  }
  state.flushing = (async () => {
    try {
      await sqlRows(Prisma.sql`
        INSERT INTO "LinkClickDay" ("linkId", "day", "clicks")
        SELECT c.id, c.day, c.n FROM unnest(${ids}::uuid[], ${days}::date[], ${counts}::int[]) AS c(id, day, n)
          JOIN "TrackedLink" k ON k.id = c.id
        ON CONFLICT ("linkId", "day") DO UPDATE SET "clicks" = "LinkClickDay"."clicks" + EXCLUDED."clicks"`);
    } catch (err) {
      log.warn('links', `could not write ${counts.reduce((a, b) => a + b, 0)} click(s); kept for the next write`, err);
      for (const [key, n] of batch) state.pending.set(key, (state.pending.get(key) ?? 0) + n);
    }
  })();
  try {
    await state.flushing;
  } finally {
    state.flushing = null;
  }
}

/**
 * One request for a short link: the destination to redirect to (counting the click unless it
 * is a HEAD request or a bot's), or null for a code Herald never made.
 */
export async function followShortLink(code: string, request: { method: string; userAgent: string | null }): Promise<string | null> {
  const link = await resolveShortCode(code);
  if (!link) return null;
  if (request.method === 'GET' && !isBot(request.userAgent)) countClick(link.id);
  return link.destination;
}

/** Tests: forget resolved codes (a deleted link is then not found at once). */
export function forgetShortCodes(): void {
  state.cache.clear();
}
