// Evergreen posts (docs/decisions.md, "Evergreen posts"): a published post repeated through the
// posting queue every intervalDays, each repeat a new post made by the create-post service in
// queue mode (the next free slot, the approval rule, post.scheduled), its text rotating through
// the setting's texts and never one a network would refuse as a duplicate inside its window.
import { Prisma } from '@/server/generated/prisma/client';
import type { EvergreenPost, Post } from '@/server/generated/prisma/client';
import { db } from '@/server/db/client';
import { AppError, isAppError } from '@/server/errors/app-error';
import { describeIssues } from '@/server/errors/http';
import { recordEvent } from '@/server/events/record-event';
import { log } from '@/server/observability/log';
import { duplicateWindowDays, platformName } from '@/server/platforms/catalogue';
import { createPost } from '@/server/posts/create-post';
import { accountTextLimits, checkPlatformLimits } from '@/server/posts/platform-limits';
import type { StoredMedia } from '@/server/posts/post-inputs';
import { ZCreatePostInput } from '@/server/posts/posts.schemas';
import { storedParts } from '@/server/posts/thread-parts';
import { isUuid } from '@/server/shared/schemas';
import type { Platform } from '@/server/shared/platforms';
import type { PlatformSettingsByPlatform } from '@/server/platforms/catalogue';
import type { EvergreenDto, EvergreenEndReason, EvergreenStatus, ListEvergreenQuery, SetEvergreenInput } from './evergreen.schemas';

const DAY = 86_400_000;
/** Statuses of a post that can be evergreen (and that its repeats are measured from). */
const PUBLISHED = ['published', 'partial_published'];
/** A repeat in these statuses is still to go out: no other repeat is queued meanwhile. */
const UNDELIVERED = ['scheduled', 'publishing'];
/** How soon the job looks again at a setting whose last repeat has not gone out yet. */
export const EVERGREEN_RECHECK_MINUTES = 60;
/** Settings one run of the job handles; the rest wait for the next run (most overdue first). */
export const EVERGREEN_PER_RUN = 200;

export function evergreenNotFound(): AppError {
  return new AppError('EVERGREEN_NOT_FOUND', 'This post is not evergreen', { field: 'id' });
}
const postNotFound = () => new AppError('POST_NOT_FOUND', 'No post with that id in this workspace', { field: 'id' });

