// POST /posts: a draft, or a scheduled post (with the approval rule), targets included.
import type { Platform } from '@/server/shared/platforms';
import { db, type Tx } from '@/server/db/client';
import { hasLinks, trackPostLinks } from '@/server/links/track-links';
import { holdMediaAssets } from '@/server/media/media-usage';
import { takeQueueSlot } from '@/server/queue/posting-queue';
import { kickOutboxDrain } from '@/server/events';
import { recordEvent } from '@/server/events/record-event';
import type { Warning } from '@/server/shared/schemas';
import { scheduleDelivery } from './delivery/schedule';
import { accountTextLimits, checkPlatformLimits } from './platform-limits';
import { validatePlatformSettings } from './platform-settings';
import {
  checkVariants,
  loadTargetConnections,
  mediaRefs,
  platformsOf,
  resolveMedia,
  toStoredMedia,
  withImportedMedia,
  workspaceRequiresApproval,
} from './post-inputs';
import { toPostDto } from './post-dto';
import { insertPostRow, type NewPost, type PostWithTargets } from './post-rows';
import { APPROVAL_WARNING, approvalNeeded, checkQueueOrTime, isApprovalBlocking, resolveScheduledAt } from './post-rules';
import type { CreatePostInput, PostDto } from './posts.schemas';
import { resolveParts, type StoredPart } from './thread-parts';

/** `requester` names who asked when the post goes to the approval queue (called only then). */
export interface WriteOptions {
  requester?: () => Promise<string>;
  /** The clock of the create (the queue slot is the next free one after it); the real time by default. */
  now?: Date;
  /** The published post this one repeats (an evergreen repeat, server/evergreen), linked in the insert. */
  evergreenOf?: string;
  /**
   * Runs inside the insert's transaction, after the insert (and after the queue slot was taken):
   * what the caller writes with the post commits or rolls back with it. Throwing undoes the post.
   */
  afterInsert?: (tx: Tx, post: PostWithTargets) => Promise<void>;
}

/** The checks of a create that read and fetch nothing outside the workspace: targets, variants, settings, time. */
async function checkNewPost(workspaceId: string, input: CreatePostInput, now: Date, warnings: Warning[]) {
  const connections = await loadTargetConnections(workspaceId, input.connectionIds);
  const platforms = platformsOf(connections);
  checkVariants(input.variants, platforms);
  const settings = validatePlatformSettings(input.platformSettings, platforms);
  checkQueueOrTime(input);
  const scheduledAt = input.scheduledAt !== undefined ? resolveScheduledAt(input.scheduledAt, now, warnings) : null;
  return { connections, platforms, settings, scheduledAt };
}

/** The platform limits of a new post's text, first comment and media, for the accounts it targets. */
function checkNewPostLimits(
  input: CreatePostInput,
  { connections, platforms, settings }: Pick<Awaited<ReturnType<typeof checkNewPost>>, 'connections' | 'platforms' | 'settings'>,
  media: Parameters<typeof checkPlatformLimits>[0]['media'],
  parts: readonly StoredPart[],
): void {
  checkPlatformLimits({
    platforms,
    content: input.content,
    variants: input.variants,
    media,
    settings,
    firstComment: input.firstComment,
    parts,
    accountTextLimits: accountTextLimits(connections),
  });
}

/**
 * Whether the create would be accepted now, writing nothing (run before a call is staged):
 * the checks above, then the platform limits with the media given by id. mediaUrls are
 * fetched only when the call runs (fetching stores them), so their checks wait until then.
 */
export async function checkCreatePost(workspaceId: string, input: CreatePostInput): Promise<void> {
  const { connections, platforms, settings } = await checkNewPost(workspaceId, input, new Date(), []);
  if (input.mediaUrls?.length || input.parts?.some((p) => p.mediaUrls?.length)) return;
  const media = await resolveMedia(workspaceId, { mediaIds: input.mediaIds });
  const { parts } = await resolveParts(workspaceId, input.parts);
  checkNewPostLimits(input, { connections, platforms, settings }, media, parts);
}

