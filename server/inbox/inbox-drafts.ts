// Drafts of replies: text prepared for an inbox item by an assistant connected over the tool
// endpoint, a workflow, or a member, for a member to send (edited or not, through the one reply
// path: POST /inbox/{id}/reply with draftId) or discard. A draft never reaches the network by
// itself: storing one calls nothing, and only a member's reply sends it.
import type { Actor } from '@/server/auth/actor';
import { actorLabel } from '@/server/auth/actor-label';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { checkReplyText, findPendingDraft } from './act-on-inbox';
import type { InboxDraftDto } from './inbox.schemas';
import { actionRefusal, findReachableItem, toInboxDraftDto } from './read-inbox';

/**
 * POST /inbox/{id}/drafts: stores a draft reply. The network must offer replies on the item and
 * the text must fit its limit, counted as a reply's is; nothing is sent.
 */
export async function draftReply(actor: Actor, id: string, text: string, by: { assistant: boolean }): Promise<InboxDraftDto> {
  const item = await findReachableItem(actor, id);
  const refusal = actionRefusal(item, 'reply');
  if (refusal) throw new AppError('ACTION_NOT_OFFERED', refusal);
  checkReplyText(item, text);
  const row = await db.inboxDraft.create({
    data: {
      itemId: item.id,
      workspaceId: item.workspaceId,
      text,
      authoredBy: await actorLabel(actor),
      authoredById: actor.kind === 'staff' ? (actor.userId ?? null) : null,
      byAssistant: by.assistant,
    },
  });
  return toInboxDraftDto(row);
}

/** DELETE /inbox/{id}/drafts/{draftId}: a pending draft is discarded (kept, marked, for who-drafted-what). */
export async function discardDraft(actor: Actor, id: string, draftId: string): Promise<InboxDraftDto> {
  const item = await findReachableItem(actor, id);
  const draft = await findPendingDraft(item.id, draftId);
  const claimed = await db.inboxDraft.updateMany({ where: { id: draft.id, status: 'pending' }, data: { status: 'discarded' } });
  if (!claimed.count) throw new AppError('INBOX_DRAFT_NOT_FOUND', 'That draft was sent or discarded meanwhile', { field: 'draftId' });
  return toInboxDraftDto(await db.inboxDraft.findUniqueOrThrow({ where: { id: draft.id } }));
}
