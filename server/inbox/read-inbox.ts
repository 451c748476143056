// Reading the inbox: the list (newest first, filtered, a cursor page at a time), one item
// with its post and conversation, and the unread counts of the navigation. A request reaches
// the workspace it acts on and, from an agency with scope=agency, every client workspace the
// agency manages; an item of any other workspace is simply not found.
import type { Actor } from '@/server/auth/actor';
import { db } from '@/server/db/client';
import type { Prisma } from '@/server/generated/prisma/client';
import { AppError } from '@/server/errors/app-error';
import { catalogueEntry, inboxReplyLimit, messagesOf, platformName, reviewsOf } from '@/server/platforms/catalogue';
import { offered } from '@/server/platforms/catalogue/conversations';
import { isUuid } from '@/server/shared/schemas';
import type { Platform } from '@/server/shared/platforms';
import {
  INBOX_ACTIONS,
  type InboxAction,
  type InboxConversationDto,
  type InboxDraftDto,
  type InboxItemDto,
  type ListInboxQuery,
  type ReplyState,
} from './inbox.schemas';

type ItemRow = Prisma.InboxItemGetPayload<object>;
type DraftRow = Prisma.InboxDraftGetPayload<object>;

export function toInboxDraftDto(row: DraftRow): InboxDraftDto {
  return {
    id: row.id,
    itemId: row.itemId,
    text: row.text,
    status: row.status as InboxDraftDto['status'],
    authoredBy: { name: row.authoredBy, userId: row.authoredById, assistant: row.byAssistant },
    sentReplyId: row.sentReplyId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The workspaces a request may read: its own, plus the ones it manages when it acts from the agency. */
export async function reachableWorkspaces(actor: Pick<Actor, 'workspaceId' | 'homeWorkspaceId'>, scope: 'workspace' | 'agency'): Promise<string[]> {
  if (scope === 'workspace' || actor.workspaceId !== actor.homeWorkspaceId) return [actor.workspaceId];
  const managed = await db.workspace.findMany({ where: { managedById: actor.workspaceId, deletedAt: null }, select: { id: true } });
  return [actor.workspaceId, ...managed.map((m) => m.id)];
}

const accountNames = async (connectionIds: string[]) =>
  new Map(
    (await db.connection.findMany({ where: { id: { in: [...new Set(connectionIds)] } }, select: { id: true, accountName: true } })).map((c) => [
      c.id,
      c.accountName,
    ]),
  );

export function toInboxItemDto(row: ItemRow, accountName: string): InboxItemDto {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    kind: row.kind as InboxItemDto['kind'],
    platform: row.platform as Platform,
    connectionId: row.connectionId,
    accountName,
    postId: row.postId,
    targetId: row.targetId,
    externalId: row.externalId,
    parentExternalId: row.parentExternalId,
    threadExternalId: row.threadExternalId,
    author: { name: row.authorName, handle: row.authorHandle, avatarUrl: row.authorAvatarUrl },
    text: row.text,
    attachmentUrl: row.attachmentUrl,
    rating: row.rating,
    recommends: row.recommends,
    permalink: row.permalink,
    createdAt: row.networkCreatedAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
    deletedAt: row.deletedAt?.toISOString() ?? null,
    hidden: row.hidden,
    liked: row.liked,
    fromAccount: row.fromAccount,
    status: row.status as InboxItemDto['status'],
    assigneeId: row.assigneeId,
    seen: row.seenAt !== null,
    repliedAt: row.repliedAt?.toISOString() ?? null,
    reply: row.replyState ? { state: row.replyState as ReplyState, error: row.replyError, writtenBy: row.writtenBy, inReplyToId: row.inReplyToId } : null,
    provenance: { source: row.source, collectedAt: row.collectedAt.toISOString() },
  };
}

export async function toInboxItemDtos(rows: ItemRow[]): Promise<InboxItemDto[]> {
  const names = await accountNames(rows.map((r) => r.connectionId));
  return rows.map((r) => toInboxItemDto(r, names.get(r.connectionId) ?? ''));
}

/** The cursor: the last row's network time and id, opaque to callers. */
const encodeCursor = (row: { networkCreatedAt: Date; id: string }) => Buffer.from(`${row.networkCreatedAt.toISOString()}|${row.id}`).toString('base64url');
function decodeCursor(cursor: string): { at: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const date = new Date(at ?? '');
  if (!id || !isUuid(id) || Number.isNaN(date.getTime()))
    throw new AppError('VALIDATION_FAILED', 'cursor is not a nextCursor this list returned', { field: 'cursor' });
  return { at: date, id };
}

/** What counts as waiting for the team: open, from someone else, still on the network. */
const WAITING = { status: 'open', fromAccount: false, deletedAt: null, newestInConversation: true } as const;

export async function unreadInboxCount(workspaceIds: readonly string[]): Promise<number> {
  return db.inboxItem.count({ where: { workspaceId: { in: [...workspaceIds] }, ...WAITING, seenAt: null } });
}

export async function listInbox(actor: Actor, query: ListInboxQuery): Promise<{ items: InboxItemDto[]; nextCursor: string | null; unread: number }> {
  let workspaces = await reachableWorkspaces(actor, query.scope);
  if (query.workspaceId) workspaces = workspaces.filter((w) => w === query.workspaceId);
  // A conversation is listed once, by its newest message from someone else.
  const where: Prisma.InboxItemWhereInput = { workspaceId: { in: workspaces }, fromAccount: false, newestInConversation: true };
  if (query.kind) where.kind = query.kind;
  if (query.rating) Object.assign(where, { kind: 'review', rating: query.rating });
  if (query.answered !== undefined) where.repliedAt = query.answered ? { not: null } : null;
  if (query.status !== 'all') where.status = query.status;
  if (query.platform) where.platform = query.platform;
  if (query.connectionId) where.connectionId = query.connectionId;
  if (query.postId) where.postId = query.postId;
  if (query.unread) Object.assign(where, { seenAt: null, deletedAt: null });
  if (query.assignee === 'none') where.assigneeId = null;
  else if (query.assignee === 'me') where.assigneeId = actor.userId ?? '00000000-0000-0000-0000-000000000000';
  else if (query.assignee) {
    if (!isUuid(query.assignee)) throw new AppError('VALIDATION_FAILED', 'assignee is a member id, me or none', { field: 'assignee' });
    where.assigneeId = query.assignee;
  }
  if (query.cursor) {
    const { at, id } = decodeCursor(query.cursor);
    where.OR = [{ networkCreatedAt: { lt: at } }, { networkCreatedAt: at, id: { lt: id } }];
  }
  const [rows, unread] = await Promise.all([
    db.inboxItem.findMany({ where, orderBy: [{ networkCreatedAt: 'desc' }, { id: 'desc' }], take: query.limit + 1 }),
    unreadInboxCount(workspaces),
  ]);
  const page = rows.slice(0, query.limit);
  return { items: await toInboxItemDtos(page), nextCursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]!) : null, unread };
}

