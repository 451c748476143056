// Runs a staged action a member confirmed (job proposals.execute): the same procedure, with
// the stored arguments, under the original key (re-checked: a key revoked meanwhile fails
// the run) and the original workspace header. The call carries an Idempotency-Key of the
// action, so a retried job replays the first result instead of acting twice.
import { authenticateKeyById } from '@/server/auth/authenticate-key';
import { toErrorResponse } from '@/server/errors/http';
import { callProcedure } from '@/server/http/procedure-call';
import { proposalToRun, recordProposalOutcome, type ProposalOutcome } from '@/server/proposals/proposals';
import { HEADERS } from '@/server/shared/headers';
import { createRequestContext } from '@/server/trpc/context';
import { linkSessionPost } from './sessions';
import { toolErrorOf } from './tool-results';

/** Codes that mean "not now" rather than "no": the job retries, the idempotency key keeps it once. */
const TRANSIENT = new Set(['SERVICE_UNAVAILABLE', 'IDEMPOTENCY_IN_FLIGHT']);

export async function executeProposal(actionId: string): Promise<void> {
  const proposal = await proposalToRun(actionId);
  if (!proposal) return;
  let outcome: ProposalOutcome;
  try {
    if (!proposal.keyId) throw new Error('staged without a key');
    const principal = await authenticateKeyById(proposal.keyId);
    const headers = new Headers({ [HEADERS.idempotencyKey]: `proposal:${proposal.id}` });
    if (proposal.workspaceHeader) headers.set(HEADERS.workspace, proposal.workspaceHeader);
    const ctx = createRequestContext({
      transport: 'mcp',
      headers,
      principal,
      assistant: { sessionId: proposal.sessionId, toolName: proposal.toolName, stageable: false },
    });
    const result = await callProcedure(ctx, proposal.procedure, proposal.arguments);
    if (proposal.procedure === 'posts.create' && proposal.sessionId) {
      const postId = (result as { data?: { id?: string } }).data?.id;
      if (postId) await linkSessionPost(proposal.sessionId, postId);
    }
    outcome = { ok: true, result: result ?? null };
  } catch (err) {
    const mapped = toErrorResponse(err);
    if (TRANSIENT.has(mapped.code)) throw err;
    const { code, message } = toolErrorOf(mapped);
    outcome = { ok: false, error: { code, message } };
  }
  await recordProposalOutcome(proposal.id, outcome);
}
