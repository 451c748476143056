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
    ok: z.boolean().describe('True when the confirmed call ran and succeeded'),
    result: z.unknown().optional().describe('When ok: the call’s result, the same body the REST route answers'),
    error: z
      .object({
        code: z.string().describe('The error catalogue’s code, as REST answers it'),
        message: z.string().describe('What went wrong, in words'),
      })
      .optional()
      .describe('When not ok: why the call failed, the same code and message as REST'),
  })
  .nullable()
  .describe('What running the confirmed call gave; null until it has run (executed or failed)');

export const ZProposal = z.object({
  actionId: z.uuid().describe('The staged action, as the staged tool call answered it'),
  toolName: z.string().describe('The tool that was called'),
  title: z.string().describe('What the call would do, in words, as the member sees it'),
  arguments: z.record(z.string(), z.unknown()).describe('The tool call’s arguments, as staged; they run unchanged once confirmed'),
  status: z
    .enum(PROPOSAL_STATUSES)
    .describe(
      'staged: waiting for a member; confirmed: a member said yes and it is about to run; executed: it ran and succeeded; failed: it ran and failed (outcome.error); declined: a member said no; expired: nobody decided within 7 days',
    ),
  keyId: z.uuid().nullable().describe('The API key whose assistant staged it; null for a key deleted since'),
  keyName: z.string().nullable().describe('Who staged it: the name of that key (null for a key deleted since)'),
  createdAt: ZTimestamp.describe('When it was staged, in ISO 8601'),
  expiresAt: ZTimestamp.describe('When it expires if nobody decides, in ISO 8601 (7 days after staging)'),
  decidedAt: ZNullableTimestamp.describe('When a member confirmed or declined it; null until then'),
  decidedBy: z.string().nullable().describe('The id of the member who decided; null until then'),
  decidedByName: z.string().nullable().describe('The deciding member’s name (or email), for people reading the list'),
  declineReason: z.string().nullable().describe('The reason a member gave when declining; null otherwise'),
  outcome: ZProposalOutcome,
  confirmUrl: z.string().describe('Where a member confirms or declines it in the app'),
});
export type ProposalDto = z.infer<typeof ZProposal>;

export const ZListProposalsQuery = z.strictObject({
  status: z.enum(PROPOSAL_STATUSES).optional().describe('Only actions in this status (staged: still waiting for a member)'),
  limit: z.number().int().min(1).max(100).default(50).describe('Actions to return, newest first (1–100)'),
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
