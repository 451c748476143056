// Feeds a workspace follows: add (the URL through the outbound guard, read once to prove it is a
// feed and to take its title), read, change, delete; and checkFeed, one read that turns each
// new item into a post from the feed's template (docs/decisions.md, "Feeds").
import { Prisma } from '@/server/generated/prisma/client';
import type { Feed } from '@/server/generated/prisma/client';
import { db, type Tx } from '@/server/db/client';
import { AppError, isAppError } from '@/server/errors/app-error';
import { describeIssues } from '@/server/errors/http';
import { log } from '@/server/observability/log';
import { createPost } from '@/server/posts/create-post';
import { loadTargetConnections } from '@/server/posts/post-inputs';
import { ZCreatePostInput } from '@/server/posts/posts.schemas';
import { isUuid } from '@/server/shared/schemas';
import {
  DEFAULT_TEMPLATE,
  FEED_PAUSE_AFTER,
  type CreateFeedInput,
  type FeedCheckDto,
  type FeedDto,
  type FeedMode,
  type FeedStatus,
  type UpdateFeedInput,
} from './feeds.schemas';
import type { FeedItemData } from './parse-feed';
import { feedFetcher, FeedReadError, readFeed } from './read-feed';

/** How often the background job reads an active feed. */
export const FEED_CHECK_INTERVAL_MINUTES = 15;
/** Feeds one run of the job reads; the rest wait for the next run (oldest read first). */
export const FEEDS_PER_RUN = 200;
const MAX_TITLE = 300;

export function feedNotFound(): AppError {
  return new AppError('FEED_NOT_FOUND', 'No feed with that id', { field: 'id' });
}

export function toFeedDto(f: Feed): FeedDto {
  return {
    id: f.id,
    url: f.url,
    title: f.title,
    connectionIds: f.connectionIds,
    mode: f.mode as FeedMode,
    template: f.template,
    useImage: f.useImage,
    status: f.status as FeedStatus,
    lastCheckedAt: f.lastCheckedAt?.toISOString() ?? null,
    lastError: f.lastError,
    consecutiveFailures: f.consecutiveFailures,
    createdAt: f.createdAt.toISOString(),
    updatedAt: f.updatedAt.toISOString(),
  };
}

/** The feed, in this workspace only: another workspace's id is as unknown as one never issued. */
export async function findFeed(workspaceId: string, id: string, tx: Tx = db): Promise<Feed> {
  if (!isUuid(id)) throw feedNotFound();
  const feed = await tx.feed.findFirst({ where: { id, workspaceId } });
  if (!feed) throw feedNotFound();
  return feed;
}

/** The outbound rules, with DNS now; every read is checked again at connect time. */
async function allowedUrl(url: string): Promise<string> {
  const checked = await feedFetcher().check(url);
  if (!checked.ok) throw new AppError('FEED_URL_REFUSED', `The URL was refused: ${checked.reason}`, { field: 'url' });
  return checked.url.href;
}

async function readOrRefuse(url: string) {
  try {
    return await readFeed(url);
  } catch (error) {
    if (error instanceof FeedReadError) throw new AppError('FEED_UNREADABLE', error.message, { field: 'url' });
    throw error;
  }
}

/**
 * The checks of a create or an edit that read nothing outside Herald: the feed (for an edit),
 * the accounts, the URL rules. Also run before a call is staged (server/proposals/prechecks.ts).
 */
export async function checkFeedChange(workspaceId: string, id: string | null, input: { url?: string; connectionIds?: readonly string[] }) {
  if (id !== null) await findFeed(workspaceId, id);
  if (input.connectionIds) await loadTargetConnections(workspaceId, input.connectionIds);
  return { url: input.url !== undefined ? await allowedUrl(input.url) : undefined };
}

/** The items listed when a feed is added (or its URL changed) are taken as already seen. */
async function markSeen(tx: Tx, feedId: string, items: readonly FeedItemData[]) {
  if (items.length === 0) return;
  await tx.feedItem.createMany({ data: items.map((i) => ({ feedId, key: i.key })), skipDuplicates: true });
}

