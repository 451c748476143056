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
    .meta({ ...base, openapi: { method: 'GET', path: '/workflows', tags, protect: true, summary: 'The built-in workflows and the inputs each takes' } })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(z.array(ZWorkflow)))
    .query(() => ({ data: WORKFLOWS.map((w) => ({ ...w, inputs: [...w.inputs] })) })),

  run: apiProcedure
    .meta({
      ...base,
      successStatus: 201,
      errors: ['WORKFLOW_NOT_FOUND', 'POST_NOT_FOUND', 'CONNECTION_NOT_FOUND'],
      openapi: {
        method: 'POST',
        path: '/workflows/{id}/runs',
        tags,
        protect: true,
        summary: 'Start a run of a workflow; it runs in the background (poll the run or subscribe to workflow.run.*)',
      },
      assistant: {
        hint: 'repurpose-post only makes drafts and weekly-digest only reads, so runs start at once. Poll workflows_get_run until status is completed or failed.',
      },
    })
    .input(ZRunWorkflowInput)
    .output(writeEnvelope(ZWorkflowRun))
    .mutation(async ({ ctx, input }) => ({ data: await startRun(ctx.actor, input), warnings: [] })),

  runs: apiProcedure
    .meta({ ...base, openapi: { method: 'GET', path: '/workflows/runs', tags, protect: true, summary: 'Recent workflow runs, newest first' } })
    .input(z.strictObject({ limit: z.coerce.number().int().min(1).max(100).default(20).describe('Runs to return, newest first (1–100)') }))
    .output(readEnvelope(z.array(ZWorkflowRun)))
    .query(async ({ ctx, input }) => ({ data: await listRuns(ctx.actor.workspaceId, input.limit) })),

  getRun: apiProcedure
    .meta({
      ...base,
      errors: ['WORKFLOW_RUN_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/workflows/runs/{runId}',
        tags,
        protect: true,
        summary: 'A workflow run: status, and its summary or error once finished',
      },
    })
    .input(ZRunIdParam)
    .output(readEnvelope(ZWorkflowRun))
    .query(async ({ ctx, input }) => ({ data: await getRun(ctx.actor.workspaceId, input.runId) })),
});
