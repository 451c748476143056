// /posts: the publishing routes (REST and tRPC), plus the staff-only approval procedures.
import { z } from 'zod';
import { idParam, listEnvelope, readEnvelope, writeEnvelope, ZText } from '@/server/shared/schemas';
import { publishPostNow, retryFailedTargets } from './delivery/deliver-post';
import { bulkCancel, bulkShift, bulkSpread, ZBulkCancelInput, ZBulkResult, ZBulkShiftInput, ZBulkSpreadInput } from './bulk-posts';
import { findDuplicates, resolveDuplicates, ZDuplicateGroup, ZFindDuplicatesInput, ZResolveDuplicatesInput } from './duplicate-posts';
import { shorten } from '@/server/shared/text';
import { actorLabel } from '@/server/auth/actor-label';
import { apiProcedure, router } from '@/server/trpc/init';
import { cancelPost, restorePost } from './cancel-post';
import { deliveryHistory, ZDeliveryAttempt } from './delivery-history';
import { createPost } from './create-post';
import { MAX_CONNECTIONS, ZCreatePostInput, ZListPostsQuery, ZPost, ZPostListRow, ZTarget, ZUpdatePostInput } from './posts.schemas';
import { getPost, listPosts, listPostTargets } from './read-posts';
import { approvePost, getApprovalHistory, listPendingApprovals, rejectPost, ZApprovalHistory, ZPendingApproval } from './review-post';
import { updatePost } from './update-post';

const tags = ['Posts'];
const ZPostId = idParam('post', 'from posts_list or posts_create');
const WRITE_ERRORS = [
  'CONNECTION_NOT_FOUND',
  'CONNECTION_EXPIRED',
  'SCHEDULED_TIME_IN_PAST',
  'PLATFORM_SETTING_UNKNOWN',
  'MEDIA_REQUIRED',
  'MEDIA_NOT_FOUND',
  'MEDIA_NOT_READY',
  'MEDIA_TOO_LARGE',
  'MEDIA_TOO_LONG',
  'MEDIA_URL_REFUSED',
  'MEDIA_STORAGE_UNAVAILABLE',
  'CONTENT_TOO_LONG',
  'MEDIA_COUNT_EXCEEDED',
] as const;

