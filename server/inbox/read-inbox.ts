// Reading the inbox: the list (newest first, filtered, a cursor page at a time), one item
// with its post and conversation, and the unread counts of the navigation. A request reaches
// the workspace it acts on and, from an agency with scope=agency, every client workspace the
// agency manages; an item of any other workspace is simply not found.
import type { Actor } from '@/server/auth/actor';
import { db } from '@/server/db/client';
import type { Prisma } from '@/server/generated/prisma/client';
import { AppError } from '@/server/errors/app-error';
import { catalogueEntry, replyLimit } from '@/server/platforms/catalogue';
import { COMMENT_ACTIONS, type CommentAction } from '@/server/platforms/catalogue/comments';
import { isUuid } from '@/server/shared/schemas';
import type { Platform } from '@/server/shared/platforms';
import type { InboxConversationDto, InboxDraftDto, InboxItemDto, ListInboxQuery, ReplyState } from './inbox.schemas';

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
const WAITING = { status: 'open', fromAccount: false, deletedAt: null } as const;

export async function unreadInboxCount(workspaceIds: readonly string[]): Promise<number> {
  return db.inboxItem.count({ where: { workspaceId: { in: [...workspaceIds] }, ...WAITING, seenAt: null } });
}

export async function listInbox(actor: Actor, query: ListInboxQuery): Promise<{ items: InboxItemDto[]; nextCursor: string | null; unread: number }> {
  let workspaces = await reachableWorkspaces(actor, query.scope);
  if (query.workspaceId) workspaces = workspaces.filter((w) => w === query.workspaceId);
  const where: Prisma.InboxItemWhereInput = { workspaceId: { in: workspaces }, fromAccount: false, kind: 'comment' };
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

/** Why an action cannot be taken on this item, or null when it can. */
export function actionRefusal(item: Pick<ItemRow, 'platform' | 'deletedAt' | 'externalId'>, action: Exclude<CommentAction, 'read'>): string | null {
  const offer = catalogueEntry(item.platform as Platform).comments[action];
  if ('none' in offer) return offer.none;
  if (item.deletedAt) return 'It was deleted on the network';
  if (!item.externalId) return 'It has not reached the network yet';
  return null;
}

export async function getConversation(actor: Actor, id: string): Promise<InboxConversationDto> {
  const item = await findReachableItem(actor, id);
  const [thread, post, target] = await Promise.all([
    item.threadExternalId
      ? db.inboxItem.findMany({
          where: { targetId: item.targetId, threadExternalId: item.threadExternalId },
          orderBy: [{ networkCreatedAt: 'asc' }, { id: 'asc' }],
        })
      : Promise.resolve([item]),
    db.post.findUnique({ where: { id: item.postId }, select: { id: true, content: true, variants: true, mediaUrls: true, media: true } }),
    db.postTarget.findUnique({ where: { id: item.targetId }, select: { permalink: true, publishedAt: true } }),
  ]);
  const variants = (post?.variants ?? {}) as Record<string, { content?: string } | undefined>;
  const media = (post?.media ?? []) as { kind?: string }[];
  const firstImage = post?.mediaUrls.find((_, i) => (media[i]?.kind ?? 'image') === 'image') ?? null;
  const limit = replyLimit(item.platform as Platform);
  const actions = Object.fromEntries(
    COMMENT_ACTIONS.filter((a): a is Exclude<CommentAction, 'read'> => a !== 'read').map((a) => {
      const reason = actionRefusal(item, a);
      return [a, { offered: reason === null, reason }];
    }),
  ) as InboxConversationDto['actions'];
  return {
    item: (await toInboxItemDtos([item]))[0]!,
    post: {
      id: item.postId,
      content: variants[item.platform]?.content ?? post?.content ?? '',
      thumbnailUrl: firstImage,
      permalink: target?.permalink ?? null,
      publishedAt: target?.publishedAt?.toISOString() ?? null,
    },
    thread: await toInboxItemDtos(thread),
    actions,
    replyLimit: { maxChars: limit.maxChars, unit: limit.unit },
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
