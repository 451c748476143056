// /inbox: the comments under the posts Herald published, the accounts' direct messages and
// their reviews (REST, tRPC, tools), plus the staff app's own procedures: replies waiting for
// approval, saved replies, "check now".
import { z } from 'zod';
import { idParam, readEnvelope, writeEnvelope, ZText } from '@/server/shared/schemas';
import { shorten } from '@/server/shared/text';
import { apiProcedure, router } from '@/server/trpc/init';
import { deleteItem, deleteReviewAnswer, editReviewAnswer, hideItem, likeItem, replyToItem, updateItem } from './act-on-inbox';
import { discardDraft, draftReply } from './inbox-drafts';
import { responseTimes } from './response-times';
import { queueInboxCheck } from './collect-conversations';
import {
  ZDiscardDraftInput,
  ZDraftInput,
  ZEditAnswerInput,
  ZHideInput,
  ZInboxDraft,
  ZInboxConversation,
  ZInboxItem,
  ZInboxPage,
  ZListInboxQuery,
  ZPendingReply,
  ZReplyInput,
  ZResponseTimes,
  ZResponseTimesQuery,
  ZSavedReply,
  ZSavedReplyInput,
  ZUpdateInboxInput,
} from './inbox.schemas';
import { assignableMembers, getConversation, listInbox, reachableWorkspaces } from './read-inbox';
import { approveReply, listPendingReplies, rejectReply } from './reply-approval';
import { deleteSavedReply, listSavedReplies, saveReply } from './saved-replies';

const tags = ['Inbox'];
const ZItemId = idParam('inbox item', 'from inbox_list');
const NETWORK_ERRORS = ['INBOX_ITEM_NOT_FOUND', 'ACTION_NOT_OFFERED', 'CONNECTION_EXPIRED', 'PLATFORM_REFUSED'] as const;