export const postsRouter = router({
  create: apiProcedure
    .meta({
      scope: 'posts:write',
      successStatus: 201,
      errors: [...WRITE_ERRORS, 'QUEUE_NO_SLOTS', 'QUEUE_FULL'],
      openapi: { method: 'POST', path: '/posts', tags, protect: true, summary: 'Create a draft, a scheduled post, or a post in the next free queue slot' },
      assistant: {
        stage: (a) => typeof a.scheduledAt === 'string' || a.queue === true,
        title: (a) =>
          `Schedule a post to ${Array.isArray(a.connectionIds) ? a.connectionIds.length : 0} account(s) for ${a.queue === true ? 'the next free queue slot' : String(a.scheduledAt)}: "${shorten(a.content)}"`,
        hint: 'Without scheduledAt the post is saved as a draft at once; with it, the post is scheduled (staged for confirmation through the tool endpoint). Call connections_list first for connectionIds.',
      },
    })
    .input(ZCreatePostInput)
    .output(writeEnvelope(ZPost))
    .mutation(async ({ ctx, input }) => {
      const { post, warnings } = await createPost(ctx.actor.workspaceId, input, { requester: () => actorLabel(ctx.actor) });
      return { data: post, warnings };
    }),

  list: apiProcedure
    .meta({ scope: 'posts:read', openapi: { method: 'GET', path: '/posts', tags, protect: true, summary: 'List posts, newest first (rows without targets)' } })
    .input(ZListPostsQuery)
    .output(listEnvelope(ZPostListRow))
    .query(async ({ ctx, input }) => {
      const { posts, total } = await listPosts(ctx.actor.workspaceId, input);
      return { data: posts, page: input.page, limit: input.limit, total };
    }),

  get: apiProcedure
    .meta({
      scope: 'posts:read',
      errors: ['POST_NOT_FOUND'],
      openapi: { method: 'GET', path: '/posts/{id}', tags, protect: true, summary: 'Read a post with its targets' },
    })
    .input(ZPostId)
    .output(readEnvelope(ZPost))
    .query(async ({ ctx, input }) => ({ data: await getPost(ctx.actor.workspaceId, input.id) })),

  update: apiProcedure
    .meta({
      scope: 'posts:write',
      errors: ['POST_NOT_FOUND', 'POST_NOT_EDITABLE', ...WRITE_ERRORS],
      openapi: { method: 'PATCH', path: '/posts/{id}', tags, protect: true, summary: 'Edit a post (only sent fields change)' },
      assistant: {
        stage: (a) => typeof a.scheduledAt === 'string',
        title: (a) => `Reschedule post ${String(a.id)} to ${String(a.scheduledAt)}`,
        hint: 'Edits to text and media run at once; setting scheduledAt schedules or reschedules the post (staged for confirmation). scheduledAt null turns it back into a draft.',
      },
    })
    .input(ZUpdatePostInput.extend(ZPostId.shape))
    .output(writeEnvelope(ZPost))
    .mutation(async ({ ctx, input }) => {
      const { id, ...changes } = input;
      const { post, warnings } = await updatePost(ctx.actor.workspaceId, id, changes, { requester: () => actorLabel(ctx.actor) });
      return { data: post, warnings };
    }),

  cancel: apiProcedure
    .meta({
      scope: 'posts:write',
      errors: ['POST_NOT_FOUND', 'POST_NOT_EDITABLE'],
      openapi: { method: 'DELETE', path: '/posts/{id}', tags, protect: true, summary: 'Cancel a post (the row is kept; nothing is removed from any platform)' },
      assistant: { stage: true, title: (a) => `Cancel post ${String(a.id)}` },
    })
    .input(ZPostId)
    .output(writeEnvelope(ZPost))
    .mutation(async ({ ctx, input }) => ({ data: await cancelPost(ctx.actor.workspaceId, input.id), warnings: [] })),

  // The staff app's delivery log: every attempt's outcome and time (no REST route).
  history: apiProcedure
    .meta({ scope: 'posts:read', errors: ['POST_NOT_FOUND'] })
    .input(ZPostId)
    .output(readEnvelope(z.array(ZDeliveryAttempt)))
    .query(async ({ ctx, input }) => ({ data: await deliveryHistory(ctx.actor.workspaceId, input.id) })),

  // The staff app's "Retry this account": the REST retry, for some failed targets only.
  retryTargets: apiProcedure
    .meta({ scope: 'posts:write', errors: ['POST_NOT_FOUND', 'POST_NOT_EDITABLE'] })
    .input(ZPostId.extend({ targetIds: z.array(z.uuid()).min(1).max(MAX_CONNECTIONS) }))
    .output(writeEnvelope(ZPost))
    .mutation(async ({ ctx, input }) => ({ data: await retryFailedTargets(ctx.actor.workspaceId, input.id, input.targetIds), warnings: [] })),

  // The staff app's undo of a cancel (no REST route: docs/decisions.md → Staff app, part 3).
  restore: apiProcedure
    .meta({ scope: 'posts:write', errors: ['POST_NOT_FOUND', 'POST_NOT_EDITABLE'] })
    .input(ZPostId)
    .output(writeEnvelope(ZPost))
    .mutation(async ({ ctx, input }) => ({ data: await restorePost(ctx.actor.workspaceId, input.id), warnings: [] })),

  publish: apiProcedure
    .meta({
      scope: 'posts:write',
      successStatus: 201,
      errors: ['POST_NOT_FOUND', 'POST_NOT_EDITABLE', 'APPROVAL_REQUIRED'],
      openapi: { method: 'POST', path: '/posts/{id}/publish', tags, protect: true, summary: 'Publish now to every target; returns after each was attempted' },
      assistant: { stage: true, reaches: 'networks', title: (a) => `Publish post ${String(a.id)} now to every target` },
    })
    .input(ZPostId)
    .output(writeEnvelope(ZPost))
    .mutation(async ({ ctx, input }) => ({ data: await publishPostNow(ctx.actor.workspaceId, input.id), warnings: [] })),

  retry: apiProcedure
    .meta({
      scope: 'posts:write',
      successStatus: 201,
      errors: ['POST_NOT_FOUND', 'POST_NOT_EDITABLE'],
      openapi: {
        method: 'POST',
        path: '/posts/{id}/retry',
        tags,
        protect: true,
        summary: 'Deliver the failed targets of a failed or partly published post again; returns after each was attempted',
      },
      assistant: { stage: true, reaches: 'networks', title: (a) => `Retry the failed accounts of post ${String(a.id)}` },
    })
    .input(ZPostId)
    .output(writeEnvelope(ZPost))
    .mutation(async ({ ctx, input }) => ({ data: await retryFailedTargets(ctx.actor.workspaceId, input.id), warnings: [] })),

  targets: apiProcedure
    .meta({
      scope: 'posts:read',
      errors: ['POST_NOT_FOUND'],
      openapi: { method: 'GET', path: '/posts/{id}/targets', tags, protect: true, summary: 'The per-account delivery log of a post' },
    })
    .input(ZPostId)
    .output(readEnvelope(z.array(ZTarget)))
    .query(async ({ ctx, input }) => ({ data: await listPostTargets(ctx.actor.workspaceId, input.id) })),

  // ── Staff only (the app's approval queue); not part of the REST contract ──
  pendingApprovals: apiProcedure
    .meta({ scope: 'posts:read' })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(z.array(ZPendingApproval)))
    .query(async ({ ctx }) => ({ data: await listPendingApprovals(ctx.actor.workspaceId) })),

  /** Staff only (no REST route): who asked for approval, who decided, and a rejection's reason. */
  approval: apiProcedure
    .meta({ scope: 'posts:read', errors: ['POST_NOT_FOUND'] })
    .input(ZPostId)
    .output(readEnvelope(ZApprovalHistory))
    .query(async ({ ctx, input }) => ({ data: await getApprovalHistory(ctx.actor.workspaceId, input.id) })),

  // Approving and rejecting need only posts:read: a reviewer (read-only otherwise) may do
  // them, and review-post.ts refuses API keys.
  approve: apiProcedure
    .meta({ scope: 'posts:read', errors: ['POST_NOT_FOUND', 'POST_NOT_EDITABLE', 'FORBIDDEN'] })
    .input(ZPostId)
    .output(writeEnvelope(ZPost))
    .mutation(async ({ ctx, input }) => ({ data: await approvePost(ctx.actor, input.id), warnings: [] })),

  reject: apiProcedure
    .meta({ scope: 'posts:read', errors: ['POST_NOT_FOUND', 'POST_NOT_EDITABLE', 'FORBIDDEN'] })
    .input(ZPostId.extend({ reason: ZText.trim().min(1).max(1000) }))
    .output(writeEnvelope(ZPost))
    .mutation(async ({ ctx, input }) => ({ data: await rejectPost(ctx.actor, input.id, input.reason), warnings: [] })),

  bulkShift: apiProcedure
    .meta({ scope: 'posts:write', errors: ['POST_NOT_FOUND', 'VALIDATION_FAILED'] })
    .input(ZBulkShiftInput)
    .output(readEnvelope(ZBulkResult))
    .mutation(async ({ ctx, input }) => ({ data: await bulkShift(ctx.actor.workspaceId, input) })),

  bulkSpread: apiProcedure
    .meta({ scope: 'posts:write', errors: ['POST_NOT_FOUND', 'VALIDATION_FAILED'] })
    .input(ZBulkSpreadInput)
    .output(readEnvelope(ZBulkResult))
    .mutation(async ({ ctx, input }) => ({ data: await bulkSpread(ctx.actor.workspaceId, input) })),

  bulkCancel: apiProcedure
    .meta({ scope: 'posts:write', errors: ['POST_NOT_FOUND', 'VALIDATION_FAILED'] })
    .input(ZBulkCancelInput)
    .output(readEnvelope(ZBulkResult))
    .mutation(async ({ ctx, input }) => ({ data: await bulkCancel(ctx.actor.workspaceId, input) })),

  duplicates: apiProcedure
    .meta({ scope: 'posts:read' })
    .input(ZFindDuplicatesInput)
    .output(readEnvelope(z.array(ZDuplicateGroup)))
    .query(async ({ ctx, input }) => ({ data: await findDuplicates(ctx.actor.workspaceId, input) })),

  resolveDuplicates: apiProcedure
    .meta({ scope: 'posts:write', errors: ['POST_NOT_FOUND', 'POST_NOT_EDITABLE', 'VALIDATION_FAILED'] })
    .input(ZResolveDuplicatesInput)
    .output(readEnvelope(z.object({ kept: z.uuid(), cancelled: z.array(z.uuid()) })))
    .mutation(async ({ ctx, input }) => ({ data: await resolveDuplicates(ctx.actor.workspaceId, input) })),
});
