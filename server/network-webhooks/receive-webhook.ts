// The networks' own webhooks (POST /hooks/{network}): Meta's (Messenger, Instagram messages,
// Page recommendations), X's Account Activity API and Google's Pub/Sub review notifications.
// Each delivery is checked against the network's proof before anything is read from it (Meta's
// X-Hub-Signature-256, X's x-twitter-webhooks-signature, the token of Google's push URL), then
// its items are stored by the function the scheduled reads use (store-conversations.ts), so an
// item pushed and polled, in either order, is one row.
//
// Nothing half-written: a delivery is acknowledged only after its items and its record commit in
// one transaction (the usual delivery: one statement, shared with the usual deliveries arriving
// at the same moment, store-usual-deliveries.ts); killed before that, the network gets no
// answer and delivers again. A delivery's body digest is recorded with it, so a redelivery (the
// network retrying, or anyone replaying it) writes nothing twice; a delivery older than
// REPLAY_WINDOW_HOURS (past the networks' own retries, and past the digests kept) is refused as
// stale. Forged, stale and malformed deliveries are refused, logged (NetworkWebhookDelivery, and
// the server log) and write nothing else. docs/inbox.md lists what an operator registers with
// each network.
import { createHash } from 'node:crypto';
import { db } from '@/server/db/client';
import { env } from '@/server/config/env';
import { kickOutboxDrain } from '@/server/events/kick-outbox';
import { getJobs } from '@/server/jobs';
import { log } from '@/server/observability/log';
import type { PushedItems } from '@/server/platforms/conversations';
import { parseMetaMessaging } from '@/server/platforms/facebook/meta-messaging-webhook';
import { parseMetaRatings } from '@/server/platforms/facebook/meta-ratings-webhook';
import { parseGoogleReviewNotification } from '@/server/platforms/google_business/google-review-notification';
import { googlePushTokenValid, metaSignatureValid, metaVerifyChallenge, xCrcResponse, xSignatureValid } from '@/server/platforms/network-webhook-signatures';
import { parseXActivity } from '@/server/platforms/twitter/x-activity-webhook';
import { storeMessages, storeReviews } from '@/server/inbox/store-conversations';
import { pushReceivedSql, storeUsualDelivery, usualDelivery, type WebhookAccount } from '@/server/network-webhooks/store-usual-deliveries';
import { Prisma } from '@/server/generated/prisma/client';

export const WEBHOOK_NETWORKS = ['meta', 'x', 'google'] as const;
export type WebhookNetwork = (typeof WEBHOOK_NETWORKS)[number];

/** A delivery whose own time is older than this is refused (Meta retries for 36 hours). */
export const REPLAY_WINDOW_HOURS = 48;
/** The largest delivery read (Meta batches up to 1,000 updates; they stay far below this). */
const MAX_BODY_BYTES = 1024 * 1024;

type Verdict = { ok: true; items: PushedItems[]; sentAt: Date | null } | { ok: false; outcome: 'forged' | 'malformed' | 'unconfigured'; reason: string };

const refuse = (outcome: 'forged' | 'malformed' | 'unconfigured', reason: string): Verdict => ({ ok: false, outcome, reason });

