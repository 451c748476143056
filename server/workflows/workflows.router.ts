// /workflows: the built-in workflows, starting a run, reading runs (scope workflows:run).
// Also the tools workflows_list, workflows_run, workflows_get_run and workflows_runs.
import { z } from 'zod';
import { readEnvelope, writeEnvelope } from '@/server/shared/schemas';
import { apiProcedure, router } from '@/server/trpc/init';
import type { HeraldMeta } from '@/server/trpc/meta';
import { getRun, listRuns, startRun, WORKFLOWS } from './workflows';
import { ZRunIdParam, ZRunWorkflowInput, ZWorkflow, ZWorkflowRun } from './workflows.schemas';

const base = { scope: 'workflows:run' } as const satisfies Partial<HeraldMeta>;
const tags = ['Workflows'];

export const workflowsRouter = router({
  list: apiProcedure
    .meta({
      ...base,
      openapi: {
        method: 'GET',
        path: '/workflows',
        description:
          'Lists the built-in workflows and the inputs each takes. A workflow is started by its id with POST /workflows/{id}/runs (the {id} there is a workflow id from this list, not a run id).',
        successDescription: 'The built-in workflows.',
        tags,
        protect: true,
        summary: 'The built-in workflows and the inputs each takes',
      },
    })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(z.array(ZWorkflow)))
    .query(() => ({ data: WORKFLOWS.map((w) => ({ ...w, inputs: [...w.inputs] })) })),

  run: apiProcedure
    .meta({
      errorWhen: {
        VALIDATION_FAILED:
          'an input the workflow does not take, or one it needs is missing or unsuitable (repurpose-post takes a published postId); field names it',
      },
      ...base,
      successStatus: 201,
      errors: ['WORKFLOW_NOT_FOUND', 'POST_NOT_FOUND', 'CONNECTION_NOT_FOUND', 'SAVED_REPLY_NOT_FOUND'],
      openapi: {
        method: 'POST',
        path: '/workflows/{id}/runs',
        description:
          'Starts a run of the built-in workflow {id} (a workflow id from GET /workflows) with its inputs. The run goes on in the background: read it by its run id with GET /workflows/runs/{runId}, or subscribe to workflow.run.completed and workflow.run.failed.',
        successDescription: 'Started: the run, with its run id.',
        tags,
        protect: true,
        summary: 'Start a run of a workflow; it runs in the background (poll the run or subscribe to workflow.run.*)',
      },
      assistant: {
        hint: 'repurpose-post and draft-replies only make drafts and weekly-digest only reads, so runs start at once. Poll workflows_get_run until status is completed or failed.',
      },
    })
    .input(ZRunWorkflowInput)
    .output(writeEnvelope(ZWorkflowRun))
    .mutation(async ({ ctx, input }) => ({ data: await startRun(ctx.actor, input), warnings: [] })),

  runs: apiProcedure
    .meta({
      ...base,
      openapi: {
        method: 'GET',
        path: '/workflows/runs',
        description:
          'Lists the workspace’s recent workflow runs, of every workflow, newest first. Not to be confused with POST /workflows/{id}/runs, which starts a run of one workflow.',
        successDescription: 'The recent runs, newest first.',
        tags,
        protect: true,
        summary: 'Recent workflow runs, newest first',
      },
    })
    .input(z.strictObject({ limit: z.number().int().min(1).max(100).default(20).describe('Runs to return, newest first (1–100)') }))
    .output(readEnvelope(z.array(ZWorkflowRun)))
    .query(async ({ ctx, input }) => ({ data: await listRuns(ctx.actor.workspaceId, input.limit) })),

  getRun: apiProcedure
    .meta({
      ...base,
      errors: ['WORKFLOW_RUN_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/workflows/runs/{runId}',
        description:
          'Reads one workflow run by its run id (as answered by POST /workflows/{id}/runs or listed by GET /workflows/runs): its status, and its summary or error once finished. {runId} is a run id, not a workflow id.',
        successDescription: 'The run.',
        tags,
        protect: true,
        summary: 'A workflow run: status, and its summary or error once finished',
      },
    })
    .input(ZRunIdParam)
    .output(readEnvelope(ZWorkflowRun))
    .query(async ({ ctx, input }) => ({ data: await getRun(ctx.actor.workspaceId, input.runId) })),
});
