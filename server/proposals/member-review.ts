// The confirmation link an assistant hands to its user (`confirmUrl`, /proposals/<id>) is
// opened by a signed-in member who may belong to several workspaces: the staged action
// itself says which one. A member who cannot act for that workspace sees the same "not
// found" as for an id that never existed.
import { resolveStaffActor } from '@/server/auth/staff-actor';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { isUuid } from '@/server/shared/schemas';
import { previewProposal, type ProposalPreviewDto } from './proposal-preview';
import { confirmProposal, declineProposal, getProposal } from './proposals';
import { ZDeclineInput, type ProposalDto } from './proposals.schemas';

const notFound = () => new AppError('PROPOSAL_NOT_FOUND', 'No staged action with that id in your workspaces', { field: 'id' });

async function memberActor(userId: string, id: string) {
  if (!isUuid(id)) throw notFound();
  const row = await db.assistantProposal.findUnique({ where: { id }, select: { workspaceId: true } });
  if (!row) throw notFound();
  try {
    return await resolveStaffActor(userId, row.workspaceId);
  } catch {
    throw notFound();
  }
}

export interface ProposalForMember {
  workspace: { id: string; name: string; timeZone: string };
  proposal: ProposalDto;
  preview: ProposalPreviewDto;
}

/** The staged action behind a confirmation link, for the member who opened it. */
export async function proposalForMember(userId: string, id: string): Promise<ProposalForMember> {
  const actor = await memberActor(userId, id);
  const [proposal, workspace] = await Promise.all([
    getProposal(actor.workspaceId, id),
    db.workspace.findUniqueOrThrow({ where: { id: actor.workspaceId }, select: { id: true, name: true, timeZone: true } }),
  ]);
  return { workspace, proposal, preview: await previewProposal(actor.workspaceId, proposal.toolName, proposal.arguments) };
}

/** The member's answer on the confirmation page: the same services as the app's procedures. */
export async function decideAsMember(userId: string, input: { id: string; decision: 'confirm' | 'decline'; reason?: string }): Promise<ProposalDto> {
  const actor = await memberActor(userId, input.id);
  if (input.decision === 'confirm') return confirmProposal(actor, input.id);
  // The reason is checked by the same schema as the procedure's (length, storable text).
  const parsed = ZDeclineInput.safeParse({ id: input.id, reason: input.reason || undefined });
  if (!parsed.success) throw new AppError('VALIDATION_FAILED', 'The reason must be at most 500 characters of text', { field: 'reason' });
  return declineProposal(actor, input.id, parsed.data.reason);
}
