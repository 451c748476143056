// The draft-replies workflow: for every item of the inbox still waiting (open, not answered, from
// someone else, no pending draft), a draft from one of the workspace's saved replies, with
// `{name}` as the author's first name — narrowed to a kind, and for reviews to a range of stars
// (thank the five stars, apologise to the one). Drafts only: each waits in the inbox, marked as
// drafted by the workflow, for a member to send or discard; nothing reaches a network. A
// retried run drafts nothing twice (an item with a pending draft is not waiting).
import type { z } from 'zod';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import type { Prisma } from '@/server/generated/prisma/client';
import { checkReplyText } from '@/server/inbox/act-on-inbox';
import { actionRefusal, replyWindowOf } from '@/server/inbox/read-inbox';
import { isUuid } from '@/server/shared/schemas';
import { WORKFLOW_NAMES, type ZDraftRepliesSummary } from './workflows.schemas';

type Summary = z.infer<typeof ZDraftRepliesSummary>;
export interface DraftRepliesInput {
  savedReplyId?: string;
  kind?: 'comment' | 'message' | 'review';
  maxRating?: number;
  minRating?: number;
}

const PER_RUN = 200;

async function savedReplyOf(workspaceId: string, id: string | undefined) {
  const saved = id && isUuid(id) ? await db.savedReply.findFirst({ where: { id, workspaceId } }) : null;
  if (!saved)
    throw new AppError('SAVED_REPLY_NOT_FOUND', 'savedReplyId names no saved reply of this workspace (the inbox’s Saved replies)', { field: 'savedReplyId' });
  return saved;
}

/** Checked when the run is started, so a wrong input is refused at once rather than failing the run. */
export async function checkDraftRepliesInput(workspaceId: string, input: DraftRepliesInput): Promise<void> {
  await savedReplyOf(workspaceId, input.savedReplyId);
  if (input.minRating && input.maxRating && input.minRating > input.maxRating)
    throw new AppError('VALIDATION_FAILED', 'minRating is above maxRating', { field: 'minRating' });
}

const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

export async function draftReplies(workspaceId: string, input: DraftRepliesInput): Promise<Summary> {
  const saved = await savedReplyOf(workspaceId, input.savedReplyId);
  const where: Prisma.InboxItemWhereInput = {
    workspaceId,
    status: 'open',
    fromAccount: false,
    repliedAt: null,
    deletedAt: null,
    // A conversation once, by its newest message.
    newestInConversation: true,
    drafts: { none: { status: 'pending' } },
  };
  if (input.kind) where.kind = input.kind;
  if (input.minRating || input.maxRating) Object.assign(where, { kind: 'review', rating: { gte: input.minRating ?? 1, lte: input.maxRating ?? 5 } });
  const items = await db.inboxItem.findMany({ where, orderBy: { networkCreatedAt: 'asc' }, take: PER_RUN });
  const summary: Summary = { savedReplyId: saved.id, drafts: [], skipped: [] };
  for (const item of items) {
    const text = saved.text.replaceAll('{name}', firstName(item.authorName));
    const refusal = actionRefusal(item, 'reply') ?? ((await replyWindowOf(item))?.open === false ? 'The network’s reply window is closed' : null);
    if (refusal) {
      // A network that takes no answer at all is not worth listing item by item.
      if (!refusal.startsWith('It ')) summary.skipped.push({ itemId: item.id, reason: refusal });
      continue;
    }
    try {
      checkReplyText(item, text);
    } catch (error) {
      summary.skipped.push({ itemId: item.id, reason: error instanceof AppError ? error.message : String(error) });
      continue;
    }
    const draft = await db.inboxDraft.create({
      data: { itemId: item.id, workspaceId, text, authoredBy: `Workflow “${WORKFLOW_NAMES['draft-replies']}”`, byAssistant: true },
    });
    summary.drafts.push({ itemId: item.id, draftId: draft.id });
  }
  return summary;
}