function json(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The newest time a payload states for itself (entries, events), to tell a stale replay. */
function newestTime(items: readonly PushedItems[], stated: (Date | null)[] = []): Date | null {
  const times = [
    ...stated.filter((d): d is Date => d !== null),
    ...items.flatMap((i) => [...i.messages.map((m) => m.createdAt), ...i.reviews.map((r) => r.updatedAt ?? r.createdAt)]),
  ];
  return times.length ? new Date(Math.max(...times.map((t) => t.getTime()))) : null;
}

/** Meta: signed with the Meta app's secret (Facebook Login) or the Instagram app's (Instagram Login). */
function verifyMeta(req: Request, raw: Buffer): Verdict {
  const secrets = [env.metaAppSecret(), env.instagramAppSecret()].filter((s): s is string => Boolean(s));
  if (!secrets.length) return refuse('unconfigured', 'META_APP_SECRET (or INSTAGRAM_APP_SECRET) is not set');
  const header = req.headers.get('x-hub-signature-256');
  if (!secrets.some((secret) => metaSignatureValid(raw, header, secret))) return refuse('forged', 'X-Hub-Signature-256 does not match the body');
  const body = json(raw);
  if (!body || typeof body !== 'object') return refuse('malformed', 'The body is not a JSON object');
  const items = [...parseMetaMessaging(body), ...parseMetaRatings(body)];
  // entry[].time: when Meta sent the batch (seconds for changes, milliseconds for messaging).
  const entries = (body as { entry?: unknown }).entry;
  const stated = Array.isArray(entries)
    ? entries.map((e) => {
        const t = (e as { time?: unknown })?.time;
        return typeof t === 'number' && Number.isFinite(t) ? new Date(t < 1e12 ? t * 1000 : t) : null;
      })
    : [];
  return { ok: true, items, sentAt: newestTime(items, stated) };
}

function verifyX(req: Request, raw: Buffer): Verdict {
  const secret = env.xConsumerSecret();
  if (!secret) return refuse('unconfigured', 'X_CONSUMER_SECRET is not set');
  if (!xSignatureValid(raw, req.headers.get('x-twitter-webhooks-signature'), secret))
    return refuse('forged', 'x-twitter-webhooks-signature does not match the body');
  const body = json(raw);
  if (!body || typeof body !== 'object') return refuse('malformed', 'The body is not a JSON object');
  const items = parseXActivity(body);
  return { ok: true, items, sentAt: newestTime(items) };
}

function verifyGoogle(req: Request, raw: Buffer): Verdict {
  const token = env.googlePubsubVerificationToken();
  if (!token) return refuse('unconfigured', 'GOOGLE_PUBSUB_VERIFICATION_TOKEN is not set');
  if (!googlePushTokenValid(new URL(req.url), token)) return refuse('forged', 'The push URL’s token does not match');
  const body = json(raw);
  if (!body || typeof body !== 'object') return refuse('malformed', 'The body is not a JSON object');
  const publishTime = (body as { message?: { publishTime?: unknown } }).message?.publishTime;
  const stated = typeof publishTime === 'string' && !Number.isNaN(Date.parse(publishTime)) ? new Date(publishTime) : null;
  const items = parseGoogleReviewNotification(body);
  return { ok: true, items, sentAt: newestTime(items, [stated]) };
}

const VERIFY: Record<WebhookNetwork, (req: Request, raw: Buffer) => Verdict> = { meta: verifyMeta, x: verifyX, google: verifyGoogle };

const networkOf = (req: Request): WebhookNetwork | null => {
  const name = new URL(req.url).pathname.split('/')[2] ?? '';
  return (WEBHOOK_NETWORKS as readonly string[]).includes(name) ? (name as WebhookNetwork) : null;
};

const text = (status: number, body: string) =>
  new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });

/** GET /hooks/{network}: the subscription handshakes (Meta's hub.challenge, X's CRC). */
export async function handleNetworkWebhookCheck(req: Request): Promise<Response> {
  const network = networkOf(req);
  const url = new URL(req.url);
  if (network === 'meta') {
    const token = env.metaWebhookVerifyToken();
    const challenge = token ? metaVerifyChallenge(url.searchParams, token) : null;
    if (challenge === null) {
      log.warn('network-webhooks', 'a Meta subscription handshake was refused (hub.verify_token does not match, or META_WEBHOOK_VERIFY_TOKEN is unset)');
      return text(403, 'verify token does not match');
    }
    return text(200, challenge);
  }
  if (network === 'x') {
    const secret = env.xConsumerSecret();
    const crc = url.searchParams.get('crc_token');
    if (!secret || !crc) return text(403, 'crc_token missing or X_CONSUMER_SECRET unset');
    return Response.json({ response_token: xCrcResponse(crc, secret) }, { headers: { 'Cache-Control': 'no-store' } });
  }
  return text(network ? 405 : 404, network ? 'POST only' : 'unknown network');
}