/** One item the request may reach, or INBOX_ITEM_NOT_FOUND. */
export async function findReachableItem(actor: Actor, id: string): Promise<ItemRow> {
  const item = isUuid(id) ? await db.inboxItem.findUnique({ where: { id } }) : null;
  if (item && (await reachableWorkspaces(actor, 'agency')).includes(item.workspaceId)) return item;
  throw new AppError('INBOX_ITEM_NOT_FOUND', 'No inbox item with that id in this workspace; GET /inbox lists them', { field: 'id' });
}

/** Why an action cannot be taken on this item (by its kind and its network's catalogue), or null when it can. */
export function actionRefusal(item: Pick<ItemRow, 'platform' | 'deletedAt' | 'externalId' | 'kind'>, action: InboxAction): string | null {
  const platform = item.platform as Platform;
  let offer;
  if (item.kind === 'message') {
    if (action !== 'reply') return 'A direct message can be answered; hiding, deleting, liking and answer edits are for comments and reviews';
    offer = messagesOf(platform).reply;
  } else if (item.kind === 'review') {
    if (action === 'hide' || action === 'delete' || action === 'like')
      return 'A review can be answered (and the answer changed or taken down), not hidden, deleted or liked';
    offer = reviewsOf(platform)[action];
  } else {
    if (action === 'editReply' || action === 'deleteReply')
      return 'Changing or taking down an answer is for reviews; a comment’s reply is a comment of its own';
    offer = catalogueEntry(platform).comments[action];
  }
  if (!offered(offer)) return offer.none;
  if (item.deletedAt) return 'It was deleted on the network';
  if (!item.externalId) return 'It has not reached the network yet';
  return null;
}

/**
 * Where the network limits answers to a time after the person's last message (Meta's 24
 * hours), whether a message's conversation may still be answered, and until when.
 */
