// Wire schemas of the inbox routes (REST, tRPC, tools and the screen share them).
import { z } from 'zod';
import { PLATFORMS } from '@/server/shared/platforms';
import { ZIdOf, ZNullableTimestamp, ZText, ZTimestamp } from '@/server/shared/schemas';
import { checkWindow, ZDay } from '@/server/shared/analytics-window';

const ZItemIdField = ZIdOf('inbox item', 'from inbox_list');

export const INBOX_KINDS = ['comment', 'message', 'review'] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];
/** What may be done with an inbox item: the comment actions, and a review's answer changed or taken down. */
export const INBOX_ACTIONS = ['reply', 'hide', 'delete', 'like', 'editReply', 'deleteReply'] as const;
export type InboxAction = (typeof INBOX_ACTIONS)[number];
export const INBOX_STATUSES = ['open', 'done'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];
export const REPLY_STATES = ['pending_approval', 'sending', 'sent', 'failed', 'rejected'] as const;
export type ReplyState = (typeof REPLY_STATES)[number];
/** The longest reply Herald accepts whatever the network; each network's own limit is checked too. */
export const MAX_REPLY = 10_000;

const EXAMPLE_ID = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b';

export const ZInboxItem = z
  .object({
    id: z.uuid().describe('The item’s id in Herald'),
    workspaceId: z.uuid().describe('The workspace whose account received it'),
    kind: z
      .enum(INBOX_KINDS)
      .describe(
        'comment: a comment or reply under a post Herald published; message: a direct message of a conversation; review: a review of the account (or the account’s answer to one)',
      ),
    platform: z.enum(PLATFORMS).describe('The network it was read from'),
    connectionId: z.uuid().describe('The connected account it belongs to: whose post it is under, whose conversation or whose review (GET /connections)'),
    accountName: z.string().describe('That account’s name on the network'),
    postId: z.uuid().nullable().describe('The Herald post a comment is under (GET /posts/{id}); null for messages and reviews'),
    targetId: z.uuid().nullable().describe('The post’s delivery to that account; null for messages and reviews'),
    externalId: z.string().nullable().describe('Its id on the network; null while a reply written in Herald has not gone out'),
    parentExternalId: z.string().nullable().describe('The network id of the comment it answers; null when it answers the post itself'),
    threadExternalId: z
      .string()
      .nullable()
      .describe('The network id of the conversation: a comment thread’s top-level comment, a message’s conversation, the review an answer belongs to'),
    author: z
      .object({
        name: z.string().describe('The author’s name on the network'),
        handle: z.string().nullable().describe('The author’s handle (@name, u/name) where the network has one'),
        avatarUrl: z.string().nullable().describe('The author’s picture, where the network gives one'),
      })
      .describe('Who wrote it, as the network names them'),
    text: z.string().describe('The text as the network has it now (an edit on the network replaces it)'),
    attachmentUrl: z.string().nullable().describe('A message’s image, at the network’s address, where it carries one'),
    rating: z.number().int().min(1).max(5).nullable().describe('A review’s stars, 1 to 5 (Google); null otherwise'),
    recommends: z.boolean().nullable().describe('A Facebook recommendation: true recommends, false does not; null otherwise'),
    permalink: z.string().nullable().describe('Its own address on the network, where it has one'),
    createdAt: ZTimestamp.describe('When it was written, by the network’s clock'),
    editedAt: ZNullableTimestamp.describe('When Herald saw it edited on the network'),
    deletedAt: ZNullableTimestamp.describe('When Herald found it deleted on the network'),
    hidden: z.boolean().describe('Hidden from the public by the account'),
    liked: z.boolean().describe('Liked by the account from Herald'),
    fromAccount: z.boolean().describe('Written by the connected account itself (a reply from Herald or made on the network)'),
    status: z.enum(INBOX_STATUSES).describe('open: waits for the team; done: handled'),
    assigneeId: z.uuid().nullable().describe('The member it is assigned to (GET /workspaces/members), or null'),
    seen: z.boolean().describe('Opened by a member (unread items count in the app’s navigation)'),
    repliedAt: ZNullableTimestamp.describe('When the account answered it'),
    reply: z
      .object({
        state: z.enum(REPLY_STATES).describe('pending_approval → sending → sent | failed; rejected when a reviewer turned it down'),
        error: z.string().nullable().describe('The network’s refusal, verbatim (failed), or the reviewer’s reason (rejected)'),
        writtenBy: z.string().nullable().describe('Who wrote it in Herald'),
        inReplyToId: z.uuid().nullable().describe('The inbox item it answers'),
      })
      .nullable()
      .describe('Set on a reply written in Herald: how its sending went'),
    provenance: z
      .object({
        source: z.string().describe('What it was read from: the network’s API, `sandbox` for a demo account, `herald` for a reply not yet read back'),
        collectedAt: ZTimestamp.describe('When it was last read from the network (or written in Herald)'),
      })
      .describe('Where the item came from and when'),
  })
  .meta({
    id: 'InboxItem',
    description:
      'One item of the inbox (a comment under a post Herald published, a direct message, a review), as last read from the network, with the team’s handling of it.',
    example: {
      id: EXAMPLE_ID,
      workspaceId: '0b8c2a4e-5d6f-4a1b-9c3d-2e7f8a9b0c1d',
      kind: 'comment',
      platform: 'instagram',
      connectionId: '3c6e2b1a-7d4f-4e8a-9b2c-1d0e5f6a7b8c',
      accountName: 'heraldcoffee',
      postId: '2a7b9c1d-3e4f-4a5b-8c6d-7e8f9a0b1c2d',
      targetId: '9d2c4e7a-1b3f-4a8e-8c5d-6e7f8a9b0c1d',
      externalId: '17858893269000001',
      parentExternalId: null,
      threadExternalId: '17858893269000001',
      author: { name: 'Maya Chen', handle: '@mayachen', avatarUrl: null },
      text: 'Do you ship to Canada?',
      attachmentUrl: null,
      rating: null,
      recommends: null,
      permalink: null,
      createdAt: '2026-11-27T09:07:00.000Z',
      editedAt: null,
      deletedAt: null,
      hidden: false,
      liked: false,
      fromAccount: false,
      status: 'open',
      assigneeId: null,
      seen: false,
      repliedAt: null,
      reply: null,
      provenance: { source: 'instagram', collectedAt: '2026-11-27T09:15:00.000Z' },
    },
  });
