// A thread's later parts on each account where part 1 (the target) landed: each posted as a
// reply to the part before, in order, through the account's publisher (replyTo), so a part
// takes media as a post does. Runs inside the delivery, under the post's lease, after the
// targets and before the post's status is settled (deliver-post.ts).
//
// Never twice, never out of order: each part is claimed (posting, attempts + 1, startedAt) in a
// committed statement before its network is called, and its postedId is written the moment it
// lands, so whatever stops the delivery (a refusal, a crash, a lost answer) the next one starts
// at the first part not posted. A part the network refused is `failed` with the network's
// words and stops the thread there; a retry (POST /posts/{id}/retry, or publishing the failed
// post again) continues from it and never sends a landed part again. A part found `posting`
// was cut off mid-call: the network is asked (the reconcile port, with the part's own key and
// text) before anything is sent: found → posted, absent → sent again, unknown → failed with
// the evidence, and asked again before a retry sends it.
import { db } from '@/server/db/client';
import { kickOutboxDrain } from '@/server/events';
import { recordEvent } from '@/server/events/record-event';
import { openToken, openValue, sealValue } from '@/server/connections/token-sealing';
import type { Connection, PostTarget, PostThreadPart } from '@/server/generated/prisma/client';
import { log } from '@/server/observability/log';
import { catalogueEntry, parseStoredSettings, postsThreads } from '@/server/platforms/catalogue';
import { answerMayBeLost, type PublishResult } from '@/server/platforms/publisher';
import type { Reconciled } from '@/server/platforms/reconcile';
import { publisherFor } from '@/server/platforms/registry';
import { PLATFORMS, type Platform } from '@/server/shared/platforms';
import { storedParts, type StoredPart } from '../thread-parts';
import { connectionTokens } from './connection-tokens';
import { sandboxReceipts } from './sandbox-receipts';
import { ABSENT_TRUSTED_AFTER_MS, askNetwork } from './settle';

export interface ThreadOptions {
  /** Also send again the parts that failed (a retry, or a failed post published again). */
  retryFailed?: boolean;
  /** Only these targets (the app's per-account retry). */
  targetIds?: readonly string[];
}

type ThreadPost = { id: string; workspaceId: string; parts: unknown; platformSettings: unknown };

/** The key a network that takes one is given for a part: one per target and position (Mastodon's Idempotency-Key, Bluesky's record key). */
export const partKey = (targetId: string, position: number) => `${targetId}:part-${position}`;

/** Settings that belong to part 1 only: its media's alt texts, what it answers or quotes, its first comment. */
const PART_ONE_SETTINGS = new Set(['altTexts', 'replyTo', 'quoteTweet', 'firstComment']);

const THREAD_PLATFORMS = PLATFORMS.filter(postsThreads);

/**
 * Posts every part due on every landed target of the post that takes threads. A post without
 * parts costs nothing here.
 */
export async function deliverThreadParts(post: ThreadPost, options: ThreadOptions = {}): Promise<void> {
  const parts = storedParts(post.parts);
  if (!parts.length) return;
  // The parts each landed target owes, written once (what each sends, kept with it: its text
  // with tracked links where the workspace tracks them), so a crash at any later instant
  // leaves them to continue from.
  await db.$executeRaw`
    INSERT INTO "PostThreadPart" ("targetId", "position", "content", "mediaUrls")
    SELECT t."id", e.n::int + 1, COALESCE(t."trackedParts"[e.n::int], e.part ->> 'content'), ARRAY(SELECT jsonb_array_elements_text(COALESCE(e.part -> 'mediaUrls', '[]'::jsonb)))
    FROM "PostTarget" t JOIN "Post" p ON p."id" = t."postId", jsonb_array_elements(p."parts") WITH ORDINALITY AS e(part, n)
    WHERE t."postId" = ${post.id}::uuid AND t."status" = 'published' AND t."platform" = ANY(${THREAD_PLATFORMS}::text[])
    ON CONFLICT DO NOTHING`;
  const targets = await db.postTarget.findMany({
    where: {
      postId: post.id,
      status: 'published',
      postedId: { not: null },
      ...(options.targetIds ? { id: { in: [...options.targetIds] } } : {}),
      threadParts: { some: { status: { not: 'posted' } } },
    },
    include: { connection: true, threadParts: { orderBy: { position: 'asc' } } },
  });
  await Promise.allSettled(targets.map((target) => continueThread(post, parts, target, options)));
}

