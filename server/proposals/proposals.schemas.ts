// Staged assistant actions (proposals): what the tool endpoint records instead of running a
// call with an external or destructive effect, until a member confirms it (docs/mcp.md).
import { z } from 'zod';
import { idParam, ZNullableTimestamp, ZText, ZTimestamp } from '@/server/shared/schemas';

export const PROPOSAL_STATUSES = ['staged', 'confirmed', 'executed', 'failed', 'declined', 'expired'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

/** How long a staged action waits for a member before it expires. */
export const PROPOSAL_TTL_MS = 7 * 24 * 3_600_000;

export const ZProposalOutcome = z
  .object({
    ok: z.boolean(),
    /** The tool's result when it ran (the same body the REST route answers). */
    result: z.unknown().optional(),
    /** The error when it did not: the same code and message as REST. */
    error: z.object({ code: z.string(), message: z.string() }).optional(),
  })
  .nullable();

export const ZProposal = z.object({
  actionId: z.uuid(),
  toolName: z.string(),
  title: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  status: z.enum(PROPOSAL_STATUSES),
  keyId: z.uuid().nullable(),
  /** Who staged it: the name of that key (null for a key deleted since). */
  keyName: z.string().nullable(),
  createdAt: ZTimestamp,
  expiresAt: ZTimestamp,
  decidedAt: ZNullableTimestamp,
  decidedBy: z.string().nullable(),
  /** The deciding member's name (or email), for people reading the list. */
  decidedByName: z.string().nullable(),
  declineReason: z.string().nullable(),
  outcome: ZProposalOutcome,
  /** Where a member confirms or declines it in the app. */
  confirmUrl: z.string(),
});
export type ProposalDto = z.infer<typeof ZProposal>;

export const ZListProposalsQuery = z.strictObject({
  status: z.enum(PROPOSAL_STATUSES).optional().describe('Only actions in this status (staged: still waiting for a member)'),
  limit: z.coerce.number().int().min(1).max(100).default(50).describe('Actions to return, newest first (1–100)'),
});

export const ZProposalId = idParam('staged action', 'the actionId a staged call answered, or from proposals_list');
export const ZDeclineInput = ZProposalId.extend({ reason: ZText.max(500).optional() });

export const ZPolicyInput = z.strictObject({
  /** The workspace's rule: assistant actions with an external or destructive effect wait for a member. */
  workspaceConfirmation: z.boolean().optional(),
  /** Per key: true/false overrides the workspace's rule, null follows it. */
  key: z.strictObject({ id: z.uuid(), confirmation: z.boolean().nullable() }).optional(),
});

export const ZPolicy = z.object({
  workspaceConfirmation: z.boolean(),
  keys: z.array(z.object({ id: z.uuid(), name: z.string(), confirmation: z.boolean().nullable() })),
});
