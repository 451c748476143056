// A post's first comment on each account where it landed (first-comment.ts says which text
// goes where). Posted after the post, through the network's comments client (the same reply
// the inbox uses), with an outcome of its own on the target: a refused comment never marks
// the post failed, and a retry posts the comment only, never the post again.
//
// Never twice: each comment is claimed (posting, attempts + 1, startedAt) in a committed
// statement before the network is called, and its outcome is written only while that claim
// holds. A claim found older than the delivery lease was cut off by a crash: Herald reads the
// post's comments and looks for its own with that text. Found: posted. The network's list is
// complete and it is not there: posted now. The network cannot say: failed, for a person to
// check before sending it again (the retry).
import { db } from '@/server/db/client';
import type { Connection, PostTarget } from '@/server/generated/prisma/client';
import type { Platform } from '@/server/shared/platforms';
import { commentsClientFor } from '@/server/platforms/comments-clients';
import type { CommentsClient } from '@/server/platforms/comments';
import { log } from '@/server/observability/log';
import { firstCommentFor } from '../first-comment';
import { connectionTokens, publishableConnection } from './connection-tokens';
import { leaseSeconds } from './lease';

export interface FirstCommentOptions {
  /** Also send again the comments that failed (a retry); otherwise only those never tried. */
  retryFailed?: boolean;
  /** Only these targets (the app's per-account retry). */
  targetIds?: readonly string[];
  /** Replaces the accounts' clients (tests). */
  client?: (connection: Connection) => CommentsClient | null;
  now?: () => Date;
}

type PostText = { id: string; firstComment: string | null; platformSettings: unknown };

/** The key a network with idempotency keys (Mastodon) is given: one per target's first comment. */
const idempotencyKeyOf = (targetId: string) => `${targetId}:first-comment`;

/**
 * Posts the first comment of every landed target of the post that has one due. Targets with
 * nothing to post (no text, or a network Herald cannot comment on) are marked `none` once.
 */
export async function deliverFirstComments(post: PostText, options: FirstCommentOptions = {}): Promise<void> {
  // Most posts have no first comment: their landed targets are marked in one statement, so the
  // delivery pays one round trip for the feature it does not use.
  if (!hasAnyFirstComment(post)) {
    await db.postTarget.updateMany({ where: { postId: post.id, status: 'published', firstCommentStatus: null }, data: { firstCommentStatus: 'none' } });
    return;
  }
  const staleBefore = new Date(Date.now() - leaseSeconds() * 1000);
  const due = await db.postTarget.findMany({
    where: {
      postId: post.id,
      status: 'published',
      postedId: { not: null },
      ...(options.targetIds ? { id: { in: [...options.targetIds] } } : {}),
      OR: [
        { firstCommentStatus: null },
        { firstCommentStatus: 'posting', firstCommentStartedAt: { lt: staleBefore } },
        ...(options.retryFailed ? [{ firstCommentStatus: 'failed' }] : []),
      ],
    },
    include: { connection: true },
  });
  // Nothing to post on these (no text for their network, or it takes no comment): marked together.
  const nothing = due.filter((t) => t.firstCommentStatus === null && !firstCommentFor(t.platform as Platform, post));
  if (nothing.length)
    await db.postTarget.updateMany({ where: { id: { in: nothing.map((t) => t.id) }, firstCommentStatus: null }, data: { firstCommentStatus: 'none' } });
  const skip = new Set(nothing.map((t) => t.id));
  await Promise.allSettled(due.filter((t) => !skip.has(t.id)).map((target) => commentOnTarget(post, target, options)));
}

/** Whether the post has a first comment anywhere: its own field, or a network's setting. */
function hasAnyFirstComment(post: PostText): boolean {
  if (post.firstComment?.trim()) return true;
  const settings = (post.platformSettings ?? {}) as Record<string, { firstComment?: unknown } | undefined>;
  return Object.values(settings).some((s) => typeof s?.firstComment === 'string' && s.firstComment.trim() !== '');
}

