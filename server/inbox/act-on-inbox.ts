// Acting on inbox items: replying (through the network, or into the approval queue when the
// workspace asks for approval of members' replies), hiding, deleting and liking where the
// network allows it (the catalogue's `comments`), and the team's handling: status, assignee,
// read. Every network call goes through the account's comments client; the row changes only
// after the network said yes, and a refusal comes back as PLATFORM_REFUSED with the network's
// own words.
import type { Actor } from '@/server/auth/actor';
import { actorLabel } from '@/server/auth/actor-label';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { recordEvent } from '@/server/events/record-event';
import { kickOutboxDrain } from '@/server/events/kick-outbox';
import { writeNotification } from '@/server/notifications/notifications';
import type { CommentsClient } from '@/server/platforms/comments';
import { commentsClientFor } from '@/server/platforms/comments-clients';
import { PlatformError, TokenExpiredError } from '@/server/platforms/publisher';
import { connectionTokens, publishableConnection } from '@/server/posts/delivery/connection-tokens';
import type { Platform } from '@/server/shared/platforms';
import { shorten } from '@/server/shared/text';
import { isUuid } from '@/server/shared/schemas';
import type { InboxItemDto } from './inbox.schemas';
import { actionRefusal, findReachableItem, replyWindowOf, toInboxItemDtos } from './read-inbox';
import type { InboxAction } from './inbox.schemas';
import { inboxReplyLimit, messagesOf } from '@/server/platforms/catalogue';
import { offered } from '@/server/platforms/catalogue/conversations';
import type { MessagesClient, ReviewsClient } from '@/server/platforms/conversations';
import { messagesClientFor, reviewsClientFor } from '@/server/platforms/conversations-clients';
import { resolveMediaIds } from '@/server/media/resolve-media-ids';
import { sandboxAnswers } from './sandbox-answers';

type Item = Awaited<ReturnType<typeof findReachableItem>>;

/** Owners and admins answer without approval; their replies are the ones others' wait for. */
const answersFreely = (actor: Actor) => actor.kind === 'staff' && (actor.role === 'owner' || actor.role === 'admin');

function refuseUnlessOffered(item: Item, action: InboxAction): void {
  const reason = actionRefusal(item, action);
  if (reason) throw new AppError('ACTION_NOT_OFFERED', reason);
}

/** A review's live answer (the account's, on the network), if it has one. */
const answerOf = (review: Item) =>
  db.inboxItem.findFirst({ where: { inReplyToId: review.id, kind: 'review', fromAccount: true, deletedAt: null, replyState: { in: ['sent', 'sending'] } } });

/**
 * A review takes one answer (a second is a change of it) and a message's conversation may be
 * closed by the network's reply window: checked before anything is written or sent.
 */
async function refuseClosedReply(item: Item): Promise<void> {
  if (item.kind === 'review') {
    const answer = await db.inboxItem.findFirst({ where: { inReplyToId: item.id, kind: 'review', fromAccount: true, deletedAt: null }, select: { id: true } });
    if (answer)
      throw new AppError(
        'REVIEW_ALREADY_ANSWERED',
        'The review is answered already: change the answer (PUT /inbox/{id}/reply) or take it down (DELETE /inbox/{id}/reply)',
      );
  }
  const window = await replyWindowOf(item);
  if (window && !window.open) throw new AppError('REPLY_WINDOW_CLOSED', window.reason ?? 'The network’s reply window is closed');
}

/** The item's account, which must be active: nothing is sent for an account that needs reconnecting. */
function activeAccount<C extends { status: string }>(connection: C | null): C {
  if (!connection || connection.status !== 'active') {
    throw new AppError('CONNECTION_EXPIRED', 'The account this comment is under is not active: reconnect it in the app, then try again');
  }
  return connection;
}

async function accountOf(item: Item) {
  const connection = activeAccount(await db.connection.findUnique({ where: { id: item.connectionId } }));
  const client = commentsClientFor({ provider: connection.provider, platform: connection.platform as Platform });
  if (!client) throw new AppError('ACTION_NOT_OFFERED', 'Herald cannot act on this network’s comments');
  return { connection, client };
}