/** A delivery that wrote nothing, with why: in the server log and the delivery record. */
async function logRefusal(network: string, outcome: string, reason: string): Promise<void> {
  log.warn('network-webhooks', `a ${network} webhook delivery wrote nothing (${outcome}): ${reason}`);
  try {
    await db.networkWebhookDelivery.create({ data: { network, outcome, reason } });
  } catch (error) {
    log.warn('network-webhooks', 'could not record a refused delivery', error);
  }
}

/** POST /hooks/{network}: one delivery, verified, stored once, acknowledged after commit. */
export async function handleNetworkWebhook(req: Request): Promise<Response> {
  const network = networkOf(req);
  if (!network) return text(404, 'unknown network');
  const length = Number(req.headers.get('content-length') ?? 0);
  if (length > MAX_BODY_BYTES) {
    await logRefusal(network, 'malformed', `a body of ${length} bytes`);
    return text(413, 'body too large');
  }
  const raw = Buffer.from(await req.arrayBuffer());
  if (raw.length > MAX_BODY_BYTES) {
    await logRefusal(network, 'malformed', `a body of ${raw.length} bytes`);
    return text(413, 'body too large');
  }
  const verdict = VERIFY[network](req, raw);
  if (!verdict.ok) {
    await logRefusal(network, verdict.outcome, verdict.reason);
    return text(verdict.outcome === 'malformed' ? 400 : 403, verdict.outcome);
  }
  const now = new Date();
  if (verdict.sentAt && now.getTime() - verdict.sentAt.getTime() > REPLAY_WINDOW_HOURS * 3_600_000) {
    await logRefusal(network, 'stale', `sent ${verdict.sentAt.toISOString()}, older than ${REPLAY_WINDOW_HOURS} hours`);
    return text(403, 'stale');
  }
  const digest = createHash('sha256').update(raw).digest('hex');
  const outcome = await storeDelivery(network, digest, verdict.items, now);
  if (outcome.duplicate) await logRefusal(network, 'duplicate', `the body (sha256 ${digest.slice(0, 12)}…) was stored before; nothing written`);
  return Response.json({ received: true, items: outcome.items, duplicate: outcome.duplicate }, { headers: { 'Cache-Control': 'no-store' } });
}

/** The live accounts the delivery's items belong to (one id may be connected in several workspaces). */
async function accountsOf(items: readonly PushedItems[]): Promise<WebhookAccount[]> {
  const ids = [...new Set(items.map((i) => i.accountId))];
  const platforms = [...new Set(items.flatMap((i) => i.platforms))];
  if (!ids.length) return [];
  return db.$queryRaw<WebhookAccount[]>`
    SELECT id, "workspaceId", platform, "externalId" FROM "Connection"
     WHERE "externalId" = ANY(${ids}::text[]) AND platform = ANY(${platforms}::text[]) AND status = 'active' AND provider <> 'sandbox'`;
}

/**
 * The delivery's record and its items in one transaction (the usual delivery: in one statement
 * shared with those arriving at the same time, store-usual-deliveries.ts); a digest already recorded means the delivery was stored before (a retry
 * after a lost answer, a replay): nothing is written.
 */