async function commentOnTarget(post: PostText, target: PostTarget & { connection: Connection }, options: FirstCommentOptions): Promise<void> {
  const platform = target.platform as Platform;
  // With its tracked links where the workspace tracks them (written with the post, so every attempt sends, and looks for, the same text).
  const written = firstCommentFor(platform, post);
  const text = written === null ? null : (target.trackedFirstComment ?? written);
  const client = text ? (options.client?.(target.connection) ?? commentsClientFor({ provider: target.connection.provider, platform })) : null;
  if (!text || !client?.reply) {
    await db.postTarget.updateMany({ where: { id: target.id, firstCommentStatus: null }, data: { firstCommentStatus: 'none' } });
    return;
  }
  const connection = publishableConnection(target.connection);
  const now = options.now?.() ?? new Date();
  const ctx = { tokens: connectionTokens, now, idempotencyKey: idempotencyKeyOf(target.id) };

  if (target.firstCommentStatus === 'posting') {
    // Cut off mid-call: ask before sending again.
    const found = await findOwnComment(client, connection, target, text, now);
    if (found === 'unknown') {
      await db.postTarget.updateMany({
        where: { id: target.id, firstCommentStatus: 'posting', firstCommentAttempts: target.firstCommentAttempts },
        data: {
          firstCommentStatus: 'failed',
          firstCommentError:
            'Herald stopped while posting the first comment and the network could not be asked whether it has it: check the post, then send it again',
        },
      });
      return;
    }
    if (found) {
      await db.postTarget.updateMany({
        where: { id: target.id, firstCommentStatus: 'posting', firstCommentAttempts: target.firstCommentAttempts },
        data: { firstCommentStatus: 'posted', firstCommentId: found.id, firstCommentPermalink: found.permalink, firstCommentError: null },
      });
      return;
    }
  }

  // The claim, committed before the call: only one runner posts this comment.
  const claimed = await db.postTarget.updateMany({
    where: { id: target.id, firstCommentStatus: target.firstCommentStatus, firstCommentAttempts: target.firstCommentAttempts },
    data: { firstCommentStatus: 'posting', firstCommentAttempts: { increment: 1 }, firstCommentStartedAt: new Date(), firstCommentError: null },
  });
  if (claimed.count === 0) return;
  const attempts = target.firstCommentAttempts + 1;
  const mine = { id: target.id, firstCommentStatus: 'posting', firstCommentAttempts: attempts };
  try {
    const posted = await client.reply(connection, { postedId: target.postedId!, commentId: null }, text, ctx);
    await db.postTarget.updateMany({
      where: mine,
      data: { firstCommentStatus: 'posted', firstCommentId: posted.id, firstCommentPermalink: posted.permalink, firstCommentError: null },
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.warn('publishing', `the first comment on target ${target.id} failed`, error, { targetId: target.id });
    await db.postTarget.updateMany({ where: mine, data: { firstCommentStatus: 'failed', firstCommentError: message } });
  }
}

/** Herald's own comment with this text under the post: found, absent (the list is complete), or unknown. */
async function findOwnComment(
  client: CommentsClient,
  connection: ReturnType<typeof publishableConnection>,
  target: PostTarget,
  text: string,
  now: Date,
): Promise<{ id: string; permalink: string | null } | null | 'unknown'> {
  try {
    const read = await client.readComments(
      connection,
      { postedId: target.postedId!, publishedAt: target.publishedAt ?? now },
      { tokens: connectionTokens, now },
    );
    if (!read.ok) return 'unknown';
    const same = (value: string) => value.replace(/\s+/g, ' ').trim();
    const found = read.comments.find((c) => c.fromAccount && c.parentId === null && same(c.text) === same(text));
    if (found) return { id: found.id, permalink: found.permalink };
    return read.complete ? null : 'unknown';
  } catch {
    return 'unknown';
  }
}
