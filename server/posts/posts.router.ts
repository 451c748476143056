// /posts: the publishing routes (REST and tRPC), plus the staff-only approval procedures.
import { z } from 'zod';
import { idParam, listEnvelope, readEnvelope, storableText, writeEnvelope, ZIdOf, ZText } from '@/server/shared/schemas';
import { publishPostNow, retryFailedTargets } from './delivery/deliver-post';
import { checkMarkPublished, markTargetPublished } from './delivery/unconfirmed';
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
import { exportPostsCsv } from './post-export';
import { importPosts, previewImport } from './post-import';
import { MAX_IMPORT_BODY_BYTES, MAX_IMPORT_BYTES, ZExportPostsQuery, ZImportInput, ZImportPreview, ZImportResult, ZPostsCsv } from './post-import.schemas';

const tags = ['Posts'];
const ZTargetId = ZIdOf('account delivery', 'from posts_targets');
/** A resend of an account whose publish could not be confirmed must say it did not go out. */
const ZConfirmNotPublished = {
  confirmNotPublished: z
    .literal(true)
    .optional()
    .describe('true: the caller checked that an account cut off while publishing (DELIVERY_UNCONFIRMED) does not have the post, so it may be sent again'),
};
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
  'THREAD_NOT_SUPPORTED',
] as const;

// The import routes read a file of posts, a larger body than the API's general limit: their 413 says theirs.
const IMPORT_TOO_LARGE = `The body is over ${MAX_IMPORT_BODY_BYTES} bytes (the file's text at most ${MAX_IMPORT_BYTES}): import the file in parts; rows already imported are skipped.`;

const FILE_UNREADABLE =
  'The file cannot be read: not CSV (RFC 4180) or a JSON array, an unknown or repeated column, no content or accounts column, no posts or more than 10,000; field is content.';