export const inboxRouter = router({
  list: apiProcedure
    .meta({
      scope: 'posts:read',
      errors: ['VALIDATION_FAILED'],
      errorWhen: { VALIDATION_FAILED: { 400: 'cursor is not a nextCursor this list returned, or assignee is not a member id, me or none (field names it).' } },
      openapi: {
        method: 'GET',
        path: '/inbox',
        description:
          'Lists the inbox, newest first, a cursor page at a time: the comments under the posts Herald published, the accounts’ direct messages and their reviews (kind narrows to one), open ones by default, filtered by network, account, post, assignee, unread, answered or not, and a review’s stars. From an agency, scope=agency lists its own and every client workspace’s items (workspaceId narrows to one). The account’s own replies and messages are not listed: they are in each item’s conversation (GET /inbox/{id}).',
        successDescription: 'One page of items, the cursor of the next, and the unread count.',
        tags,
        protect: true,
        summary: 'List inbox items (comments, messages, reviews), newest first',
      },
      assistant: { hint: 'Then inbox_get for an item’s conversation and what the network allows (reply, hide, delete, like; a review’s answer).' },
    })
    .input(ZListInboxQuery)
    .output(ZInboxPage)
    .query(async ({ ctx, input }) => {
      const { items, nextCursor, unread } = await listInbox(ctx.actor, input);
      return { data: items, nextCursor, unread };
    }),

  get: apiProcedure
    .meta({
      scope: 'posts:read',
      errors: ['INBOX_ITEM_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/inbox/{id}',
        description:
          'One inbox item with the post it is under (comments: text, first image, permalink), its whole conversation oldest first (a comment thread, a message’s conversation, a review with its answer; replies from Herald included, with their sending state), what the network lets Herald do with it, the network’s limit for a reply, whether an answer may carry an image, and the network’s reply window for a message (Meta’s 24 hours).',
        successDescription: 'The item, its post, its conversation and the actions offered.',
        tags,
        protect: true,
        summary: 'Read one inbox item with its conversation',
      },
    })
    .input(ZItemId)
    .output(readEnvelope(ZInboxConversation))
    .query(async ({ ctx, input }) => ({ data: await getConversation(ctx.actor, input.id) })),

  reply: apiProcedure
    .meta({
      scope: 'posts:write',
      successStatus: 201,
      errors: [
        ...NETWORK_ERRORS,
        'CONTENT_TOO_LONG',
        'INBOX_DRAFT_NOT_FOUND',
        'REPLY_WINDOW_CLOSED',
        'REVIEW_ALREADY_ANSWERED',
        'MEDIA_NOT_FOUND',
        'MEDIA_NOT_READY',
        'VALIDATION_FAILED',
      ],
      errorWhen: {
        CONTENT_TOO_LONG: 'The reply is over the network’s limit for this kind of answer, counted its way (GET /inbox/{id} → replyLimit).',
        INBOX_DRAFT_NOT_FOUND: 'draftId names no pending draft of this item (it was sent or discarded).',
        VALIDATION_FAILED: { 400: 'mediaIds names more than one asset, or one that is not an image (field names it).' },
      },
      openapi: {
        method: 'POST',
        path: '/inbox/{id}/reply',
        description:
          'Answers an inbox item on the network, as the account: a comment with a comment under it, a direct message in its conversation (with one image from the media library, mediaIds, where the network takes one; refused with REPLY_WINDOW_CLOSED once the network’s reply window has closed), a review with its public answer (one per review: REVIEW_ALREADY_ANSWERED when it has one; PUT changes it). Sent at once, unless the workspace requires approval of replies and the writer is not an owner or admin: then it waits in the approval queue (warning APPROVAL_REQUIRED, reply.state pending_approval) and goes out when approved. With draftId, the reply sends that pending draft (text may edit it) and marks it sent. Send an Idempotency-Key: a retried request never answers twice. A network refusal answers PLATFORM_REFUSED with the network’s words and sends nothing.',
        successDescription: 'Created: the reply as an item of its own, with its state (sent, with its id and permalink, or pending_approval).',
        tags,
        protect: true,
        summary: 'Reply to a comment, message or review through the network',
      },
      assistant: {
        stage: true,
        reaches: 'networks',
        title: (a) => `Reply to inbox item ${String(a.id)}: "${shorten(a.text)}"`,
        hint: 'Read the item with inbox_get first: actions.reply says whether the network allows a reply, replyLimit how long it may be.',
      },
    })
    .input(ZReplyInput)
    .output(writeEnvelope(ZInboxItem))
    .mutation(async ({ ctx, input }) => {
      const { reply, pendingApproval } = await replyToItem(ctx.actor, input.id, input.text, { draftId: input.draftId, mediaIds: input.mediaIds });
      return {
        data: reply,
        warnings: pendingApproval
          ? [{ code: 'APPROVAL_REQUIRED', message: 'The workspace requires approval of replies: this one goes out when a reviewer approves it.' }]
          : [],
      };
    }),

  editReply: apiProcedure
    .meta({
      scope: 'posts:write',
      errors: [...NETWORK_ERRORS, 'CONTENT_TOO_LONG'],
      errorWhen: { CONTENT_TOO_LONG: 'The answer is over the network’s limit for a review’s answer (GET /inbox/{id} → replyLimit).' },
      openapi: {
        method: 'PUT',
        path: '/inbox/{id}/reply',
        description:
          'Changes the account’s public answer to a review on the network (id: the review, or the answer itself). ACTION_NOT_OFFERED when the network does not let an answer change, or the review has none yet (POST answers it).',
        successDescription: 'The answer as changed.',
        tags,
        protect: true,
        summary: 'Change a review’s answer',
      },
      assistant: { stage: true, reaches: 'networks', title: (a) => `Change the answer to review ${String(a.id)}: "${shorten(a.text)}"` },
    })
    .input(ZEditAnswerInput)
    .output(writeEnvelope(ZInboxItem))
    .mutation(async ({ ctx, input }) => ({ data: await editReviewAnswer(ctx.actor, input.id, input.text), warnings: [] })),

  deleteReply: apiProcedure
    .meta({
      scope: 'posts:write',
      errors: [...NETWORK_ERRORS],
      openapi: {
        method: 'DELETE',
        path: '/inbox/{id}/reply',
        description:
          'Takes the account’s public answer to a review down on the network (id: the review, or the answer). The answer stays in Herald, marked deleted; the review is open again and may be answered anew.',
        successDescription: 'The answer, marked deleted.',
        tags,
        protect: true,
        summary: 'Take down a review’s answer',
      },
      assistant: { stage: true, reaches: 'networks', title: (a) => `Take down the answer to review ${String(a.id)}` },
    })
    .input(ZItemId)
    .output(writeEnvelope(ZInboxItem))
    .mutation(async ({ ctx, input }) => ({ data: await deleteReviewAnswer(ctx.actor, input.id), warnings: [] })),

  draftReply: apiProcedure
    .meta({
      scope: 'posts:write',
      successStatus: 201,
      errors: ['INBOX_ITEM_NOT_FOUND', 'ACTION_NOT_OFFERED', 'CONTENT_TOO_LONG'],
      errorWhen: { CONTENT_TOO_LONG: 'The draft is over the network’s limit for a reply, counted its way (GET /inbox/{id} → replyLimit).' },
      openapi: {
        method: 'POST',
        path: '/inbox/{id}/drafts',
        description:
          'Stores a draft reply to an inbox item for a member to send or discard; it never goes out by itself and nothing reaches the network. The text is checked against the network’s limit as a reply is. A member sends it with POST /inbox/{id}/reply and its draftId (editing the text if they like), or discards it with DELETE /inbox/{id}/drafts/{draftId}. GET /inbox/{id} lists the item’s drafts with who drafted each (an assistant connection is marked).',
        successDescription: 'Created: the draft, pending.',
        tags,
        protect: true,
        summary: 'Draft a reply for a member to send',
      },
      assistant: {
        hint: 'Read the item with inbox_get first (replyLimit, the conversation). The draft waits in the inbox for a member to send or discard; it is not sent.',
      },
    })
    .input(ZDraftInput)
    .output(writeEnvelope(ZInboxDraft))
    .mutation(async ({ ctx, input }) => ({
      data: await draftReply(ctx.actor, input.id, input.text, { assistant: ctx.transport === 'mcp' }),
      warnings: [],
    })),

  discardDraft: apiProcedure
    .meta({
      scope: 'posts:write',
      errors: ['INBOX_ITEM_NOT_FOUND', 'INBOX_DRAFT_NOT_FOUND'],
      openapi: {
        method: 'DELETE',
        path: '/inbox/{id}/drafts/{draftId}',
        description: 'Discards a pending draft reply: it is kept, marked discarded, so the item still shows who drafted what; nothing reaches the network.',
        successDescription: 'The draft, discarded.',
        tags,
        protect: true,
        summary: 'Discard a draft reply',
      },
    })
    .input(ZDiscardDraftInput)
    .output(writeEnvelope(ZInboxDraft))
    .mutation(async ({ ctx, input }) => ({ data: await discardDraft(ctx.actor, input.id, input.draftId), warnings: [] })),

  responseTimes: apiProcedure
    .meta({
      scope: 'analytics:read',
      errors: ['VALIDATION_FAILED'],
      openapi: {
        method: 'GET',
        path: '/inbox/response-times',
        description:
          'How quickly the account answered comments written in a period (days of the workspace’s time zone, last 30 by default): how many were answered and not, the median time to first reply (from the comment to the account’s first reply, from Herald or on the network) and the share answered within the workspace’s target (settings: responseTargetMinutes). The account’s own comments are not counted, nor a comment deleted before it was answered.',
        successDescription: 'The period’s response times.',
        tags,
        protect: true,
        summary: 'Response times: median time to first reply and share within target',
      },
    })
    .input(ZResponseTimesQuery.optional())
    .output(readEnvelope(ZResponseTimes))
    .query(async ({ ctx, input }) => ({ data: await responseTimes(ctx.actor.workspaceId, input ?? {}) })),

  update: apiProcedure
    .meta({
      scope: 'posts:write',
      errors: ['INBOX_ITEM_NOT_FOUND', 'VALIDATION_FAILED'],
      errorWhen: { VALIDATION_FAILED: { 400: 'assigneeId is not a member of the item’s workspace or of its agency (field assigneeId).' } },
      openapi: {
        method: 'PATCH',
        path: '/inbox/{id}',
        description:
          'The team’s handling of an item: status (open or done), the member it is assigned to, and read. Only the fields sent change; nothing reaches the network.',
        successDescription: 'The item as changed.',
        tags,
        protect: true,
        summary: 'Mark an inbox item done, assign it, or mark it read',
      },
    })
    .input(ZUpdateInboxInput)
    .output(writeEnvelope(ZInboxItem))
    .mutation(async ({ ctx, input }) => {
      const { id, ...changes } = input;
      return { data: await updateItem(ctx.actor, id, changes), warnings: [] };
    }),

  hide: apiProcedure
    .meta({
      scope: 'posts:write',
      errors: [...NETWORK_ERRORS],
      openapi: {
        method: 'POST',
        path: '/inbox/{id}/hide',
        description:
          'Hides a comment from the public on the network (hidden: false shows it again), where the network allows it (ACTION_NOT_OFFERED says why not, docs/inbox.md). The author is not told.',
        successDescription: 'The item with its new hidden state.',
        tags,
        protect: true,
        summary: 'Hide (or show) a comment on the network',
      },
      assistant: { stage: true, reaches: 'networks', title: (a) => `${a.hidden === false ? 'Show again' : 'Hide'} inbox item ${String(a.id)} on the network` },
    })
    .input(ZHideInput)
    .output(writeEnvelope(ZInboxItem))
    .mutation(async ({ ctx, input }) => ({ data: await hideItem(ctx.actor, input.id, input.hidden), warnings: [] })),

  delete: apiProcedure
    .meta({
      scope: 'posts:write',
      errors: [...NETWORK_ERRORS],
      openapi: {
        method: 'POST',
        path: '/inbox/{id}/delete',
        description:
          'Deletes a comment on the network, where the network allows an account to delete comments under its posts. It cannot be undone; the item stays in Herald, marked deleted.',
        successDescription: 'The item, marked deleted.',
        tags,
        protect: true,
        summary: 'Delete a comment on the network',
      },
      assistant: { stage: true, reaches: 'networks', title: (a) => `Delete inbox item ${String(a.id)} on the network` },
    })
    .input(ZItemId)
    .output(writeEnvelope(ZInboxItem))
    .mutation(async ({ ctx, input }) => ({ data: await deleteItem(ctx.actor, input.id), warnings: [] })),

  like: apiProcedure
    .meta({
      scope: 'posts:write',
      errors: [...NETWORK_ERRORS],
      openapi: {
        method: 'POST',
        path: '/inbox/{id}/like',
        description: 'The account likes the comment on the network, where the network allows it.',
        successDescription: 'The item, liked.',
        tags,
        protect: true,
        summary: 'Like a comment as the account',
      },
      assistant: { stage: true, reaches: 'networks', title: (a) => `Like inbox item ${String(a.id)} as the account` },
    })
    .input(ZItemId)
    .output(writeEnvelope(ZInboxItem))
    .mutation(async ({ ctx, input }) => ({ data: await likeItem(ctx.actor, input.id), warnings: [] })),

  check: apiProcedure
    .meta({
      scope: 'posts:read',
      openapi: {
        method: 'POST',
        path: '/inbox/check',
        description:
          'Reads the comments of the workspace’s posts of the last 90 days, and the accounts’ direct messages and reviews, now, whatever the schedule says (new items arrive by themselves: pushed by the networks that have webhooks, read every few minutes otherwise; comments often while a post is young, rarely after a month). Queued: GET /inbox shows what it found within moments.',
        successDescription: 'Queued: how many accounts are being read.',
        tags,
        protect: true,
        summary: 'Check for new comments, messages and reviews now',
      },
    })
    .input(
      z
        .strictObject({
          scope: z
            .enum(['workspace', 'agency'])
            .default('workspace')
            .describe('workspace: the selected workspace; agency: the agency and every client it manages'),
        })
        .optional(),
    )
    .output(readEnvelope(z.object({ connections: z.number().int().describe('Accounts being read') })))
    .mutation(async ({ ctx, input }) => ({ data: await queueInboxCheck(await reachableWorkspaces(ctx.actor, input?.scope ?? 'workspace')) })),

  // ── The staff app's own (not in the REST contract) ──
  assignees: apiProcedure
    .meta({ scope: 'posts:read' })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(z.array(z.object({ userId: z.uuid(), name: z.string() }))))
    .query(async ({ ctx }) => ({ data: await assignableMembers(ctx.actor) })),

  pendingReplies: apiProcedure
    .meta({ scope: 'posts:read' })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(z.array(ZPendingReply)))
    .query(async ({ ctx }) => ({ data: await listPendingReplies(ctx.actor) })),

  approveReply: apiProcedure
    .meta({ scope: 'posts:read', errors: ['INBOX_ITEM_NOT_FOUND', 'FORBIDDEN', 'PLATFORM_REFUSED', 'CONNECTION_EXPIRED'] })
    .input(z.strictObject({ id: z.uuid() }))
    .output(readEnvelope(ZInboxItem))
    .mutation(async ({ ctx, input }) => ({ data: await approveReply(ctx.actor, input.id) })),

  rejectReply: apiProcedure
    .meta({ scope: 'posts:read', errors: ['INBOX_ITEM_NOT_FOUND', 'FORBIDDEN'] })
    .input(z.strictObject({ id: z.uuid(), reason: ZText.trim().min(1).max(1000).optional() }))
    .output(readEnvelope(ZInboxItem))
    .mutation(async ({ ctx, input }) => ({ data: await rejectReply(ctx.actor, input.id, input.reason) })),

  savedReplies: apiProcedure
    .meta({ scope: 'posts:read' })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(z.array(ZSavedReply)))
    .query(async ({ ctx }) => ({ data: await listSavedReplies(ctx.actor.workspaceId) })),

  saveReply: apiProcedure
    .meta({ scope: 'posts:write' })
    .input(ZSavedReplyInput)
    .output(readEnvelope(ZSavedReply))
    .mutation(async ({ ctx, input }) => ({ data: await saveReply(ctx.actor.workspaceId, input) })),

  deleteSavedReply: apiProcedure
    .meta({ scope: 'posts:write', errors: ['SAVED_REPLY_NOT_FOUND'] })
    .input(z.strictObject({ id: ZText.min(1) }))
    .output(readEnvelope(z.object({ deleted: z.literal(true) })))
    .mutation(async ({ ctx, input }) => {
      await deleteSavedReply(ctx.actor.workspaceId, input.id);
      return { data: { deleted: true as const } };
    }),
});