export type InboxItemDto = z.infer<typeof ZInboxItem>;

export const ZActionOffer = z
  .object({
    offered: z.boolean().describe('Whether the network lets Herald do it'),
    reason: z.string().nullable().describe('Why not, in the network’s terms, when it is not offered'),
  })
  .describe('Whether the network lets Herald take this action on the item, and why not');

export const DRAFT_STATUSES = ['pending', 'sent', 'discarded'] as const;

export const ZInboxDraft = z
  .object({
    id: z.uuid().describe('The draft’s id (draftId on POST /inbox/{id}/reply)'),
    itemId: z.uuid().describe('The inbox item it answers'),
    text: z.string().describe('The drafted reply'),
    status: z.enum(DRAFT_STATUSES).describe('pending: waits for a member; sent: a member sent it (sentReplyId); discarded'),
    authoredBy: z
      .object({
        name: z.string().describe('The member’s name or the API key’s label'),
        userId: z.uuid().nullable().describe('The member, when a member drafted it'),
        assistant: z.boolean().describe('true: drafted by an assistant over the tool endpoint (or by a workflow)'),
      })
      .describe('Who drafted it'),
    sentReplyId: z.uuid().nullable().describe('The reply it became (an inbox item of its own), once sent'),
    createdAt: ZTimestamp.describe('When it was drafted'),
  })
  .meta({
    id: 'InboxDraft',
    description: 'A reply prepared for an inbox item. It never goes out by itself: a member sends it (POST /inbox/{id}/reply with draftId) or discards it.',
    example: {
      id: '8e4f2a1b-6c3d-4e5f-9a7b-0c1d2e3f4a5b',
      itemId: EXAMPLE_ID,
      text: 'Yes, we ship to Canada: delivery takes 5–7 days.',
      status: 'pending',
      authoredBy: { name: 'API key “Claude”', userId: null, assistant: true },
      sentReplyId: null,
      createdAt: '2026-11-27T09:20:00.000Z',
    },
  });
export type InboxDraftDto = z.infer<typeof ZInboxDraft>;

export const ZDraftInput = z.strictObject({
  id: ZItemIdField,
  text: ZText.trim().min(1).max(MAX_REPLY).describe('The drafted reply, checked against the network’s limit as a reply is (GET /inbox/{id} → replyLimit)'),
});