export async function listFeeds(workspaceId: string): Promise<FeedDto[]> {
  const rows = await db.feed.findMany({ where: { workspaceId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  return rows.map(toFeedDto);
}

export async function getFeed(workspaceId: string, id: string): Promise<FeedDto> {
  return toFeedDto(await findFeed(workspaceId, id));
}

export async function createFeed(workspaceId: string, input: CreateFeedInput): Promise<FeedDto> {
  const { url } = await checkFeedChange(workspaceId, null, input);
  const parsed = await readOrRefuse(url!);
  const row = await db.$transaction(async (tx) => {
    const feed = await tx.feed.create({
      data: {
        workspaceId,
        url: url!,
        title: parsed.title.slice(0, MAX_TITLE),
        connectionIds: [...new Set(input.connectionIds)],
        mode: input.mode ?? 'draft',
        template: input.template ?? DEFAULT_TEMPLATE,
        useImage: input.useImage ?? true,
        lastCheckedAt: new Date(),
      },
    });
    await markSeen(tx, feed.id, parsed.items);
    return feed;
  });
  return toFeedDto(row);
}

/**
 * Only sent fields change. A new URL is read at once (refused when it is not a feed) and its
 * current items are taken as seen, like a new feed's. `status: 'active'` resumes a paused feed
 * and resets consecutiveFailures.
 */
export async function updateFeed(workspaceId: string, id: string, input: UpdateFeedInput): Promise<FeedDto> {
  const { url } = await checkFeedChange(workspaceId, id, input);
  const parsed = url !== undefined ? await readOrRefuse(url) : undefined;
  const row = await db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ status: string }[]>`
      SELECT "status" FROM "Feed" WHERE "id" = ${id}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR NO KEY UPDATE`;
    if (!locked) throw feedNotFound();
    const resuming = input.status === 'active' && locked.status !== 'active';
    if (parsed) await markSeen(tx, id, parsed.items);
    return tx.feed.update({
      where: { id },
      data: {
        ...(url !== undefined && parsed
          ? { url, title: parsed.title.slice(0, MAX_TITLE), lastError: null, consecutiveFailures: 0, lastCheckedAt: new Date() }
          : {}),
        ...(input.connectionIds ? { connectionIds: [...new Set(input.connectionIds)] } : {}),
        ...(input.mode !== undefined ? { mode: input.mode } : {}),
        ...(input.template !== undefined ? { template: input.template } : {}),
        ...(input.useImage !== undefined ? { useImage: input.useImage } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        ...(resuming ? { consecutiveFailures: 0 } : {}),
      },
    });
  });
  return toFeedDto(row);
}

/** Deletes the feed and its record of used items; the posts made from it stay. */
export async function deleteFeed(workspaceId: string, id: string): Promise<void> {
  await findFeed(workspaceId, id);
  const { count } = await db.feed.deleteMany({ where: { id, workspaceId } });
  if (count === 0) throw feedNotFound();
}

/** {title}, {link} and {summary} replaced in one pass, so an item's text is never read as a placeholder. */
export function renderTemplate(template: string, item: Pick<FeedItemData, 'title' | 'link' | 'summary'>): string {
  return template
    .replace(/\{(title|link|summary)\}/g, (_, name: 'title' | 'link' | 'summary') => item[name])
    .replace(/[ \t]+\n/g, '\n')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/** The post an item becomes, or why it cannot be one (checked before anything is written). */
function postInputFor(feed: Feed, item: FeedItemData, withImage: boolean) {
  const parsed = ZCreatePostInput.safeParse({
    content: renderTemplate(feed.template, item),
    connectionIds: feed.connectionIds,
    ...(withImage && item.imageUrl ? { mediaUrls: [item.imageUrl] } : {}),
    ...(feed.mode === 'queue' ? { queue: true } : {}),
  });
  if (!parsed.success) return { error: `The post from this item was refused: ${describeIssues(parsed.error.issues).join('; ')}` };
  return { input: parsed.data };
}

/**
 * One item's post. The item is claimed first (an insert that does nothing when the feed
 * already has that key), so a re-read, an edited item or two reads at once never make a
 * second post; the post is created after the claim and its id written back. A crash between
 * the two leaves the item claimed without a post: it is skipped, never posted twice.
 */
async function useItem(feed: Feed, item: FeedItemData): Promise<{ postId?: string; error?: string } | null> {
  const claimed = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO "FeedItem" ("id", "feedId", "key") VALUES (gen_random_uuid(), ${feed.id}::uuid, ${item.key})
    ON CONFLICT ("feedId", "key") DO NOTHING RETURNING "id"`;
  const claim = claimed[0];
  if (!claim) return null;

  const attempt = async (withImage: boolean) => {
    const built = postInputFor(feed, item, withImage);
    if (!built.input) return { error: built.error };
    const { post } = await createPost(feed.workspaceId, built.input, { requester: async () => `Feed “${feed.title || feed.url}”` });
    return { postId: post.id };
  };
  let outcome: { postId?: string; error?: string };
  try {
    try {
      outcome = await attempt(feed.useImage);
    } catch (error) {
      // An image the media service refuses (too large, not an image, unreachable) should not
      // cost the item its post: it goes out without the image.
      if (!(isAppError(error) && error.code.startsWith('MEDIA_') && feed.useImage && item.imageUrl)) throw error;
      outcome = await attempt(false);
    }
  } catch (error) {
    if (!isAppError(error) || error.status >= 500) {
      // Not a refusal of this item (the database, storage): release the claim so a later read tries again.
      await db.feedItem.delete({ where: { id: claim.id } }).catch(() => undefined);
      throw error;
    }
    outcome = { error: `The post from this item was refused: ${error.message}` };
  }
  await db.feedItem.update({ where: { id: claim.id }, data: { postId: outcome.postId ?? null, error: outcome.error ?? null } });
  return outcome;
}

async function recordFailure(feed: Feed, message: string): Promise<Feed> {
  const [row] = await db.$queryRaw<Feed[]>`
    UPDATE "Feed" SET
      "lastError" = ${message},
      "lastCheckedAt" = now(),
      "consecutiveFailures" = "consecutiveFailures" + 1,
      "status" = CASE WHEN "consecutiveFailures" + 1 >= ${FEED_PAUSE_AFTER} THEN 'paused' ELSE "status" END,
      "updatedAt" = now()
    WHERE "id" = ${feed.id}::uuid
    RETURNING *`;
  return row ?? feed;
}

/**
 * Reads the feed once and makes a post of each item not used before, oldest first. A read
 * that fails is recorded on the feed (lastError, consecutiveFailures; paused at
 * FEED_PAUSE_AFTER); a good one clears them and refreshes the title.
 */
export async function checkFeed(feedId: string): Promise<FeedCheckDto | null> {
  const feed = await db.feed.findUnique({ where: { id: feedId } });
  if (!feed) return null;
  let parsed;
  try {
    parsed = await readFeed(feed.url);
  } catch (error) {
    if (!(error instanceof FeedReadError)) throw error;
    return { feed: toFeedDto(await recordFailure(feed, error.message)), itemsRead: 0, postIds: [], refused: [] };
  }
  const postIds: string[] = [];
  const refused: { key: string; error: string }[] = [];
  // Feeds list the newest first; posting the oldest first keeps the queue in the feed's order.
  const seen = new Set<string>();
  for (const item of [...parsed.items].reverse()) {
    if (seen.has(item.key)) continue;
    seen.add(item.key);
    const outcome = await useItem(feed, item);
    if (outcome?.postId) postIds.push(outcome.postId);
    if (outcome?.error) refused.push({ key: item.key, error: outcome.error });
  }
  const row = await db.feed.update({
    where: { id: feed.id },
    data: { title: parsed.title.slice(0, MAX_TITLE) || feed.title, lastError: null, consecutiveFailures: 0, lastCheckedAt: new Date() },
  });
  return { feed: toFeedDto(row), itemsRead: parsed.items.length, postIds, refused };
}

/** POST /feeds/{id}/check: a paused feed is resumed first (PATCH status active). */
export async function checkFeedNow(workspaceId: string, id: string): Promise<FeedCheckDto> {
  const feed = await findFeed(workspaceId, id);
  assertActive(feed);
  const result = await checkFeed(feed.id);
  if (!result) throw feedNotFound();
  return result;
}

export function assertActive(feed: Pick<Feed, 'status'>): void {
  if (feed.status !== 'active') {
    throw new AppError('VALIDATION_FAILED', 'The feed is paused: resume it (PATCH status active) first.', { status: 409 });
  }
}

/**
 * The job: every active feed not read for FEED_CHECK_INTERVAL_MINUTES, oldest read first. The
 * feeds are taken by stamping lastCheckedAt under SKIP LOCKED, so two runners never read the
 * same feed in one round; one feed's failure does not stop the others.
 */
export async function checkDueFeeds(now = new Date()): Promise<{ checked: number }> {
  // A minute of slack, so a run a few seconds early does not skip a feed for a whole interval.
  const dueBefore = new Date(now.getTime() - (FEED_CHECK_INTERVAL_MINUTES - 1) * 60_000);
  const due = await db.$queryRaw<{ id: string }[]>(Prisma.sql`
    UPDATE "Feed" SET "lastCheckedAt" = ${now}
    WHERE "id" IN (
      SELECT "id" FROM "Feed"
      WHERE "status" = 'active' AND ("lastCheckedAt" IS NULL OR "lastCheckedAt" < ${dueBefore})
      ORDER BY "lastCheckedAt" ASC NULLS FIRST
      LIMIT ${FEEDS_PER_RUN}
      FOR UPDATE SKIP LOCKED)
    RETURNING "id"`);
  for (const { id } of due) {
    try {
      await checkFeed(id);
    } catch (error) {
      log.error('feeds', 'Reading a feed failed', error, { feedId: id });
    }
  }
  return { checked: due.length };
}