export async function createPost(workspaceId: string, input: CreatePostInput, opts: WriteOptions = {}): Promise<{ post: PostDto; warnings: Warning[] }> {
  const now = opts.now ?? new Date();
  const warnings: Warning[] = [];
  const { connections, platforms, settings, scheduledAt } = await checkNewPost(workspaceId, input, now, warnings);
  const media = await resolveMedia(workspaceId, input);
  const thread = await withImportedMedia(workspaceId, media, () => resolveParts(workspaceId, input.parts));
  const refs = [...mediaRefs(media), ...thread.refs];

  const post = await withImportedMedia(workspaceId, [...media, ...thread.media], async () => {
    checkNewPostLimits(input, { connections, platforms, settings }, media, thread.parts);
    // Added to the queue: scheduled, at the next free slot taken inside the insert's transaction.
    const queued = input.queue === true;
    const scheduled = scheduledAt !== null || queued;
    const needsApproval = scheduled && approvalNeeded(await workspaceRequiresApproval(workspaceId), input.requireApproval ?? false);
    if (needsApproval) warnings.push(APPROVAL_WARNING);
    const requestedBy = needsApproval && opts.requester ? await opts.requester() : null;

    const row: NewPost = {
      workspaceId,
      content: input.content,
      variants: input.variants ?? null,
      media: toStoredMedia(media),
      mediaUrls: media.map((m) => m.url),
      platforms,
      connections,
      status: scheduled ? 'scheduled' : 'draft',
      queued,
      approvalStatus: needsApproval ? 'pending' : 'none',
      approvalRequestedBy: needsApproval ? requestedBy : null,
      approvalRequestedAt: needsApproval ? now : null,
      requireApproval: input.requireApproval ?? false,
      scheduledAt,
      platformSettings: settings ?? null,
      firstComment: input.firstComment ?? null,
      parts: thread.parts,
      evergreenOf: opts.evergreenOf ?? null,
    };
    // A draft without media or links is one statement (atomic by itself); with media it holds
    // its assets against a concurrent delete; a scheduled post records its events with it. The
    // short links of a tracking workspace are made in the same transaction as the post (a
    // draft's are made again, the same, when it is edited; a scheduled post's before any
    // delivery): a post is never written without them, so a write retried with its
    // Idempotency-Key after a failure finds nothing half-written.
    const links = hasLinks({ ...input, platformSettings: settings, parts: thread.parts });
    if (!scheduled && refs.length === 0 && !links && !opts.afterInsert) return insertPostRow(row);
    if (!scheduled) {
      return db.$transaction(async (tx) => {
        await holdMediaAssets(tx, workspaceId, refs);
        const created = await insertPostRow(row, tx);
        if (links) await trackPostLinks(tx, created.id);
        await opts.afterInsert?.(tx, created);
        return created;
      });
    }
    return db.$transaction(async (tx) => {
      await holdMediaAssets(tx, workspaceId, refs);
      const at = queued ? await takeQueueSlot(tx, workspaceId, connections, now) : scheduledAt!;
      const created = await insertPostRow({ ...row, scheduledAt: at }, tx);
      if (links) await trackPostLinks(tx, created.id);
      await recordEvent(tx, {
        workspaceId,
        type: 'post.scheduled',
        data: { postId: created.id, scheduledAt: at.toISOString(), platforms: platforms as Platform[] },
      });
      if (needsApproval) await recordEvent(tx, { workspaceId, type: 'post.approval_required', data: { postId: created.id } });
      await opts.afterInsert?.(tx, created);
      return created;
    });
  });

  if (post.status === 'scheduled') {
    void kickOutboxDrain();
    if (!isApprovalBlocking(post.approvalStatus)) await scheduleDelivery(post);
  }
  return { post: toPostDto(post), warnings };
}