/** Where the target's thread stands: the first part not posted, and the part it answers. */
async function continueThread(
  post: ThreadPost,
  parts: readonly StoredPart[],
  target: PostTarget & { connection: Connection; threadParts: PostThreadPart[] },
  options: ThreadOptions,
): Promise<void> {
  let parent = target.postedId!;
  for (const part of target.threadParts) {
    if (part.status === 'posted') {
      parent = part.postedId!;
      continue;
    }
    if (part.status === 'failed' && !options.retryFailed) return;
    const posted = await deliverPart(post, parts[part.position - 2], target, part, parent);
    if (!posted) return;
    parent = posted.postedId;
  }
}

/** Sends one part (asking first when an earlier attempt may have landed); its result, or null when the thread stops here. */
async function deliverPart(
  post: ThreadPost,
  stored: StoredPart | undefined,
  target: PostTarget & { connection: Connection },
  part: PostThreadPart,
  replyTo: string,
): Promise<PublishResult | null> {
  const connection = target.connection;
  const platform = connection.platform as Platform;
  const where = { targetId: part.targetId, position: part.position };
  // Cut off mid-call by a crash, or failed without knowing whether it landed: ask first.
  if (part.status === 'posting' || (part.status === 'failed' && part.settlement)) {
    let verdict = await askAboutPart(connection, target, part);
    // "Not there" is believed only of an attempt old enough that its request cannot still land
    // (settle.ts), unless the network keys posts (a resend then answers with the post it has).
    const age = Date.now() - (part.startedAt ?? new Date()).getTime();
    if (verdict.outcome === 'absent' && !('idempotent' in catalogueEntry(platform).reconcile) && age < ABSENT_TRUSTED_AFTER_MS)
      verdict = { outcome: 'unknown', evidence: `${verdict.evidence}, ${Math.round(age / 1000)} s after the attempt began: its request may still land` };
    if (verdict.outcome === 'found') {
      await db.postThreadPart.updateMany({
        where: { ...where, status: part.status, attempts: part.attempts },
        data: {
          status: 'posted',
          postedId: verdict.result.postedId,
          permalink: verdict.result.permalink,
          error: null,
          postedAt: part.startedAt ?? new Date(),
          confirmedAt: new Date(),
          settlement: verdict.evidence,
        },
      });
      return verdict.result;
    }
    if (verdict.outcome === 'unknown') {
      await failUnconfirmed(post, target, part, verdict.evidence);
      return null;
    }
  }

  // The claim, committed before the call: only one runner sends this part, once.
  const claimed = await db.postThreadPart.updateMany({
    where: { ...where, status: part.status, attempts: part.attempts },
    data: { status: 'posting', attempts: { increment: 1 }, startedAt: new Date(), error: null, checkpoint: null, settlement: null },
  });
  if (claimed.count === 0) return null;
  const mine = { ...where, status: 'posting', attempts: part.attempts + 1 };
  let known: Record<string, string> = {};
  try {
    const settings = Object.fromEntries(
      Object.entries((((post.platformSettings ?? {}) as Record<string, unknown>)[platform] ?? {}) as Record<string, unknown>).filter(
        ([key]) => !PART_ONE_SETTINGS.has(key),
      ),
    );
    const result = await publisherFor({ provider: connection.provider, platform }).publish(
      { ...connection, platform, accessToken: openToken(connection.accessToken), platformData: (connection.platformData ?? {}) as Record<string, unknown> },
      {
        content: part.content,
        mediaUrls: part.mediaUrls,
        mediaKinds: stored?.media.map((m) => m.kind),
        settings: parseStoredSettings(platform, settings),
        idempotencyKey: partKey(target.id, part.position),
        replyTo,
      },
      {
        tokens: connectionTokens,
        sandbox: sandboxReceipts,
        checkpoint: async (values) => {
          known = { ...known, ...values };
          await db.postThreadPart.updateMany({ where: mine, data: { checkpoint: sealValue(JSON.stringify(known)) } });
        },
      },
    );
    await db.postThreadPart.updateMany({
      where: mine,
      data: { status: 'posted', postedId: result.postedId, permalink: result.permalink, error: null, postedAt: new Date() },
    });
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.warn('publishing', `part ${part.position} of the thread on target ${target.id} failed`, error, { targetId: target.id, position: part.position });
    if (answerMayBeLost(error)) {
      // The request may have landed: ask before anything else (a retry asks again).
      const sent = await db.postThreadPart.findUnique({ where: { targetId_position: where } });
      const verdict = await askAboutPart(connection, target, sent ?? part);
      if (verdict.outcome === 'found') {
        await db.postThreadPart.updateMany({
          where: mine,
          data: {
            status: 'posted',
            postedId: verdict.result.postedId,
            permalink: verdict.result.permalink,
            postedAt: new Date(),
            confirmedAt: new Date(),
            settlement: verdict.evidence,
          },
        });
        return verdict.result;
      }
      await failUnconfirmed(post, target, { ...part, status: 'posting', attempts: part.attempts + 1 }, `${message}; asked: ${verdict.evidence}`);
      return null;
    }
    await stopThread(
      post,
      target,
      { ...where, status: 'posting', attempts: part.attempts + 1 },
      { status: 'failed', error: `Part ${part.position}: ${message}` },
      'PLATFORM_ERROR',
    );
    return null;
  }
}