async function connectionOf(item: Item) {
  return activeAccount(await db.connection.findUnique({ where: { id: item.connectionId } }));
}

/**
 * A network's refusal as the API's error: a refused token also marks the account inactive and
 * tells the team, as a publish does.
 */
async function networkRefusal(connection: { id: string; workspaceId: string; platform: string; status: string }, error: unknown): Promise<AppError> {
  if (!(error instanceof PlatformError)) throw error;
  if (error instanceof TokenExpiredError) {
    await db.$transaction(async (tx) => {
      await tx.connection.update({ where: { id: connection.id }, data: { status: 'inactive', lastError: error.message, lastErrorAt: new Date() } });
      await recordEvent(tx, {
        workspaceId: connection.workspaceId,
        type: 'connection.error',
        data: { connectionId: connection.id, platform: connection.platform, reason: error.message },
      });
    });
    void kickOutboxDrain();
    return new AppError('CONNECTION_EXPIRED', error.message);
  }
  return new AppError('PLATFORM_REFUSED', error.message);
}

/** A reply's (or a draft's) text against the network's limit, counted its way: CONTENT_TOO_LONG otherwise. */
export function checkReplyText(item: Pick<Item, 'platform' | 'kind'>, text: string): void {
  const limit = inboxReplyLimit(item.platform as Platform, item.kind);
  const length = limit.count(text);
  if (length > limit.maxChars) {
    throw new AppError('CONTENT_TOO_LONG', `A reply on this network allows ${limit.maxChars} ${limit.unit}; this one has ${length}`, { field: 'text' });
  }
}

/** A pending draft of this item, or INBOX_DRAFT_NOT_FOUND (sent, discarded, another item's, unknown). */
export async function findPendingDraft(itemId: string, draftId: string) {
  const draft = isUuid(draftId) ? await db.inboxDraft.findFirst({ where: { id: draftId, itemId, status: 'pending' } }) : null;
  if (!draft)
    throw new AppError('INBOX_DRAFT_NOT_FOUND', 'No pending draft with that id on this inbox item; GET /inbox/{id} lists its drafts', { field: 'draftId' });
  return draft;
}

export interface ReplyOptions {
  /** Replaces the account's client (tests). */
  client?: CommentsClient;
  messagesClient?: MessagesClient;
  reviewsClient?: ReviewsClient;
  now?: Date;
}

/**
 * What must hold for an action on an item (the route's own checks, also run before an
 * assistant's call is staged and again when a member confirms it): the item is reachable, the
 * network offers the action, a reply fits the network's limit, the account is active.
 */
export async function checkInboxAction(actor: Actor, id: string, action: InboxAction, text?: string) {
  let item = await findReachableItem(actor, id);
  // A review's answer is changed or taken down through its review (either id is accepted).
  if ((action === 'editReply' || action === 'deleteReply') && item.kind === 'review' && item.fromAccount && item.inReplyToId) {
    item = await findReachableItem(actor, item.inReplyToId);
  }
  refuseUnlessOffered(item, action);
  if (action === 'reply') await refuseClosedReply(item);
  if (text !== undefined) checkReplyText(item, text);
  const connection = activeAccount(
    await db.connection.findUnique({
      where: { id: item.connectionId },
      select: { status: true, accountName: true, displayName: true, avatarUrl: true, externalId: true },
    }),
  );
  return { item, connection };
}

/**
 * POST /inbox/{id}/reply. The reply is checked against the network's limit, then written as
 * an item of its own: sent at once, or waiting for approval when the workspace asks for it and
 * the writer is not an owner or admin. A failed send leaves nothing behind (the text stays in
 * the caller's box) and answers the network's own error.
 */
