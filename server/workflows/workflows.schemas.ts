// Built-in workflows: deterministic jobs a member or an assistant runs (scope workflows:run),
// each leaving a run record and emitting workflow.run.completed / workflow.run.failed.
import { z } from 'zod';
import { ZIdOf, ZNullableTimestamp, ZText, ZTimestamp } from '@/server/shared/schemas';

export const WORKFLOW_IDS = ['repurpose-post', 'weekly-digest', 'draft-replies'] as const;
export type WorkflowId = (typeof WORKFLOW_IDS)[number];
/** Each workflow's name, for people: the list, its runs and the notice of a failed run say it. */
export const WORKFLOW_NAMES: Record<WorkflowId, string> = {
  'repurpose-post': 'Repurpose a post',
  'weekly-digest': 'Weekly digest',
  'draft-replies': 'Draft replies',
};
export const RUN_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;

export const ZWorkflow = z.object({
  id: z.enum(WORKFLOW_IDS).describe('The workflow, for POST /workflows/{id}/runs'),
  name: z.string().describe('Its name, for people'),
  description: z.string().describe('What a run does, in words'),
  inputs: z
    .array(
      z.object({
        name: z.string().describe('The body field'),
        required: z.boolean().describe('Whether a run needs it'),
        description: z.string().describe('What it means, in words'),
      }),
    )
    .describe('The body fields POST /workflows/{id}/runs takes for this workflow'),
});

/** One body for every workflow; which fields apply is the workflow's (GET /workflows lists them). */
export const ZRunWorkflowInput = z.strictObject({
  /** The workflow, from the path: looked up, never stored, so any text is just not found. */
  id: ZIdOf('workflow', 'from workflows_list: repurpose-post, weekly-digest or draft-replies'),
  postId: ZText.min(1).max(100).optional().describe('repurpose-post: the published post to repurpose'),
  connectionIds: z
    .array(ZText.min(1).max(100))
    .min(1)
    .max(50)
    .optional()
    .describe('repurpose-post: the accounts to draft for (default: every other active account)'),
  days: z.number().int().min(1).max(31).optional().describe('weekly-digest: days to sum up, 1–31 (default 7)'),
  savedReplyId: ZText.min(1).max(100).optional().describe('draft-replies: the saved reply each draft starts from ({name}: the author’s first name)'),
  kind: z.enum(['comment', 'message', 'review']).optional().describe('draft-replies: only comments, messages or reviews (default: all)'),
  maxRating: z.number().int().min(1).max(5).optional().describe('draft-replies: only reviews with at most this many stars'),
  minRating: z.number().int().min(1).max(5).optional().describe('draft-replies: only reviews with at least this many stars'),
});
export type RunWorkflowInput = z.infer<typeof ZRunWorkflowInput>;

// Summaries (docs/decisions.md → Workflows). A reading Herald does not have stays null.
export const ZRepurposeSummary = z
  .object({
    sourcePostId: z.uuid().describe('The published post repurposed'),
    drafts: z
      .array(
        z.object({
          postId: z.uuid().describe('The draft created'),
          connectionId: z.uuid().describe('The account it is for'),
          platform: z.string().describe('That account’s platform'),
          shortened: z.boolean().describe('True when the text was cut at a word boundary to fit the platform’s limit'),
        }),
      )
      .describe('One draft per account'),
    skipped: z
      .array(
        z.object({
          connectionId: z.uuid().describe('The account skipped'),
          platform: z.string().describe('Its platform'),
          code: z.string().describe('The error code POST /posts answered for that account'),
          message: z.string().describe('The reason, in words'),
        }),
      )
      .describe('Accounts a draft could not be made for'),
  })
  .describe('repurpose-post');
export const ZDigestSummary = z
  .object({
    from: ZTimestamp.describe('Start of the period summed up, in ISO 8601'),
    to: ZTimestamp.describe('End of the period: when the run computed it'),
    posts: z
      .object({
        total: z.number().int().describe('Posts changed in the period'),
        byStatus: z.record(z.string(), z.number().int()).describe('Those posts counted by their status now'),
      })
      .describe('The workspace’s posts changed in the period'),
    targets: z
      .record(
        z.string(),
        z.object({
          published: z.number().int().describe('Targets published'),
          failed: z.number().int().describe('Targets that failed'),
          pending: z.number().int().describe('Targets in any other state'),
        }),
      )
      .describe('Per platform: the targets changed in the period, by outcome'),
    failures: z
      .array(
        z.object({
          postId: z.uuid().describe('The post'),
          targetId: z.uuid().describe('The target that failed'),
          platform: z.string().describe('Its platform'),
          error: z.string().nullable().describe('The platform’s own error text; null when none was kept'),
        }),
      )
      .describe('Targets that failed in the period, newest first (at most 20)'),
    topPosts: z
      .array(
        z.object({
          postId: z.uuid().describe('The post'),
          publishedAt: ZNullableTimestamp.describe('When it was published, in ISO 8601'),
          engagement: z.number().nullable().describe('The sum of its targets’ engagement; null until a platform reported one'),
        }),
      )
      .describe('Posts published in the period, most engaging first (at most 5)'),
  })
  .describe('weekly-digest');
export const ZDraftRepliesSummary = z
  .object({
    savedReplyId: z.uuid().describe('The saved reply the drafts start from'),
    drafts: z
      .array(z.object({ itemId: z.uuid().describe('The inbox item drafted for'), draftId: z.uuid().describe('The draft (GET /inbox/{id} → drafts)') }))
      .describe('One draft per waiting item that had none (at most 200 a run)'),
    skipped: z
      .array(
        z.object({
          itemId: z.uuid().describe('The item'),
          reason: z.string().describe('Why no draft was made: the network’s limit or its closed reply window'),
        }),
      )
      .describe('Waiting items no draft could be made for'),
  })
  .describe('draft-replies');
export const ZRunError = z.object({
  code: z.string().describe('The error catalogue’s code of the failure'),
  message: z.string().describe('What went wrong, in words'),
});

export const ZWorkflowRun = z.object({
  runId: z.uuid().describe('The run, for GET /workflows/runs/{runId}'),
  workflowId: z.enum(WORKFLOW_IDS).describe('The workflow run'),
  status: z.enum(RUN_STATUSES).describe('queued: waiting for the job runner; running: under way; completed: done, summary set; failed: stopped, error set'),
  input: z.record(z.string(), z.unknown()).describe('The body the run was started with'),
  createdAt: ZTimestamp.describe('When the run was requested, in ISO 8601'),
  startedAt: ZNullableTimestamp.describe('When the job started; null while queued'),
  finishedAt: ZNullableTimestamp.describe('When the run completed or failed; null until then'),
  summary: z
    .union([ZRepurposeSummary, ZDigestSummary, ZDraftRepliesSummary])
    .nullable()
    .describe('What the run did, in the workflow’s own shape; null until it completes'),
  error: ZRunError.nullable().describe('Why the run failed; null unless status is failed'),
});
export type WorkflowRunDto = z.infer<typeof ZWorkflowRun>;

export const ZRunIdParam = z.strictObject({ runId: ZIdOf('workflow run', 'from workflows_run or workflows_runs') });