export const postsRouter = router({
  create: apiProcedure
    .meta({
      errorWhen: {
        VALIDATION_FAILED:
          'a platform that needs a setting lacks it (a YouTube or Reddit title, a Reddit video’s poster), or a variant names a platform the post does not target; field names the path',
      },
      scope: 'posts:write',
      successStatus: 201,
      errors: [...WRITE_ERRORS, 'QUEUE_NO_SLOTS', 'QUEUE_FULL'],
      openapi: {
        method: 'POST',
        path: '/posts',
        description:
          'Creates one post for 1 to 20 connected accounts, with one target per account. Without scheduledAt it is saved as a draft; with one it is scheduled (queue: true instead takes the next free slot of the posting queue), and queued for approval when the workspace requires it or requireApproval is true (warning APPROVAL_REQUIRED). Platform limits (characters, media counts, required media and settings) are checked now, so an over-limit post is refused at creation, not at the scheduled minute.',
        successDescription: 'Created: the post with its targets, and any warnings.',
        tags,
        protect: true,
        summary: 'Create a draft, a scheduled post, or a post in the next free queue slot',
      },
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
    .meta({
      scope: 'posts:read',
      openapi: {
        method: 'GET',
        path: '/posts',
        description:
          'Lists the workspace’s posts, newest first, filtered by status, platform, scheduled time, alert or text, a page at a time. Rows carry no targets: read one post (GET /posts/{id}) for its per-account delivery.',
        successDescription: 'One page of posts and the total across pages.',
        tags,
        protect: true,
        summary: 'List posts, newest first (rows without targets)',
      },
    })
    .input(ZListPostsQuery)
    .output(listEnvelope(ZPostListRow))
    .query(async ({ ctx, input }) => {
      const { posts, total } = await listPosts(ctx.actor.workspaceId, input);
      return { data: posts, page: input.page, limit: input.limit, total };
    }),

  importPreview: apiProcedure
    .meta({
      maxBodyBytes: MAX_IMPORT_BODY_BYTES,
      errorWhen: { VALIDATION_FAILED: FILE_UNREADABLE, PAYLOAD_TOO_LARGE: IMPORT_TOO_LARGE },
      scope: 'posts:write',
      errors: ['VALIDATION_FAILED'],
      openapi: {
        method: 'POST',
        path: '/posts/import/preview',
        description:
          'Reads a CSV or JSON file of posts and checks every row with the rules of POST /posts, writing nothing: each row as it would be imported (accounts resolved, time, media) with every problem at its column, and the rows already imported from an earlier upload. Media URLs are fetched only by the import itself.',
        successDescription: 'Every row with its status and problems, and the totals.',
        tags,
        protect: true,
        summary: 'Check a file of posts before importing it (writes nothing)',
      },
    })
    .input(ZImportInput)
    .output(readEnvelope(ZImportPreview))
    .mutation(async ({ ctx, input }) => ({ data: await previewImport(ctx.actor.workspaceId, input) })),

  import: apiProcedure
    .meta({
      maxBodyBytes: MAX_IMPORT_BODY_BYTES,
      errorWhen: { VALIDATION_FAILED: FILE_UNREADABLE, PAYLOAD_TOO_LARGE: IMPORT_TOO_LARGE },
      scope: 'posts:write',
      successStatus: 201,
      errors: ['VALIDATION_FAILED', 'IMPORT_INVALID', 'MEDIA_STORAGE_UNAVAILABLE'],
      openapi: {
        method: 'POST',
        path: '/posts/import',
        description:
          'Imports a CSV or JSON file of posts, all or nothing: if any row breaks a rule of POST /posts (or a media URL cannot be fetched) nothing is written and the answer is IMPORT_INVALID. Each row is keyed by its id column, or by its content, so uploading the same file again creates nothing new: those rows come back as already_imported.',
        successDescription: 'Created: how many posts were created and skipped, and each row’s post.',
        tags,
        protect: true,
        summary: 'Import a file of posts, all or nothing (a re-upload creates nothing new)',
      },
      assistant: {
        stage: true,
        title: (a) =>
          `Import posts from a ${String(a.format).toUpperCase()} file (${typeof a.content === 'string' ? a.content.split('\n').length - 1 : 0} lines)`,
        hint: 'Call posts_import_preview first: it lists every problem per row and column without writing anything.',
      },
    })
    .input(ZImportInput)
    .output(writeEnvelope(ZImportResult))
    .mutation(async ({ ctx, input }) => {
      const { result, warnings } = await importPosts(ctx.actor.workspaceId, input, { requester: () => actorLabel(ctx.actor) });
      return { data: result, warnings };
    }),

  exportCsv: apiProcedure
    .meta({
      scope: 'posts:read',
      errorWhen: { VALIDATION_FAILED: 'More than 10,000 posts match the filter: narrow it.' },
      errors: ['VALIDATION_FAILED'],
      produces: 'text/csv',
      openapi: {
        method: 'GET',
        path: '/posts/export.csv',
        description:
          'The posts of a GET /posts filter (without paging, newest first) as a CSV file in the import’s columns, so it reads back through POST /posts/import, followed by each post’s status and its results summed over its accounts.',
        tags,
        protect: true,
        summary: 'Posts of a filter with their results, as CSV (re-importable)',
      },
    })
    .input(ZExportPostsQuery)
    .output(ZPostsCsv)
    .query(({ ctx, input }) => exportPostsCsv(ctx.actor.workspaceId, input)),

  get: apiProcedure
    .meta({
      scope: 'posts:read',
      errors: ['POST_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/posts/{id}',
        description:
          'Reads one post with its targets: each account’s delivery status, the post’s id and permalink on the platform, or the platform’s error verbatim.',
        successDescription: 'The post with its targets.',
        tags,
        protect: true,
        summary: 'Read a post with its targets',
      },
    })
    .input(ZPostId)
    .output(readEnvelope(ZPost))
    .query(async ({ ctx, input }) => ({ data: await getPost(ctx.actor.workspaceId, input.id) })),

  update: apiProcedure
    .meta({
      errorWhen: {
        VALIDATION_FAILED:
          'a platform that needs a setting lacks it (a YouTube or Reddit title, a Reddit video’s poster), or a variant names a platform the post does not target; field names the path',
        POST_NOT_EDITABLE: 'The post is publishing, published, partially published or cancelled: only a draft, scheduled or failed post can be edited.',
      },
      scope: 'posts:write',
      errors: ['POST_NOT_FOUND', 'POST_NOT_EDITABLE', ...WRITE_ERRORS],
      openapi: {
        method: 'PATCH',
        path: '/posts/{id}',
        description:
          'Edits a draft or scheduled post: only the fields sent change. Sending scheduledAt schedules a draft or reschedules a post (event post.scheduled, and the same approval rule as create); null unschedules it. A post that is publishing, published, partially published or cancelled is refused with POST_NOT_EDITABLE.',
        successDescription: 'The post as edited, with any warnings.',
        tags,
        protect: true,
        summary: 'Edit a post (only sent fields change)',
      },
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
      errorWhen: {
        POST_NOT_EDITABLE: 'The post is publishing, published, partially published or cancelled: only a draft, scheduled or failed post can be cancelled.',
      },
      scope: 'posts:write',
      errors: ['POST_NOT_FOUND', 'POST_NOT_EDITABLE'],
      openapi: {
        method: 'DELETE',
        path: '/posts/{id}',
        description:
          'Cancels a draft or scheduled post. The row is kept with status cancelled, and nothing is removed from any platform; a post already publishing or published answers POST_NOT_EDITABLE.',
        successDescription: 'The cancelled post.',
        tags,
        protect: true,
        summary: 'Cancel a post (the row is kept; nothing is removed from any platform)',
      },
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
    .input(ZPostId.extend({ targetIds: z.array(z.uuid()).min(1).max(MAX_CONNECTIONS), ...ZConfirmNotPublished }))
    .output(writeEnvelope(ZPost))
    .mutation(async ({ ctx, input }) => ({ data: await retryFailedTargets(ctx.actor.workspaceId, input.id, input.targetIds, input), warnings: [] })),

  // The staff app's undo of a cancel (no REST route: docs/decisions.md → Staff app, part 3).
  restore: apiProcedure
    .meta({ scope: 'posts:write', errors: ['POST_NOT_FOUND', 'POST_NOT_EDITABLE'] })
    .input(ZPostId)
    .output(writeEnvelope(ZPost))
    .mutation(async ({ ctx, input }) => ({ data: await restorePost(ctx.actor.workspaceId, input.id), warnings: [] })),

  publish: apiProcedure
    .meta({
      errorWhen: {
        POST_NOT_EDITABLE:
          'The post is already publishing, or is published, partially published or cancelled (a partially published post’s failed accounts are delivered again with POST /posts/{id}/retry).',
        APPROVAL_REQUIRED: 'The post is pending approval: a member approves it in the app, then publish again.',
      },
      scope: 'posts:write',
      successStatus: 201,
      errors: ['POST_NOT_FOUND', 'POST_NOT_EDITABLE', 'APPROVAL_REQUIRED', 'TARGET_UNCONFIRMED'],
      openapi: {
        method: 'POST',
        path: '/posts/{id}/publish',
        description:
          'Publishes a draft or scheduled post now to every target and answers once each account was attempted. An account that fails is not an error: it is reported in targets with the platform’s text, and the post ends partial_published or failed.',
        successDescription: 'Attempted: the post with each target’s outcome.',
        tags,
        protect: true,
        summary: 'Publish now to every target; returns after each was attempted',
      },
      assistant: { stage: true, reaches: 'networks', title: (a) => `Publish post ${String(a.id)} now to every target` },
    })
    .input(ZPostId)
    .output(writeEnvelope(ZPost))
    .mutation(async ({ ctx, input }) => ({ data: await publishPostNow(ctx.actor.workspaceId, input.id), warnings: [] })),

  retry: apiProcedure
    .meta({
      errorWhen: {
        POST_NOT_EDITABLE: 'The post has no failed targets to retry (it is not failed or partially published), or it is already publishing.',
        APPROVAL_REQUIRED: 'The post is pending approval: a member approves it in the app before it can be retried.',
      },
      scope: 'posts:write',
      successStatus: 201,
      errors: ['POST_NOT_FOUND', 'POST_NOT_EDITABLE', 'APPROVAL_REQUIRED', 'TARGET_UNCONFIRMED'],
      openapi: {
        method: 'POST',
        path: '/posts/{id}/retry',
        description:
          'Delivers the failed targets of a failed or partially published post again, now, and answers once each was attempted; targets that already landed are left alone. A post pending approval is refused with APPROVAL_REQUIRED until a member approves it. A target cut off while publishing that Herald could not confirm with its network is never sent again this way (TARGET_UNCONFIRMED): check the account, then mark it published or send it again on its own (POST /posts/{id}/targets/{targetId}/published or /resend).',
        successDescription: 'Attempted: the post with each target’s new outcome.',
        tags,
        protect: true,
        summary: 'Deliver the failed targets of a failed or partly published post again; returns after each was attempted',
      },
      assistant: { stage: true, reaches: 'networks', title: (a) => `Retry the failed accounts of post ${String(a.id)}` },
    })
    .input(ZPostId)
    .output(writeEnvelope(ZPost))
    .mutation(async ({ ctx, input }) => ({ data: await retryFailedTargets(ctx.actor.workspaceId, input.id), warnings: [] })),

  markPublished: apiProcedure
    .meta({
      errorWhen: {
        POST_NOT_EDITABLE: 'The target is not one whose publish could not be confirmed (it is published, pending, or failed for another reason).',
      },
      scope: 'posts:write',
      errors: ['POST_NOT_FOUND', 'POST_NOT_EDITABLE'],
      openapi: {
        method: 'POST',
        path: '/posts/{id}/targets/{targetId}/published',
        description:
          'Marks an account’s delivery published after an interruption Herald could not settle with the network (a post.failed with DELIVERY_UNCONFIRMED): a member saw the post on the network and gives its address. The target becomes published with it, its post.published event says when it was confirmed, and the post’s status follows its targets.',
        successDescription: 'The post with the target published.',
        tags,
        protect: true,
        summary: 'Mark an unconfirmed account delivery as published, with the post’s address',
      },
      assistant: {
        stage: true,
        title: (a) => `Mark post ${String(a.id)} as published on one account (${String(a.permalink)})`,
        hint: 'Only after the post was seen on the network: the address is what the member confirms.',
      },
    })
    .input(
      ZPostId.extend({
        targetId: ZTargetId,
        permalink: z
          .url({ protocol: /^https$/, message: 'must be an https URL' })
          .check(storableText)
          .max(2048)
          .describe('The post’s address on the network, as the member found it')
          .meta({ example: 'https://www.linkedin.com/feed/update/urn:li:share:7130000000000000000' }),
      }),
    )
    .output(writeEnvelope(ZPost))
    .mutation(async ({ ctx, input }) => {
      await markTargetPublished(ctx.actor.workspaceId, input.id, input.targetId, input.permalink, await actorLabel(ctx.actor));
      return { data: await getPost(ctx.actor.workspaceId, input.id), warnings: [] };
    }),

  resend: apiProcedure
    .meta({
      errorWhen: {
        POST_NOT_EDITABLE: 'The target is not one whose publish could not be confirmed, or the post is publishing.',
        APPROVAL_REQUIRED: 'The post is pending approval: a member approves it in the app first.',
      },
      scope: 'posts:write',
      successStatus: 201,
      errors: ['POST_NOT_FOUND', 'POST_NOT_EDITABLE', 'APPROVAL_REQUIRED'],
      openapi: {
        method: 'POST',
        path: '/posts/{id}/targets/{targetId}/resend',
        description:
          'Sends an account’s delivery again after an interruption Herald could not settle with the network (DELIVERY_UNCONFIRMED): the caller checked the account and the post is not there. Only that account is sent; answers once it was attempted.',
        successDescription: 'Attempted: the post with the account’s new outcome.',
        tags,
        protect: true,
        summary: 'It did not go out: send an unconfirmed account delivery again',
      },
      assistant: {
        stage: true,
        reaches: 'networks',
        title: (a) => `Send post ${String(a.id)} again to one account whose publish could not be confirmed`,
        hint: 'Only after checking the account on the network: if the post is there, posts_mark_published instead.',
      },
    })
    .input(ZPostId.extend({ targetId: ZTargetId }))
    .output(writeEnvelope(ZPost))
    .mutation(async ({ ctx, input }) => {
      await checkMarkPublished(ctx.actor.workspaceId, input.id, input.targetId);
      return { data: await retryFailedTargets(ctx.actor.workspaceId, input.id, [input.targetId], { confirmNotPublished: true }), warnings: [] };
    }),

  targets: apiProcedure
    .meta({
      scope: 'posts:read',
      errors: ['POST_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/posts/{id}/targets',
        description:
          'The per-account delivery log of one post: one row per connected account, with its status, attempts, platform id and permalink, or the platform’s error verbatim.',
        successDescription: 'The post’s targets.',
        tags,
        protect: true,
        summary: 'The per-account delivery log of a post',
      },
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