export async function replyToItem(
  actor: Actor,
  id: string,
  text: string,
  options: ReplyOptions & { draftId?: string; mediaIds?: readonly string[] } = {},
): Promise<{ reply: InboxItemDto; pendingApproval: boolean }> {
  const { item, connection } = await checkInboxAction(actor, id, 'reply', text);
  if (options.draftId) await findPendingDraft(item.id, options.draftId);
  const imageUrl = await replyImage(item, options.mediaIds ?? []);
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: item.workspaceId }, select: { requireReplyApproval: true } });
  const needsApproval = workspace.requireReplyApproval && !answersFreely(actor);
  const writtenBy = await actorLabel(actor);
  const now = options.now ?? new Date();
  const reply = await db.$transaction(async (tx) => {
    const row = await tx.inboxItem.create({
      data: {
        workspaceId: item.workspaceId,
        connectionId: item.connectionId,
        targetId: item.targetId,
        postId: item.postId,
        platform: item.platform,
        kind: item.kind,
        // A message answers its conversation, not one message of it.
        parentExternalId: item.kind === 'message' ? null : item.externalId,
        threadExternalId: item.threadExternalId ?? item.externalId,
        attachmentUrl: imageUrl,
        authorExternalId: connection.externalId,
        authorName: connection.displayName || connection.accountName,
        authorHandle: connection.accountName,
        authorAvatarUrl: connection.avatarUrl,
        text,
        networkCreatedAt: now,
        fromAccount: true,
        status: 'done',
        seenAt: now,
        source: 'herald',
        collectedAt: now,
        replyState: needsApproval ? 'pending_approval' : 'sending',
        inReplyToId: item.id,
        writtenBy,
        writtenById: actor.userId ?? null,
      },
    });
    if (options.draftId) {
      // The draft becomes this reply (edited or not); one sender wins, a second finds it sent.
      const claimed = await tx.inboxDraft.updateMany({
        where: { id: options.draftId, itemId: item.id, status: 'pending' },
        data: { status: 'sent', sentReplyId: row.id },
      });
      if (!claimed.count) throw new AppError('INBOX_DRAFT_NOT_FOUND', 'That draft was sent or discarded meanwhile', { field: 'draftId' });
    }
    if (needsApproval) {
      await writeNotification(
        tx,
        item.workspaceId,
        'approval.requested',
        'A reply waits for approval',
        `${writtenBy} answered “${shorten(item.text)}”: “${shorten(text)}”`,
        {
          inboxItemId: item.id,
          replyId: row.id,
        },
      );
    }
    return row;
  });
  if (needsApproval) return { reply: (await toInboxItemDtos([reply]))[0]!, pendingApproval: true };
  try {
    return { reply: await sendReply(reply.id, { ...options, failure: 'remove' }), pendingApproval: false };
  } catch (error) {
    // Nothing went out: the draft waits again, as the text stays in the caller's box.
    if (options.draftId)
      await db.inboxDraft.updateMany({ where: { id: options.draftId, sentReplyId: reply.id }, data: { status: 'pending', sentReplyId: null } });
    throw error;
  }
}

/**
 * Sends a reply row through the network. `failure: 'remove'` (a member at the box) deletes the
 * row when the network refuses, `'keep'` (an approved reply) keeps it as failed with the
 * network's words for the approver to see.
 */
