// PATCH /posts/{id}: only sent fields change. A draft given scheduledAt becomes scheduled,
// a scheduled post given scheduledAt is rescheduled (post.scheduled again), scheduledAt
// null turns it back into a draft. Platform limits are checked again on the result.
import type { Platform } from '@/server/shared/platforms';
import { db } from '@/server/db/client';
import { kickOutboxDrain } from '@/server/events';
import { recordEvent } from '@/server/events/record-event';
import { Prisma } from '@/server/generated/prisma/client';
import { holdMediaAssets } from '@/server/media/media-usage';
import type { Warning } from '@/server/shared/schemas';
import { trackPostLinks } from '@/server/links/track-links';
import { scheduleDelivery, unscheduleDelivery } from './delivery/schedule';
import { lockPost } from './lock-post';
import { accountTextLimits, checkPlatformLimits } from './platform-limits';
import { validatePlatformSettings, type PlatformSettings } from './platform-settings';
import {
  checkVariants,
  loadTargetConnections,
  platformsOf,
  mediaRefs,
  resolveMedia,
  toStoredMedia,
  withImportedMedia,
  workspaceRequiresApproval,
  type StoredMedia,
} from './post-inputs';
import { toPostDto } from './post-dto';
import { findPostRow } from './read-posts';
import { APPROVAL_WARNING, approvalNeeded, assertEditable, isApprovalBlocking, resolveScheduledAt } from './post-rules';
import type { PostDto, UpdatePostInput } from './posts.schemas';
import type { WriteOptions } from './create-post';
import { assertThreadNotStarted, resolveParts, storedParts } from './thread-parts';

/** Fields whose change means a reviewer must look again. */
const REVIEWED_FIELDS = ['content', 'connectionIds', 'mediaIds', 'mediaUrls', 'variants', 'platformSettings', 'firstComment', 'parts'] as const;

/**
 * The checks of an edit that write and fetch nothing: the post exists here and can change,
 * and the new targets, variants, settings and time are accepted. Run first by updatePost,
 * and alone before a call is staged (mediaUrls are fetched, and limits re-checked, when it runs).
 */
export async function checkEdit(workspaceId: string, id: string, input: UpdatePostInput, now: Date = new Date(), warnings: Warning[] = []) {
  // One read of the row: the DTO for the rules, the stored media for re-checking limits.
  const row = await findPostRow(workspaceId, id);
  const current = toPostDto(row);
  assertEditable(current.status);

  const connections = input.connectionIds ? await loadTargetConnections(workspaceId, input.connectionIds) : null;
  const platforms = connections ? platformsOf(connections) : (current.platforms as Platform[]);
  const variants = input.variants !== undefined ? input.variants : current.variants;
  checkVariants(variants, platforms);
  let settings: PlatformSettings | null;
  if (input.platformSettings !== undefined) settings = validatePlatformSettings(input.platformSettings, platforms);
  else {
    // Unchanged settings follow the targets: those of a platform no longer targeted drop out.
    const kept = Object.entries(current.platformSettings ?? {}).filter(([p]) => platforms.includes(p as Platform));
    settings = kept.length ? (Object.fromEntries(kept) as PlatformSettings) : null;
  }
  const scheduledAt = input.scheduledAt === undefined ? undefined : input.scheduledAt === null ? null : resolveScheduledAt(input.scheduledAt, now, warnings);
  return { row, current, connections, platforms, variants, settings, scheduledAt };
}

