// Staged assistant actions: the assistant follows up on what it staged (GET /proposals,
// GET /proposals/{id}, also the tools proposals_list and proposals_get); a member confirms
// or declines in the app (tRPC only: a key can never confirm its own staged call).
import { readEnvelope, writeEnvelope } from '@/server/shared/schemas';
import { apiProcedure, router } from '@/server/trpc/init';
import { z } from 'zod';
import { confirmProposal, declineProposal, getConfirmationPolicy, getProposal, listProposals, setConfirmationPolicy } from './proposals';
import { previewStagedAction, ZProposalPreview } from './proposal-preview';
import { ZDeclineInput, ZListProposalsQuery, ZPolicy, ZPolicyInput, ZProposal, ZProposalId } from './proposals.schemas';

const tags = ['Staged actions'];

export const proposalsRouter = router({
  list: apiProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/proposals',
        successDescription: 'The staged actions, newest first.',
        tags,
        protect: true,
        summary: 'List staged assistant actions, newest first',
        description:
          'Calls made through the tool endpoint that wait for a member’s confirmation, and what became of them (confirmed, executed, failed, declined, expired). An extension of the contract.',
      },
    })
    .input(ZListProposalsQuery)
    .output(readEnvelope(z.array(ZProposal)))
    .query(async ({ ctx, input }) => ({ data: await listProposals(ctx.actor.workspaceId, input) })),

  // The staff app's view of what a staged action would do (no REST route).
  preview: apiProcedure
    .meta({ scope: 'posts:read', errors: ['PROPOSAL_NOT_FOUND'] })
    .input(ZProposalId)
    .output(readEnvelope(ZProposalPreview))
    .query(async ({ ctx, input }) => ({ data: await previewStagedAction(ctx.actor.workspaceId, input.id) })),

  get: apiProcedure
    .meta({
      errors: ['PROPOSAL_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/proposals/{id}',
        successDescription: 'The staged action and its outcome.',
        tags,
        protect: true,
        summary: 'Read one staged assistant action and its outcome',
        description:
          'An extension of the contract. When the confirmed call produced a secret (a minted key, a webhook signing secret), the key that staged it reads it here once; afterwards it is null.',
      },
      assistant: { hint: 'A secret the confirmed call produced is shown here once, to the key that staged it.' },
    })
    .input(ZProposalId)
    .output(readEnvelope(ZProposal))
    .query(async ({ ctx, input }) => ({ data: await getProposal(ctx.actor.workspaceId, input.id, { keyId: ctx.actor.keyId }) })),

  confirm: apiProcedure
    .meta({ errors: ['PROPOSAL_NOT_FOUND', 'PROPOSAL_NOT_PENDING', 'FORBIDDEN'] })
    .input(ZProposalId)
    .output(writeEnvelope(ZProposal))
    .mutation(async ({ ctx, input }) => ({ data: await confirmProposal(ctx.actor, input.id), warnings: [] })),

  decline: apiProcedure
    .meta({ errors: ['PROPOSAL_NOT_FOUND', 'PROPOSAL_NOT_PENDING', 'FORBIDDEN'] })
    .input(ZDeclineInput)
    .output(writeEnvelope(ZProposal))
    .mutation(async ({ ctx, input }) => ({ data: await declineProposal(ctx.actor, input.id, input.reason), warnings: [] })),

  policy: apiProcedure
    .input(z.strictObject({}).optional())
    .output(readEnvelope(ZPolicy))
    .query(async ({ ctx }) => ({ data: await getConfirmationPolicy(ctx.actor.workspaceId) })),

  setPolicy: apiProcedure
    .meta({ errors: ['FORBIDDEN'] })
    .input(ZPolicyInput)
    .output(writeEnvelope(ZPolicy))
    .mutation(async ({ ctx, input }) => ({ data: await setConfirmationPolicy(ctx.actor, input), warnings: [] })),
});