export async function sendReply(replyId: string, options: ReplyOptions & { failure: 'remove' | 'keep' }): Promise<InboxItemDto> {
  const reply = await db.inboxItem.findUniqueOrThrow({ where: { id: replyId } });
  const parent = reply.inReplyToId ? await db.inboxItem.findUnique({ where: { id: reply.inReplyToId } }) : null;
  const connection = await connectionOf(reply);
  const ctx = { tokens: connectionTokens, now: options.now ?? new Date(), idempotencyKey: reply.id, sandboxAnswers };
  let posted: { id: string; permalink: string | null };
  try {
    posted = await sendThroughNetwork(reply, parent, connection, options, ctx);
  } catch (error) {
    const refusal = await networkRefusal(connection, error);
    if (options.failure === 'remove') await db.inboxItem.deleteMany({ where: { id: reply.id, externalId: null } });
    else await db.inboxItem.update({ where: { id: reply.id }, data: { replyState: 'failed', replyError: refusal.message } });
    throw refusal;
  }
  const sentAt = new Date();
  const sent = await db.$transaction(async (tx) => {
    // The collection (or the network's webhook) may have reported the reply back first and
    // adopted this row: either way one row.
    const row = await tx.inboxItem.update({
      where: { id: reply.id },
      data: { externalId: posted.id, permalink: posted.permalink, replyState: 'sent', replyError: null, networkCreatedAt: sentAt, collectedAt: sentAt },
    });
    if (parent) await tx.inboxItem.update({ where: { id: parent.id }, data: { repliedAt: parent.repliedAt ?? sentAt, status: 'done' } });
    if (reply.kind === 'message' && reply.threadExternalId) {
      // An answer answers every message of the conversation written before it, and closes them with it.
      const earlier = {
        connectionId: reply.connectionId,
        kind: 'message',
        threadExternalId: reply.threadExternalId,
        fromAccount: false,
        networkCreatedAt: { lte: sentAt },
      };
      await tx.inboxItem.updateMany({ where: { ...earlier, repliedAt: null }, data: { repliedAt: sentAt } });
      await tx.inboxItem.updateMany({ where: earlier, data: { status: 'done' } });
    }
    if (reply.kind === 'comment') {
      await recordEvent(tx, {
        workspaceId: reply.workspaceId,
        type: 'comment.replied',
        data: {
          itemId: reply.id,
          inReplyToId: parent?.id ?? reply.id,
          postId: reply.postId!,
          connectionId: reply.connectionId,
          platform: reply.platform,
          externalId: posted.id,
          permalink: posted.permalink,
          repliedBy: reply.writtenBy ?? 'Herald',
          sentAt: sentAt.toISOString(),
        },
      });
    }
    return row;
  });
  void kickOutboxDrain();
  return (await toInboxItemDtos([sent]))[0]!;
}

type Ctx = Parameters<NonNullable<CommentsClient['like']>>[2];
type Connection = Awaited<ReturnType<typeof connectionOf>>;

/** One reply through its kind's client: a comment under its post, a message to its conversation, a review's answer. */
async function sendThroughNetwork(
  reply: Item,
  parent: Item | null,
  connection: Connection,
  options: ReplyOptions,
  ctx: Ctx & { idempotencyKey: string; sandboxAnswers: typeof sandboxAnswers },
): Promise<{ id: string; permalink: string | null }> {
  const platform = connection.platform as Platform;
  const publishable = publishableConnection(connection);
  if (reply.kind === 'message') {
    const client = options.messagesClient ?? messagesClientFor({ provider: connection.provider, platform });
    if (!client) throw new AppError('ACTION_NOT_OFFERED', 'Herald cannot answer this network’s direct messages');
    // The person answered: the author of the message answered, or (answering one's own message) its conversation.
    const counterpartId = parent && !parent.fromAccount && parent.authorExternalId ? parent.authorExternalId : reply.threadExternalId!;
    const sent = await client.sendMessage(
      publishable,
      { conversationId: reply.threadExternalId!, counterpartId },
      { text: reply.text, imageUrl: reply.attachmentUrl },
      ctx,
    );
    return { id: sent.id, permalink: null };
  }
  if (reply.kind === 'review') {
    const client = options.reviewsClient ?? reviewsClientFor({ provider: connection.provider, platform });
    if (!client) throw new AppError('ACTION_NOT_OFFERED', 'Herald cannot answer this network’s reviews');
    const sent = await client.replyToReview(publishable, { reviewId: parent!.externalId!, replyId: null }, reply.text, ctx);
    return { id: sent.id, permalink: null };
  }
  const client = options.client ?? (await accountOf(reply)).client;
  if (!client.reply) throw new AppError('ACTION_NOT_OFFERED', 'This network does not let Herald reply');
  const target = await db.postTarget.findUniqueOrThrow({ where: { id: reply.targetId! }, select: { postedId: true } });
  return client.reply(publishable, { postedId: target.postedId!, commentId: parent?.externalId ?? null }, reply.text, ctx);
}

/**
 * The image a direct message's answer carries (one, from the media library: mediaIds), where
 * the network takes one; its address in Herald's storage is what the network fetches.
 */