export function toEvergreenDto(r: EvergreenPost): EvergreenDto {
  return {
    postId: r.postId,
    intervalDays: r.intervalDays,
    texts: r.texts,
    endsAt: r.endsAt?.toISOString() ?? null,
    maxRepeats: r.maxRepeats,
    repeats: r.repeats,
    nextDueAt: r.nextDueAt.toISOString(),
    lastQueuedPostId: r.lastQueuedPostId,
    status: r.status as EvergreenStatus,
    endedReason: r.endedReason as EvergreenEndReason | null,
    lastError: r.lastError,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The text compared for duplicates: Unicode NFC, case and runs of white space ignored. */
export const normaliseText = (text: string): string => text.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();

async function findPost(workspaceId: string, postId: string): Promise<Post> {
  if (!isUuid(postId)) throw postNotFound();
  const post = await db.post.findFirst({ where: { id: postId, workspaceId } });
  if (!post) throw postNotFound();
  return post;
}

function assertEligible(post: Post): void {
  if (post.evergreenOf) {
    throw new AppError('EVERGREEN_NOT_ELIGIBLE', `This post is a repeat of the evergreen post ${post.evergreenOf}: change that one`, { field: 'id' });
  }
  if (!PUBLISHED.includes(post.status)) {
    throw new AppError('EVERGREEN_NOT_ELIGIBLE', `Only a published post can be evergreen; this one is ${post.status.replace('_', ' ')}`, { field: 'id' });
  }
}

/** Each text against the limits of every account the post goes to (the create rules, once, here). */
async function checkTexts(post: Post, texts: readonly string[]): Promise<void> {
  if (texts.length === 0) return;
  const connections = await db.connection.findMany({ where: { workspaceId: post.workspaceId, id: { in: post.connectionIds.filter(isUuid) } } });
  texts.forEach((text, i) => {
    try {
      checkPlatformLimits({
        platforms: post.platforms as Platform[],
        content: text,
        variants: undefined,
        media: post.media as unknown as StoredMedia[],
        settings: post.platformSettings as PlatformSettingsByPlatform | null,
        firstComment: post.firstComment,
        accountTextLimits: accountTextLimits(connections),
      });
    } catch (error) {
      if (!isAppError(error)) throw error;
      throw new AppError(error.code, `texts[${i}]: ${error.message}`, { field: `texts[${i}]` });
    }
  });
}

/** Whether the setting would be accepted, writing nothing (also run before a call is staged). */
export async function checkSetEvergreen(workspaceId: string, postId: string, input: SetEvergreenInput, now = new Date()): Promise<Post> {
  const post = await findPost(workspaceId, postId);
  assertEligible(post);
  if (input.endsAt && Date.parse(input.endsAt) <= now.getTime()) {
    throw new AppError('VALIDATION_FAILED', 'endsAt is in the past: no repeat could be queued', { field: 'endsAt' });
  }
  await checkTexts(post, input.texts ?? []);
  return post;
}

/** When the post or one of its repeats last went out (null: never, as far as Herald knows). */
async function lastPublished(postId: string): Promise<Date | null> {
  const [row] = await db.$queryRaw<{ at: Date | null }[]>`
    SELECT max("publishedAt") AS at FROM "Post"
     WHERE ("id" = ${postId}::uuid OR "evergreenOf" = ${postId}::uuid) AND "status" = ANY(${PUBLISHED}::text[])`;
  return row?.at ?? null;
}

/**
 * PUT /posts/{id}/evergreen: makes a published post evergreen, or replaces its setting (an
 * ended one starts again; the repeats already made still count towards maxRepeats). The next
 * repeat is due intervalDays after the post, or its last repeat, went out.
 */
export async function setEvergreen(workspaceId: string, postId: string, input: SetEvergreenInput, now = new Date()): Promise<EvergreenDto> {
  const post = await checkSetEvergreen(workspaceId, postId, input, now);
  const base = (await lastPublished(post.id)) ?? now;
  const fields = {
    intervalDays: input.intervalDays,
    texts: input.texts ?? [],
    endsAt: input.endsAt ? new Date(input.endsAt) : null,
    maxRepeats: input.maxRepeats ?? null,
    nextDueAt: new Date(base.getTime() + input.intervalDays * DAY),
    status: 'active',
    endedReason: null,
    lastError: null,
  };
  const row = await db.evergreenPost.upsert({ where: { postId: post.id }, create: { postId: post.id, workspaceId, ...fields }, update: fields });
  return toEvergreenDto(row);
}

async function findEvergreen(workspaceId: string, postId: string): Promise<EvergreenPost> {
  if (!isUuid(postId)) throw evergreenNotFound();
  const row = await db.evergreenPost.findFirst({ where: { postId, workspaceId } });
  if (!row) throw evergreenNotFound();
  return row;
}

export async function getEvergreen(workspaceId: string, postId: string): Promise<EvergreenDto> {
  return toEvergreenDto(await findEvergreen(workspaceId, postId));
}

/** DELETE /posts/{id}/evergreen: no more repeats. A repeat already in the queue stays there (cancel it as any post). */
export async function stopEvergreen(workspaceId: string, postId: string): Promise<EvergreenDto> {
  const row = await findEvergreen(workspaceId, postId);
  if (row.status !== 'active') return toEvergreenDto(row);
  return toEvergreenDto(await db.evergreenPost.update({ where: { id: row.id }, data: { status: 'ended', endedReason: 'stopped' } }));
}

const encodeCursor = (row: { createdAt: Date; id: string }) => Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
function decodeCursor(cursor: string): { at: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const date = new Date(at ?? '');
  if (!id || !isUuid(id) || Number.isNaN(date.getTime())) {
    throw new AppError('VALIDATION_FAILED', 'cursor is not a nextCursor this list returned', { field: 'cursor' });
  }
  return { at: date, id };
}

/** GET /evergreen: the workspace's evergreen posts, most recently made evergreen first, a cursor page at a time. */
export async function listEvergreen(workspaceId: string, query: ListEvergreenQuery): Promise<{ data: EvergreenDto[]; nextCursor: string | null }> {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const rows = await db.evergreenPost.findMany({
    where: {
      workspaceId,
      ...(query.status !== 'all' ? { status: query.status } : {}),
      ...(after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  return { data: page.map(toEvergreenDto), nextCursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]!) : null };
}

// ——— The job ———

type Outcome =
  | { kind: 'queued'; postId: string }
  | { kind: 'ended'; reason: EvergreenEndReason }
  | { kind: 'postponed'; until: Date; reason: string | null }
  | { kind: 'refused'; error: string }
  | { kind: 'skipped' };

/** Thrown inside the repeat's transaction when another run queued this repeat first: the post is rolled back. */
class RepeatTaken extends Error {}

/** Writes an outcome that queues nothing, only while the setting is as this run read it. */
async function settle(row: EvergreenPost, data: Prisma.EvergreenPostUpdateManyMutationInput): Promise<void> {
  await db.evergreenPost.updateMany({ where: { id: row.id, status: 'active', repeats: row.repeats }, data });
}

interface RecentText {
  connectionId: string;
  platform: string;
  text: string;
  at: Date;
}

/**
 * The texts each account with a duplicate-text window has published, or has scheduled, within
 * its window of `now` (the repeat's slot is later, so this errs on the side of caution).
 */
async function recentTexts(workspaceId: string, targets: readonly { connectionId: string; platform: string }[], now: Date): Promise<RecentText[]> {
  const windowed = targets.filter((t) => duplicateWindowDays(t.platform as Platform) !== null);
  if (windowed.length === 0) return [];
  const longest = Math.max(...windowed.map((t) => duplicateWindowDays(t.platform as Platform)!));
  const since = new Date(now.getTime() - longest * DAY);
  const rows = await db.$queryRaw<RecentText[]>`
    SELECT t."connectionId"::text AS "connectionId", t."platform", COALESCE(p."variants" -> t."platform" ->> 'content', p."content") AS text,
           COALESCE(t."publishedAt", p."scheduledAt", p."createdAt") AS at
      FROM "PostTarget" t JOIN "Post" p ON p."id" = t."postId"
     WHERE p."workspaceId" = ${workspaceId}::uuid
       AND t."connectionId" = ANY(${windowed.map((t) => t.connectionId)}::uuid[])
       AND ((t."status" = 'published' AND t."publishedAt" >= ${since})
         OR (p."status" = ANY(${UNDELIVERED}::text[]) AND t."status" IN ('pending', 'publishing')))`;
  return rows.filter((r) => r.at.getTime() >= now.getTime() - duplicateWindowDays(r.platform as Platform)! * DAY);
}

/**
 * The text of the repeat: the rotation's pick (repeat n takes texts[(n-1) mod length]), or the
 * next one after it that no account with a duplicate-text window has published (or scheduled)
 * within that window. When every text is inside a window, none: the repeat waits until the
 * first one leaves it.
 */
async function pickText(row: EvergreenPost, source: Post, targets: readonly { connectionId: string; platform: string }[], now: Date) {
  const candidates = row.texts.length ? row.texts : [source.content];
  const ordered = candidates.map((_, k) => candidates[(row.repeats + k) % candidates.length]!);
  const recent = await recentTexts(source.workspaceId, targets, now);
  if (recent.length === 0) return { text: ordered[0]! };
  const variants = (row.texts.length ? null : source.variants) as Partial<Record<string, { content: string }>> | null;
  let until: Date | null = null;
  let blocker = '';
  for (const text of ordered) {
    const clashes = recent.filter((r) => normaliseText(r.text) === normaliseText(variants?.[r.platform]?.content ?? text));
    if (clashes.length === 0) return { text };
    const clear = Math.max(...clashes.map((c) => c.at.getTime() + duplicateWindowDays(c.platform as Platform)! * DAY));
    if (until === null || clear < until.getTime()) {
      until = new Date(clear);
      const first = clashes[0]!;
      blocker = `${platformName(first.platform)} refuses a text it had within ${duplicateWindowDays(first.platform as Platform)} days`;
    }
  }
  return {
    until: until!,
    reason: `Every text of this evergreen post went to an account within its duplicate-text window (${blocker}); the repeat waits until ${until!.toISOString()}`,
  };
}

/** One due setting: ended, postponed, refused, or one repeat queued. */
async function requeueOne(id: string, now: Date): Promise<Outcome> {
  const row = await db.evergreenPost.findUnique({ where: { id } });
  if (!row || row.status !== 'active' || row.nextDueAt > now) return { kind: 'skipped' };
  const end = async (reason: EvergreenEndReason): Promise<Outcome> => {
    await settle(row, { status: 'ended', endedReason: reason });
    return { kind: 'ended', reason };
  };
  const source = await db.post.findUnique({ where: { id: row.postId }, include: { targets: { select: { connectionId: true, platform: true } } } });
  if (!source || !PUBLISHED.includes(source.status)) return end('source_gone');
  if (row.endsAt && now >= row.endsAt) return end('ends_at');
  if (row.maxRepeats !== null && row.repeats >= row.maxRepeats) return end('max_repeats');

  // One repeat at a time, and the interval counts from when the last one went out.
  if (row.lastQueuedPostId) {
    const last = await db.post.findUnique({ where: { id: row.lastQueuedPostId }, select: { status: true, publishedAt: true } });
    if (last && UNDELIVERED.includes(last.status)) {
      const until = new Date(now.getTime() + EVERGREEN_RECHECK_MINUTES * 60_000);
      await settle(row, { nextDueAt: until, lastError: 'The last repeat has not gone out yet' });
      return { kind: 'postponed', until, reason: null };
    }
    if (last?.publishedAt && PUBLISHED.includes(last.status)) {
      const due = new Date(last.publishedAt.getTime() + row.intervalDays * DAY);
      if (due > now) {
        await settle(row, { nextDueAt: due });
        return { kind: 'postponed', until: due, reason: null };
      }
    }
  }

  const picked = await pickText(row, source, source.targets, now);
  if (picked.text === undefined) {
    await settle(row, { nextDueAt: picked.until, lastError: picked.reason });
    return { kind: 'postponed', until: picked.until, reason: picked.reason };
  }
  const refuse = async (error: string): Promise<Outcome> => {
    // Tried again a whole interval later: a refusal (an account gone, the queue full) rarely clears in minutes.
    await settle(row, { nextDueAt: new Date(now.getTime() + row.intervalDays * DAY), lastError: error });
    return { kind: 'refused', error };
  };
  const media = source.media as unknown as StoredMedia[];
  const parsed = ZCreatePostInput.safeParse({
    content: picked.text,
    connectionIds: source.connectionIds,
    ...(row.texts.length === 0 && source.variants ? { variants: source.variants } : {}),
    ...(media.length ? { mediaIds: media.map((m) => m.assetId) } : {}),
    ...(source.platformSettings ? { platformSettings: source.platformSettings } : {}),
    ...(source.firstComment ? { firstComment: source.firstComment } : {}),
    // A thread comes back whole: its later parts, with their media from the library.
    ...(storedParts(source.parts).length
      ? {
          parts: storedParts(source.parts).map((part) => ({
            content: part.content,
            ...(part.media.length ? { mediaIds: part.media.map((m) => m.assetId) } : {}),
          })),
        }
      : {}),
    ...(source.requireApproval ? { requireApproval: true } : {}),
    queue: true,
  });
  if (!parsed.success) return refuse(`The repeat was refused: ${describeIssues(parsed.error.issues).join('; ')}`);

  const repeat = row.repeats + 1;
  const text = picked.text;
  try {
    const { post } = await createPost(source.workspaceId, parsed.data, {
      now,
      evergreenOf: source.id,
      requester: async () => 'Evergreen repeat',
      afterInsert: async (tx, created) => {
        const at = created.scheduledAt!;
        const next = new Date(at.getTime() + row.intervalDays * DAY);
        const ends = row.maxRepeats !== null && repeat >= row.maxRepeats;
        // Only the run that moves repeats from what it read keeps its post: a concurrent run's rolls back.
        const taken = await tx.$executeRaw`
          UPDATE "EvergreenPost" SET "repeats" = ${repeat}, "lastQueuedPostId" = ${created.id}::uuid, "nextDueAt" = ${next},
                 "lastError" = NULL, "status" = ${ends ? 'ended' : 'active'}, "endedReason" = ${ends ? 'max_repeats' : null}, "updatedAt" = ${new Date()}
           WHERE "id" = ${row.id}::uuid AND "status" = 'active' AND "repeats" = ${row.repeats}`;
        if (taken === 0) throw new RepeatTaken();
        await recordEvent(tx, {
          workspaceId: source.workspaceId,
          type: 'post.evergreen_requeued',
          data: { postId: created.id, sourcePostId: source.id, repeat, scheduledAt: at.toISOString(), content: text },
        });
      },
    });
    return { kind: 'queued', postId: post.id };
  } catch (error) {
    if (error instanceof RepeatTaken) return { kind: 'skipped' };
    if (isAppError(error) && error.status < 500) return refuse(`The repeat was refused: ${error.message}`);
    throw error;
  }
}

/**
 * The job (evergreen.requeue): every active setting whose next repeat is due by `now`, most
 * overdue first. Two runs at once never queue one repeat twice: the repeat's post is inserted
 * with a conditional update of the setting's repeat count, and the run that loses rolls back.
 */
export async function requeueDueEvergreen(now = new Date()): Promise<{ queued: string[]; ended: number; postponed: number; refused: number }> {
  const due = await db.$queryRaw<{ id: string }[]>(Prisma.sql`
    SELECT "id" FROM "EvergreenPost" WHERE "status" = 'active' AND "nextDueAt" <= ${now}
     ORDER BY "nextDueAt" ASC LIMIT ${EVERGREEN_PER_RUN}`);
  const result = { queued: [] as string[], ended: 0, postponed: 0, refused: 0 };
  for (const { id } of due) {
    try {
      const outcome = await requeueOne(id, now);
      if (outcome.kind === 'queued') result.queued.push(outcome.postId);
      if (outcome.kind === 'ended') result.ended++;
      if (outcome.kind === 'postponed') result.postponed++;
      if (outcome.kind === 'refused') result.refused++;
    } catch (error) {
      log.error('evergreen', 'Queuing an evergreen repeat failed', error, { evergreenId: id });
    }
  }
  return result;
}