export async function replyWindowOf(item: Pick<ItemRow, 'kind' | 'platform' | 'connectionId' | 'threadExternalId'>, now = new Date()) {
  if (item.kind !== 'message') return null;
  const reply = messagesOf(item.platform as Platform).reply;
  if (!offered(reply) || reply.windowHours === null || !item.threadExternalId) return null;
  const last = await db.inboxItem.findFirst({
    where: { connectionId: item.connectionId, kind: 'message', threadExternalId: item.threadExternalId, fromAccount: false },
    orderBy: { networkCreatedAt: 'desc' },
    select: { networkCreatedAt: true, authorName: true },
  });
  if (!last) return null;
  const closesAt = new Date(last.networkCreatedAt.getTime() + reply.windowHours * 3_600_000);
  const open = now < closesAt;
  return {
    hours: reply.windowHours,
    closesAt: closesAt.toISOString(),
    open,
    reason: open
      ? null
      : `${platformName(item.platform)} lets an account answer within ${reply.windowHours} hours of the person’s last message; ${last.authorName}’s last message was ${last.networkCreatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  };
}

/** An item's conversation: a comment's thread under its post, a message's conversation, a review with its answer. */
async function threadOf(item: ItemRow): Promise<ItemRow[]> {
  if (!item.threadExternalId) return [item];
  if (item.kind === 'comment') {
    return db.inboxItem.findMany({
      where: { targetId: item.targetId, threadExternalId: item.threadExternalId },
      orderBy: [{ networkCreatedAt: 'asc' }, { id: 'asc' }],
    });
  }
  // The newest 100 messages of a conversation, shown oldest first.
  const rows = await db.inboxItem.findMany({
    where: { connectionId: item.connectionId, kind: item.kind, threadExternalId: item.threadExternalId },
    orderBy: [{ networkCreatedAt: 'desc' }, { id: 'desc' }],
    take: 100,
  });
  return rows.reverse();
}

export async function getConversation(actor: Actor, id: string): Promise<InboxConversationDto> {
  const item = await findReachableItem(actor, id);
  const [thread, post, target, replyWindow] = await Promise.all([
    threadOf(item),
    item.postId ? db.post.findUnique({ where: { id: item.postId }, select: { id: true, content: true, variants: true, mediaUrls: true, media: true } }) : null,
    item.targetId ? db.postTarget.findUnique({ where: { id: item.targetId }, select: { permalink: true, publishedAt: true } }) : null,
    replyWindowOf(item),
  ]);
  const variants = (post?.variants ?? {}) as Record<string, { content?: string } | undefined>;
  const media = (post?.media ?? []) as { kind?: string }[];
  const firstImage = post?.mediaUrls.find((_, i) => (media[i]?.kind ?? 'image') === 'image') ?? null;
  const limit = inboxReplyLimit(item.platform as Platform, item.kind);
  const answer = item.kind === 'review' ? thread.find((t) => t.fromAccount && t.inReplyToId === item.id && !t.deletedAt && t.externalId) : undefined;
  const actions = Object.fromEntries(
    INBOX_ACTIONS.map((a) => {
      let reason = actionRefusal(item, a);
      // A review takes one answer: answering again is changing it.
      if (!reason && item.kind === 'review' && a === 'reply' && answer) reason = 'The review is answered; change or take down the answer instead';
      if (!reason && (a === 'editReply' || a === 'deleteReply') && !answer) reason = 'The review has no answer yet';
      if (!reason && a === 'reply' && replyWindow && !replyWindow.open) reason = replyWindow.reason;
      return [a, { offered: reason === null, reason }];
    }),
  ) as InboxConversationDto['actions'];
  const messages = messagesOf(item.platform as Platform).reply;
  return {
    item: (await toInboxItemDtos([item]))[0]!,
    post: item.postId
      ? {
          id: item.postId,
          content: variants[item.platform]?.content ?? post?.content ?? '',
          thumbnailUrl: firstImage,
          permalink: target?.permalink ?? null,
          publishedAt: target?.publishedAt?.toISOString() ?? null,
        }
      : null,
    thread: await toInboxItemDtos(thread),
    actions,
    replyLimit: { maxChars: limit.maxChars, unit: limit.unit },
    replyImages: item.kind === 'message' && offered(messages) && messages.images,
    replyWindow,
    drafts: await draftsOf(item.id),
  };
}

/** An item's drafts, oldest first (GET /inbox/{id}). */
export async function draftsOf(itemId: string): Promise<InboxDraftDto[]> {
  const rows = await db.inboxDraft.findMany({ where: { itemId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: 50 });
  return rows.map(toInboxDraftDto);
}

/** Who an item can be assigned to: the members of the workspaces a request reaches and of the agency managing them. */
export async function assignableMembers(actor: Actor): Promise<{ userId: string; name: string }[]> {
  const workspaces = await reachableWorkspaces(actor, 'agency');
  const managers = await db.workspace.findMany({ where: { id: { in: workspaces }, managedById: { not: null } }, select: { managedById: true } });
  const rows = await db.membership.findMany({
    where: { workspaceId: { in: [...workspaces, ...managers.map((m) => m.managedById!)] } },
    select: { userId: true, user: { select: { name: true, email: true } } },
    orderBy: { createdAt: 'asc' },
  });
  const byUser = new Map(rows.map((r) => [r.userId, r.user.name ?? r.user.email]));
  return [...byUser].map(([userId, name]) => ({ userId, name }));
}