export const ZDiscardDraftInput = z.strictObject({
  id: ZItemIdField,
  draftId: ZIdOf('draft', 'from GET /inbox/{id} → drafts'),
});

export const ZInboxConversation = z
  .object({
    item: ZInboxItem,
    post: z
      .object({
        id: z.uuid().describe('The post (GET /posts/{id})'),
        content: z.string().describe('The post’s text as sent to this network'),
        thumbnailUrl: z.string().nullable().describe('The post’s first image (or video) address, for a thumbnail'),
        permalink: z.string().nullable().describe('The post’s address on the network'),
        publishedAt: ZNullableTimestamp.describe('When the network accepted the post'),
      })
      .nullable()
      .describe('The post a comment is under; null for a message or a review'),
    thread: z
      .array(ZInboxItem)
      .describe(
        'The whole conversation, oldest first: a comment thread (the top-level comment and every reply), a message’s conversation (its newest 100 messages), a review with its answer',
      ),
    actions: z
      .object(Object.fromEntries(INBOX_ACTIONS.map((a) => [a, ZActionOffer])) as Record<InboxAction, typeof ZActionOffer>)
      .describe('What the network lets Herald do with this item (docs/inbox.md); editReply and deleteReply change or take down a review’s answer'),
    replyLimit: z
      .object({
        maxChars: z.number().int().describe('The most characters a reply may have, as the network counts them'),
        unit: z.string().describe('What is counted: characters, graphemes or UTF-8 bytes'),
      })
      .describe('The network’s limit for a reply’s text'),
    replyImages: z.boolean().describe('Whether an answer may carry an image (mediaIds on POST /inbox/{id}/reply): direct messages where the network takes one'),
    replyWindow: z
      .object({
        hours: z.number().int().describe('The network’s window, in hours after the person’s last message'),
        closesAt: ZTimestamp.describe('When it closes (closed: when it closed)'),
        open: z.boolean().describe('Whether an answer may go out now'),
        reason: z.string().nullable().describe('Why the conversation cannot be answered, when closed'),
      })
      .nullable()
      .describe('The network’s reply window for a direct message (Meta’s 24 hours); null where the network has none'),
    drafts: z.array(ZInboxDraft).describe('Replies drafted for this item (pending, sent or discarded), oldest first, with who drafted each'),
  })
  .meta({
    id: 'InboxConversation',
    description: 'One inbox item with the post it is under (comments), its whole conversation and what may be done with it.',
  });
export type InboxConversationDto = z.infer<typeof ZInboxConversation>;

export const ZListInboxQuery = z.strictObject({
  status: z
    .enum([...INBOX_STATUSES, 'all'])
    .default('open')
    .describe('open (the default), done, or all'),
  kind: z.enum(INBOX_KINDS).optional().describe('Only comments, direct messages or reviews'),
  rating: z.number().int().min(1).max(5).optional().describe('Only reviews with this many stars (1–5)'),
  answered: z.boolean().optional().describe('false: only items the account has not answered yet; true: only answered ones'),
  platform: z.enum(PLATFORMS).optional().describe('Only items from this network'),
  connectionId: z.uuid().optional().describe('Only items of this account'),
  postId: z.uuid().optional().describe('Only items under this post'),
  workspaceId: z.uuid().optional().describe('Only items of this client workspace (with scope=agency)'),
  assignee: ZText.max(40).optional().describe('A member id, `me`, or `none` (unassigned)'),
  unread: z.boolean().optional().describe('Only items no member has opened yet'),
  scope: z
    .enum(['workspace', 'agency'])
    .default('workspace')
    .describe('workspace: the selected workspace only; agency: the agency and every client workspace it manages'),
  cursor: ZText.max(200).optional().describe('nextCursor of the previous page'),
  limit: z.number().int().min(1).max(100).default(50).describe('Items per page (1–100)'),
});
export type ListInboxQuery = z.infer<typeof ZListInboxQuery>;

export const ZInboxPage = z.object({
  data: z.array(ZInboxItem).describe('This page, newest first'),
  nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
  unread: z.number().int().describe('Open items no member has opened yet, across the filters’ workspaces'),
});