async function replyImage(item: Item, mediaIds: readonly string[]): Promise<string | null> {
  if (!mediaIds.length) return null;
  const reply = messagesOf(item.platform as Platform).reply;
  if (item.kind !== 'message' || !offered(reply) || !reply.images) {
    throw new AppError(
      'ACTION_NOT_OFFERED',
      item.kind === 'message' ? 'This network takes no image with an answer to a direct message' : 'Only an answer to a direct message carries an image',
      {
        field: 'mediaIds',
      },
    );
  }
  if (mediaIds.length > 1) throw new AppError('VALIDATION_FAILED', 'An answer carries one image', { field: 'mediaIds' });
  const [image] = await resolveMediaIds(item.workspaceId, mediaIds);
  if (image!.kind !== 'image') throw new AppError('VALIDATION_FAILED', 'An answer’s attachment must be an image', { field: 'mediaIds[0]' });
  return image!.url;
}

/** PUT /inbox/{id}/reply: changes a review's answer on the network (the review's id or the answer's). */
export async function editReviewAnswer(actor: Actor, id: string, text: string, options: ReplyOptions = {}): Promise<InboxItemDto> {
  const { item: review } = await checkInboxAction(actor, id, 'editReply', text);
  const answer = await answerOf(review);
  if (!answer?.externalId) throw new AppError('ACTION_NOT_OFFERED', 'The review has no answer on the network to change');
  const connection = await connectionOf(review);
  const client = options.reviewsClient ?? reviewsClientFor({ provider: connection.provider, platform: connection.platform as Platform });
  if (!client) throw new AppError('ACTION_NOT_OFFERED', 'Herald cannot answer this network’s reviews');
  const ctx = { tokens: connectionTokens, now: options.now ?? new Date(), idempotencyKey: answer.id, sandboxAnswers };
  let sent;
  try {
    sent = await client.replyToReview(publishableConnection(connection), { reviewId: review.externalId!, replyId: answer.externalId }, text, ctx);
  } catch (error) {
    throw await networkRefusal(connection, error);
  }
  const writtenBy = await actorLabel(actor);
  const row = await db.inboxItem.update({
    where: { id: answer.id },
    data: { text, externalId: sent.id, editedAt: new Date(), writtenBy, writtenById: actor.userId ?? null, collectedAt: new Date() },
  });
  return (await toInboxItemDtos([row]))[0]!;
}

/** DELETE /inbox/{id}/reply: takes a review's answer down on the network; the review waits again. */
export async function deleteReviewAnswer(actor: Actor, id: string, options: ReplyOptions = {}): Promise<InboxItemDto> {
  const { item: review } = await checkInboxAction(actor, id, 'deleteReply');
  const answer = await answerOf(review);
  if (!answer?.externalId) throw new AppError('ACTION_NOT_OFFERED', 'The review has no answer on the network to take down');
  const connection = await connectionOf(review);
  const client = options.reviewsClient ?? reviewsClientFor({ provider: connection.provider, platform: connection.platform as Platform });
  if (!client) throw new AppError('ACTION_NOT_OFFERED', 'Herald cannot answer this network’s reviews');
  try {
    await client.deleteReviewReply(
      publishableConnection(connection),
      { reviewId: review.externalId!, replyId: answer.externalId },
      { tokens: connectionTokens, now: options.now ?? new Date(), sandboxAnswers },
    );
  } catch (error) {
    throw await networkRefusal(connection, error);
  }
  const now = new Date();
  const [row] = await db.$transaction([
    // Its network id is let go: the network gives the next answer the same one (Google's `{review}/reply`).
    db.inboxItem.update({ where: { id: answer.id }, data: { deletedAt: now, status: 'done', externalId: null } }),
    // The review is open again (its first reply time stays: it was answered once).
    db.inboxItem.update({ where: { id: review.id }, data: { status: 'open' } }),
  ]);
  return (await toInboxItemDtos([row]))[0]!;
}

/** POST /inbox/{id}/hide: hides (or shows again) a comment from the public, where the network allows it. */
export async function hideItem(actor: Actor, id: string, hidden: boolean, options: ReplyOptions = {}): Promise<InboxItemDto> {
  const { item } = await checkInboxAction(actor, id, 'hide');
  return act(
    item,
    options,
    (client) => client.hide,
    (client, c, ref, ctx) => client.hide!(c, ref, hidden, ctx),
    { hidden },
  );
}