export async function storeDelivery(
  network: WebhookNetwork,
  digest: string,
  items: readonly PushedItems[],
  now: Date,
): Promise<{ items: number; duplicate: boolean }> {
  let accounts: WebhookAccount[] | undefined;
  const usual = usualDelivery(items);
  if (usual) {
    const key = `${usual.platforms.join(',')}:${usual.accountId}`;
    const known = knownAccounts.get(key);
    const remembered = known && known.until > now.getTime() ? known.account : undefined;
    if (!remembered) accounts = await accountsOf(items);
    const account = remembered ?? (accounts?.length === 1 ? accounts[0] : undefined);
    if (account) {
      const stored = await storeUsualDelivery({ network, digest, pushed: usual, account, receivedAt: now });
      if (stored) {
        if (!remembered) remember(key, account, now);
        return stored;
      }
      // No longer the live account it was (disconnected, paused), or no longer the only one: looked up again.
      knownAccounts.delete(key);
      accounts = undefined;
    }
  }
  accounts ??= await accountsOf(items);
  const reviewReads: string[] = [];
  const result = await db.$transaction(async (tx) => {
    const [delivery] = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO "NetworkWebhookDelivery" (id, network, outcome, digest, "receivedAt")
      VALUES (gen_random_uuid(), ${network}, ${accounts.length || !items.length ? 'accepted' : 'unknown_account'}, ${digest}, ${now})
      ON CONFLICT (network, digest) DO NOTHING RETURNING id`;
    if (!delivery) return { items: 0, duplicate: true };
    let written = 0;
    const touched = new Set<string>();
    for (const pushed of items) {
      for (const account of accounts) {
        if (account.externalId !== pushed.accountId || !(pushed.platforms as string[]).includes(account.platform)) continue;
        const store = { workspaceId: account.workspaceId, connectionId: account.id, platform: account.platform, source: `${network}-webhook` };
        written += await storeMessages(tx, store, pushed.messages, now);
        written += await storeReviews(tx, store, pushed.reviews, now, { complete: false });
        if (pushed.readReviews) reviewReads.push(account.id);
        touched.add(account.id);
      }
    }
    if (written) await tx.$executeRaw`UPDATE "NetworkWebhookDelivery" SET items = ${written} WHERE id = ${delivery.id}::uuid`;
    if (touched.size) await tx.$executeRaw(pushReceivedSql(Prisma.sql`SELECT unnest(${[...touched]}::uuid[])`, now));
    return { items: written, duplicate: false };
  });
  if (result.items) void kickOutboxDrain();
  if (reviewReads.length) {
    // Google names the review without carrying it: the account's reviews are read at once.
    await getJobs().enqueueMany(
      'inbox.conversations',
      [...new Set(reviewReads)].map((connectionId) => ({
        payload: { connectionId, kinds: ['review' as const] },
        key: `inbox-push-reviews:${connectionId}:${digest.slice(0, 16)}`,
      })),
    );
  }
  return result;
}

/**
 * The account a usual delivery's id was found to be, kept for KNOWN_ACCOUNT_MS so a busy
 * Page's deliveries do not each look it up again (a statement of its own). The statement that
 * stores checks that the account is still live with that id and still the only live one with
 * it (an index probe on externalId), and writes nothing otherwise: a disconnected or paused
 * account stops receiving at once, and the same Page connected in one more workspace sends the
 * next delivery down the path that stores it for every workspace. Ids found in no workspace, or
 * in several, are not kept.
 */
const KNOWN_ACCOUNT_MS = 30_000;
const KNOWN_ACCOUNTS_MAX = 10_000;
const knownAccounts = new Map<string, { account: WebhookAccount; until: number }>();

function remember(key: string, account: WebhookAccount, now: Date): void {
  if (knownAccounts.size >= KNOWN_ACCOUNTS_MAX) knownAccounts.clear();
  knownAccounts.set(key, { account, until: now.getTime() + KNOWN_ACCOUNT_MS });
}

/** Delivery records past the replay window are of no more use (inbox.sweep). */
export async function pruneWebhookDeliveries(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - 2 * REPLAY_WINDOW_HOURS * 3_600_000);
  return db.$executeRaw`DELETE FROM "NetworkWebhookDelivery" WHERE "receivedAt" < ${before}`;
}