export const ZReplyInput = z.strictObject({
  id: ZItemIdField,
  text: ZText.trim().min(1).max(MAX_REPLY).describe('The reply, as it will appear on the network'),
  draftId: ZIdOf('draft', 'from GET /inbox/{id} → drafts')
    .optional()
    .describe('The pending draft this reply sends (GET /inbox/{id} → drafts); text may edit it. The draft is marked sent with the reply'),
  mediaIds: z
    .array(ZText.min(1).max(100))
    .max(1)
    .optional()
    .describe('One ready image from the media library to send with an answer to a direct message, where the network takes one (GET /inbox/{id} → replyImages)'),
});

export const ZEditAnswerInput = z.strictObject({
  id: ZItemIdField,
  text: ZText.trim().min(1).max(MAX_REPLY).describe('The answer’s new text, as it will appear on the network'),
});

export const ZUpdateInboxInput = z.strictObject({
  id: ZItemIdField,
  status: z.enum(INBOX_STATUSES).optional().describe('open or done'),
  assigneeId: z.uuid().nullable().optional().describe('A member of the item’s workspace, or null to unassign'),
  seen: z.literal(true).optional().describe('Marks it read for the team'),
});

export const ZHideInput = z.strictObject({
  id: ZItemIdField,
  hidden: z.boolean().default(true).describe('true hides it from the public; false shows it again'),
});

export const ZSavedReply = z
  .object({ id: z.uuid(), title: z.string(), text: z.string(), updatedAt: ZTimestamp })
  .meta({ id: 'SavedReply', description: 'A reply a workspace keeps for common questions.' });
export const ZSavedReplyInput = z.strictObject({
  title: ZText.trim().min(1).max(80).describe('A short name the team picks it by'),
  text: ZText.trim().min(1).max(MAX_REPLY).describe('The reply’s text'),
});

export const ZPendingReply = z.object({
  reply: ZInboxItem,
  answering: ZInboxItem.nullable(),
  workspaceName: z.string(),
});

/** Bounds of a workspace's response target (settings: responseTargetMinutes): a few minutes to a week. */
export const RESPONSE_TARGET_MIN = 5;
export const RESPONSE_TARGET_MAX = 10_080;

export const ZResponseTimesQuery = z
  .strictObject({
    from: ZDay.optional().describe(
      'First day counted (an item counts by the day it was written), YYYY-MM-DD in the workspace’s time zone; default: 29 days before to',
    ),
    to: ZDay.optional().describe('Last day counted, inclusive; default: today'),
  })
  .superRefine(checkWindow);

const ZKindResponseTimes = z.object({
  answered: z.number().int().describe('Items from others written in the period that the account has answered'),
  unanswered: z.number().int().describe('Items from others written in the period not answered yet (one deleted unanswered is not counted)'),
  medianMinutes: z.number().nullable().describe('Median time to first reply, in minutes, over the answered ones; null when none was answered'),
  withinTarget: z
    .number()
    .nullable()
    .describe(
      'Share (0 to 1) answered within targetMinutes, of those answered or older than the target (one still within it is not late yet); null when there are none',
    ),
});

export const ZResponseTimes = z
  .object({
    from: ZDay.describe('First day counted'),
    to: ZDay.describe('Last day counted, inclusive'),
    ...ZKindResponseTimes.shape,
    targetMinutes: z.number().int().describe('The workspace’s target for a first reply (settings: responseTargetMinutes)'),
    byKind: z
      .object({
        comment: ZKindResponseTimes.describe('Comments under the posts'),
        message: ZKindResponseTimes.describe('Direct messages'),
        review: ZKindResponseTimes.describe('Reviews'),
      })
      .describe('The same figures for comments, direct messages and reviews separately (the top-level ones count all three)'),
  })
  .meta({
    id: 'ResponseTimes',
    description:
      'How quickly the account answered the comments, direct messages and reviews written in a period: the median time to first reply and the share answered within the workspace’s target, in all and by kind.',
    example: {
      from: '2026-11-01',
      to: '2026-11-30',
      answered: 42,
      unanswered: 5,
      medianMinutes: 96.5,
      withinTarget: 0.81,
      targetMinutes: 240,
      byKind: {
        comment: { answered: 30, unanswered: 3, medianMinutes: 120, withinTarget: 0.77 },
        message: { answered: 10, unanswered: 1, medianMinutes: 35, withinTarget: 0.9 },
        review: { answered: 2, unanswered: 1, medianMinutes: 300.5, withinTarget: 0.667 },
      },
    },
  });