/** DELETE /inbox/{id}: deletes the comment on the network, where the network allows it. */
export async function deleteItem(actor: Actor, id: string, options: ReplyOptions = {}): Promise<InboxItemDto> {
  const { item } = await checkInboxAction(actor, id, 'delete');
  return act(
    item,
    options,
    (client) => client.delete,
    (client, c, ref, ctx) => client.delete!(c, ref, ctx),
    { deletedAt: new Date(), status: 'done' },
  );
}

/** POST /inbox/{id}/like: the account likes the comment, where the network allows it. */
export async function likeItem(actor: Actor, id: string, options: ReplyOptions = {}): Promise<InboxItemDto> {
  const { item } = await checkInboxAction(actor, id, 'like');
  return act(
    item,
    options,
    (client) => client.like,
    (client, c, ref, ctx) => client.like!(c, ref, ctx),
    { liked: true },
  );
}

async function act(
  item: Item,
  options: ReplyOptions,
  method: (client: CommentsClient) => unknown,
  call: (client: CommentsClient, connection: ReturnType<typeof publishableConnection>, ref: { postedId: string; commentId: string }, ctx: Ctx) => Promise<void>,
  change: { hidden?: boolean; liked?: boolean; deletedAt?: Date; status?: string },
): Promise<InboxItemDto> {
  const { connection, client: own } = await accountOf(item);
  const client = options.client ?? own;
  if (!method(client)) throw new AppError('ACTION_NOT_OFFERED', 'Herald cannot do this on this network');
  const target = await db.postTarget.findUniqueOrThrow({ where: { id: item.targetId! }, select: { postedId: true } });
  try {
    await call(
      client,
      publishableConnection(connection),
      { postedId: target.postedId!, commentId: item.externalId! },
      { tokens: connectionTokens, now: options.now ?? new Date() },
    );
  } catch (error) {
    throw await networkRefusal(connection, error);
  }
  const row = await db.inboxItem.update({ where: { id: item.id }, data: change });
  return (await toInboxItemDtos([row]))[0]!;
}

/** PATCH /inbox/{id}: the team's handling (status, assignee, read). */
export async function updateItem(
  actor: Actor,
  id: string,
  input: { status?: 'open' | 'done'; assigneeId?: string | null; seen?: true },
): Promise<InboxItemDto> {
  const item = await findReachableItem(actor, id);
  if (input.assigneeId) {
    // A member of the item's workspace, or of the agency that manages it.
    const workspace = await db.workspace.findUniqueOrThrow({ where: { id: item.workspaceId }, select: { managedById: true } });
    const member = await db.membership.findFirst({
      where: { userId: input.assigneeId, workspaceId: { in: [item.workspaceId, ...(workspace.managedById ? [workspace.managedById] : [])] } },
      select: { id: true },
    });
    if (!member) throw new AppError('VALIDATION_FAILED', 'assigneeId is not a member of this workspace or its agency', { field: 'assigneeId' });
  }
  const data = {
    ...(input.status ? { status: input.status } : {}),
    ...(input.assigneeId !== undefined ? { assigneeId: input.assigneeId } : {}),
  };
  const seenAt = input.seen ? (item.seenAt ?? new Date()) : undefined;
  const row = await db.$transaction(async (tx) => {
    // A conversation is handled whole: done, assigned and read with its newest message.
    if (item.kind === 'message' && item.threadExternalId) {
      const conversation = {
        connectionId: item.connectionId,
        kind: 'message',
        threadExternalId: item.threadExternalId,
        fromAccount: false,
        id: { not: item.id },
      };
      if (Object.keys(data).length) await tx.inboxItem.updateMany({ where: conversation, data });
      if (seenAt) await tx.inboxItem.updateMany({ where: { ...conversation, seenAt: null }, data: { seenAt } });
    }
    return tx.inboxItem.update({ where: { id: item.id }, data: { ...data, ...(seenAt ? { seenAt } : {}) } });
  });
  return (await toInboxItemDtos([row]))[0]!;
}
