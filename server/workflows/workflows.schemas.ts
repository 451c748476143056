// Built-in workflows: deterministic jobs a member or an assistant runs (scope workflows:run),
// each leaving a run record and emitting workflow.run.completed / workflow.run.failed.
import { z } from 'zod';
import { ZIdOf, ZNullableTimestamp, ZText, ZTimestamp } from '@/server/shared/schemas';

export const WORKFLOW_IDS = ['repurpose-post', 'weekly-digest'] as const;
export type WorkflowId = (typeof WORKFLOW_IDS)[number];
export const RUN_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;

export const ZWorkflow = z.object({
  id: z.enum(WORKFLOW_IDS),
  name: z.string(),
  description: z.string(),
  /** The body fields POST /workflows/{id}/runs takes for this workflow. */
  inputs: z.array(z.object({ name: z.string(), required: z.boolean(), description: z.string() })),
});

/** One body for every workflow; which fields apply is the workflow's (GET /workflows lists them). */
export const ZRunWorkflowInput = z.strictObject({
  /** The workflow, from the path: looked up, never stored, so any text is just not found. */
  id: ZIdOf('workflow', 'from workflows_list: repurpose-post or weekly-digest'),
  postId: ZText.min(1).max(100).optional().describe('repurpose-post: the published post to repurpose'),
  connectionIds: z
    .array(ZText.min(1).max(100))
    .min(1)
    .max(50)
    .optional()
    .describe('repurpose-post: the accounts to draft for (default: every other active account)'),
  days: z.number().int().min(1).max(31).optional().describe('weekly-digest: days to sum up, 1–31 (default 7)'),
});
export type RunWorkflowInput = z.infer<typeof ZRunWorkflowInput>;

// Summaries (docs/decisions.md → Workflows). A reading Herald does not have stays null.
export const ZRepurposeSummary = z.object({
  sourcePostId: z.uuid(),
  drafts: z.array(z.object({ postId: z.uuid(), connectionId: z.uuid(), platform: z.string(), shortened: z.boolean() })),
  skipped: z.array(z.object({ connectionId: z.uuid(), platform: z.string(), code: z.string(), message: z.string() })),
});
export const ZDigestSummary = z.object({
  from: ZTimestamp,
  to: ZTimestamp,
  posts: z.object({ total: z.number().int(), byStatus: z.record(z.string(), z.number().int()) }),
  targets: z.record(z.string(), z.object({ published: z.number().int(), failed: z.number().int(), pending: z.number().int() })),
  failures: z.array(z.object({ postId: z.uuid(), targetId: z.uuid(), platform: z.string(), error: z.string().nullable() })),
  topPosts: z.array(z.object({ postId: z.uuid(), publishedAt: ZNullableTimestamp, engagement: z.number().nullable() })),
});
export const ZRunError = z.object({ code: z.string(), message: z.string() });

export const ZWorkflowRun = z.object({
  runId: z.uuid(),
  workflowId: z.enum(WORKFLOW_IDS),
  status: z.enum(RUN_STATUSES),
  input: z.record(z.string(), z.unknown()),
  createdAt: ZTimestamp,
  startedAt: ZNullableTimestamp,
  finishedAt: ZNullableTimestamp,
  summary: z.union([ZRepurposeSummary, ZDigestSummary]).nullable(),
  error: ZRunError.nullable(),
});
export type WorkflowRunDto = z.infer<typeof ZWorkflowRun>;

export const ZRunIdParam = z.strictObject({ runId: ZIdOf('workflow run', 'from workflows_run or workflows_runs') });