/** The part's attempt as the reconcile port takes it: its own key, text, media, start and checkpoint. */
function askAboutPart(connection: Connection, target: PostTarget, part: PostThreadPart): Promise<Reconciled> {
  const sealed = part.checkpoint ? openValue(part.checkpoint) : null;
  return askNetwork(connection, {
    idempotencyKey: partKey(target.id, part.position),
    content: part.content,
    mediaUrls: part.mediaUrls,
    settings: {},
    startedAt: part.startedAt ?? new Date(),
    checkpoint: sealed ? (JSON.parse(sealed) as Record<string, string>) : undefined,
  });
}

/**
 * The thread stops at this part: the part's failure and the post.thread_stopped event in one
 * transaction, written only while the part is still in the attempt that failed (so once).
 */
async function stopThread(
  post: ThreadPost,
  target: PostTarget,
  part: { targetId: string; position: number; status: string; attempts: number },
  data: { status: 'failed'; error: string; settlement?: string },
  code: 'PLATFORM_ERROR' | 'DELIVERY_UNCONFIRMED',
): Promise<void> {
  const stopped = await db.$transaction(async (tx) => {
    const { count } = await tx.postThreadPart.updateMany({
      where: { targetId: part.targetId, position: part.position, status: part.status, attempts: part.attempts },
      data,
    });
    if (count === 0) return false;
    await recordEvent(tx, {
      workspaceId: post.workspaceId,
      type: 'post.thread_stopped',
      data: {
        postId: post.id,
        targetId: target.id,
        platform: target.platform,
        position: part.position,
        error: { code, message: data.error },
        stoppedAt: new Date().toISOString(),
      },
    });
    return true;
  });
  if (stopped) void kickOutboxDrain();
}

/** Failed, with what Herald knows: a retry asks the network again before it sends the part. */
async function failUnconfirmed(post: ThreadPost, target: PostTarget, part: PostThreadPart, evidence: string): Promise<void> {
  await stopThread(
    post,
    target,
    part,
    {
      status: 'failed',
      error: `Part ${part.position} was cut off and Herald could not confirm whether it went out: ${evidence}. A retry asks the network again before sending it.`,
      settlement: evidence,
    },
    'DELIVERY_UNCONFIRMED',
  );
}