export async function updatePost(
  workspaceId: string,
  id: string,
  input: UpdatePostInput,
  opts: WriteOptions = {},
): Promise<{ post: PostDto; warnings: Warning[] }> {
  const now = new Date();
  const warnings: Warning[] = [];
  const { row, current, connections, platforms, variants, settings, scheduledAt } = await checkEdit(workspaceId, id, input, now, warnings);

  let media = row.media as unknown as StoredMedia[];
  if (input.mediaIds !== undefined || input.mediaUrls !== undefined) {
    const fresh = await resolveMedia(workspaceId, { mediaIds: input.mediaIds, mediaUrls: input.mediaUrls });
    media = [
      ...(input.mediaIds !== undefined ? fresh.filter((m) => m.origin === 'mediaIds') : media.filter((m) => m.origin === 'mediaIds')),
      ...(input.mediaUrls !== undefined ? fresh.filter((m) => m.origin === 'mediaUrls') : media.filter((m) => m.origin === 'mediaUrls')),
    ];
  }
  const content = input.content ?? current.content;
  if (input.parts !== undefined) await assertThreadNotStarted(id);
  const thread = input.parts !== undefined ? await withImportedMedia(workspaceId, media, () => resolveParts(workspaceId, input.parts)) : null;
  const parts = thread ? thread.parts : storedParts(row.parts);
  return withImportedMedia(workspaceId, [...media, ...(thread?.media ?? [])], async () => {
    // Targets unchanged: the limits of the accounts the post already targets.
    const targeted =
      connections ??
      (await db.connection.findMany({ where: { workspaceId, targets: { some: { postId: id } } }, select: { platform: true, platformData: true } }));
    const firstComment = input.firstComment !== undefined ? input.firstComment : row.firstComment;
    checkPlatformLimits({ platforms, content, variants, media, settings, firstComment, parts, accountTextLimits: accountTextLimits(targeted) });

    const workspaceNeedsApproval = await workspaceRequiresApproval(workspaceId);

    const result = await db.$transaction(async (tx) => {
      const post = await lockPost(tx, workspaceId, id);
      assertEditable(post.status);
      if (input.mediaIds !== undefined || input.mediaUrls !== undefined) await holdMediaAssets(tx, workspaceId, mediaRefs(media));
      if (thread) await holdMediaAssets(tx, workspaceId, thread.refs);
      const requireApproval = input.requireApproval ?? post.requireApproval;
      const nextScheduledAt = scheduledAt === undefined ? post.scheduledAt : scheduledAt;
      // A failed post given a time is retried at that time; without one it stays failed until published.
      const status = nextScheduledAt ? 'scheduled' : post.status === 'failed' ? 'failed' : 'draft';
      const timeChanged = scheduledAt !== undefined && (scheduledAt?.getTime() ?? null) !== (post.scheduledAt?.getTime() ?? null);
      const becameScheduled = status === 'scheduled' && (post.status !== 'scheduled' || timeChanged);

      let approvalStatus = post.approvalStatus;
      const reviewedChange = REVIEWED_FIELDS.some((f) => input[f] !== undefined);
      const needs = status === 'scheduled' && approvalNeeded(workspaceNeedsApproval, requireApproval);
      if (needs && (approvalStatus === 'none' || approvalStatus === 'rejected' || (approvalStatus === 'approved' && reviewedChange)))
        approvalStatus = 'pending';
      if (!needs && approvalStatus === 'pending' && status !== 'scheduled') approvalStatus = 'none';
      if (approvalStatus === 'pending') warnings.push(APPROVAL_WARNING);
      const entersQueue = approvalStatus === 'pending' && post.approvalStatus !== 'pending';
      const requestedBy = entersQueue && opts.requester ? await opts.requester() : null;

      if (connections) {
        const keep = new Set(connections.map((c) => c.id));
        await tx.postTarget.deleteMany({ where: { postId: post.id, connectionId: { notIn: [...keep] } } });
        const have = new Set(post.targets.map((t) => t.connectionId));
        const add = connections.filter((c) => !have.has(c.id));
        if (add.length) await tx.postTarget.createMany({ data: add.map((c) => ({ postId: post.id, connectionId: c.id, platform: c.platform })) });
      }
      if (post.status === 'failed' && status === 'scheduled') {
        // Retrying a failed post: its failed targets get another go.
        await tx.postTarget.updateMany({ where: { postId: post.id, status: 'failed' }, data: { status: 'pending', error: null } });
      }

      const updated = await tx.post.update({
        where: { id: post.id },
        data: {
          content,
          variants: variants === null ? Prisma.DbNull : (variants as Prisma.InputJsonValue),
          media: toStoredMedia(media) as unknown as Prisma.InputJsonValue,
          mediaUrls: media.map((m) => m.url),
          platforms,
          connectionIds: connections ? connections.map((c) => c.id) : post.connectionIds,
          platformSettings: settings === null ? Prisma.DbNull : (settings as Prisma.InputJsonValue),
          firstComment,
          ...(thread ? { parts: thread.parts as unknown as Prisma.InputJsonValue } : {}),
          requireApproval,
          scheduledAt: nextScheduledAt,
          // A time chosen by hand is not a queue slot: the post leaves the queue.
          ...(timeChanged ? { queued: false } : {}),
          status,
          approvalStatus,
          ...(approvalStatus === 'pending' && post.approvalStatus !== 'pending'
            ? {
                rejectedAt: null,
                rejectedBy: null,
                rejectionReason: null,
                approvedAt: null,
                approvedBy: null,
                approvalRequestedBy: requestedBy,
                approvalRequestedAt: now,
              }
            : {}),
          scheduleVersion: { increment: 1 },
        },
        include: { targets: true },
      });
      // The short links of the text as it now stands, on the targets still to be sent.
      await trackPostLinks(tx, post.id);
      if (becameScheduled) {
        await recordEvent(tx, { workspaceId, type: 'post.scheduled', data: { postId: post.id, scheduledAt: nextScheduledAt!.toISOString(), platforms } });
      }
      if (approvalStatus === 'pending' && post.approvalStatus !== 'pending') {
        await recordEvent(tx, { workspaceId, type: 'post.approval_required', data: { postId: post.id } });
      }
      return { updated, eventful: becameScheduled || (approvalStatus === 'pending' && post.approvalStatus !== 'pending') };
    });

    const { updated } = result;
    if (result.eventful) void kickOutboxDrain();
    if (updated.status === 'scheduled' && !isApprovalBlocking(updated.approvalStatus)) await scheduleDelivery(updated);
    else await unscheduleDelivery(updated.id);
    return { post: toPostDto(updated), warnings };
  });
}
