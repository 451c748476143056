// Replies waiting for approval: a workspace may ask that replies written by members (and by
// API keys) wait, like posts, until an owner, admin or reviewer approves them. Approving sends
// the reply through the network (a refusal keeps it, failed, with the network's words);
// rejecting keeps it with the reason and sends nothing.
import type { Actor } from '@/server/auth/actor';
import { actorLabel } from '@/server/auth/actor-label';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { sendReply, type ReplyOptions } from './act-on-inbox';
import type { InboxItemDto } from './inbox.schemas';
import { reachableWorkspaces, toInboxItemDtos } from './read-inbox';

/** Who may approve a reply: owners, admins and reviewers (a member's reply is what waits). */
const mayApprove = (actor: Actor) => actor.kind === 'staff' && (actor.role === 'owner' || actor.role === 'admin' || actor.role === 'reviewer');

export async function listPendingReplies(actor: Actor): Promise<{ reply: InboxItemDto; answering: InboxItemDto | null; workspaceName: string }[]> {
  const workspaces = await reachableWorkspaces(actor, 'agency');
  const rows = await db.inboxItem.findMany({
    where: { workspaceId: { in: workspaces }, replyState: { in: ['pending_approval', 'failed'] } },
    orderBy: { createdAt: 'asc' },
    take: 200,
  });
  const parents = await db.inboxItem.findMany({ where: { id: { in: rows.map((r) => r.inReplyToId!).filter(Boolean) } } });
  const names = new Map((await db.workspace.findMany({ where: { id: { in: workspaces } }, select: { id: true, name: true } })).map((w) => [w.id, w.name]));
  const [replies, answering] = await Promise.all([toInboxItemDtos(rows), toInboxItemDtos(parents)]);
  const byId = new Map(answering.map((a) => [a.id, a]));
  return replies.map((reply) => ({ reply, answering: byId.get(reply.reply?.inReplyToId ?? '') ?? null, workspaceName: names.get(reply.workspaceId) ?? '' }));
}

async function pendingReply(actor: Actor, id: string, states: string[]) {
  if (!mayApprove(actor)) throw new AppError('FORBIDDEN', 'Only owners, admins and reviewers approve replies');
  const workspaces = await reachableWorkspaces(actor, 'agency');
  const row = await db.inboxItem.findFirst({ where: { id, workspaceId: { in: workspaces }, replyState: { in: states } } });
  if (!row) throw new AppError('INBOX_ITEM_NOT_FOUND', 'No reply waiting for approval with that id');
  return row;
}

/** Approves a waiting reply (or retries a failed one): it goes out now. */
export async function approveReply(actor: Actor, id: string, options: ReplyOptions = {}): Promise<InboxItemDto> {
  const row = await pendingReply(actor, id, ['pending_approval', 'failed']);
  // One approver wins: the state moves to sending before the network is called.
  const claimed = await db.inboxItem.updateMany({
    where: { id: row.id, replyState: row.replyState },
    data: { replyState: 'sending', replyError: null, approvedBy: await actorLabel(actor) },
  });
  if (!claimed.count) throw new AppError('INBOX_ITEM_NOT_FOUND', 'That reply was approved or rejected by someone else');
  return sendReply(row.id, { ...options, failure: 'keep' });
}

export async function rejectReply(actor: Actor, id: string, reason: string | undefined): Promise<InboxItemDto> {
  const row = await pendingReply(actor, id, ['pending_approval', 'failed']);
  const updated = await db.inboxItem.update({
    where: { id: row.id },
    data: { replyState: 'rejected', replyError: reason ?? `Rejected by ${await actorLabel(actor)}` },
  });
  return (await toInboxItemDtos([updated]))[0]!;
}

/** How many replies wait (the Approvals count in the navigation adds them). */
export async function countPendingReplies(workspaceIds: readonly string[]): Promise<number> {
  return db.inboxItem.count({ where: { workspaceId: { in: [...workspaceIds] }, replyState: 'pending_approval' } });
}
