// Workflow runs: start (a run record and one job), run (the job: the workflow, then the
// outcome and its event in one transaction), read. A retried job never repeats work: a
// finished run is left alone, and a run interrupted mid-way continues from its progress.
import type { Actor } from '@/server/auth/actor';
import { db } from '@/server/db/client';
import { isDatabaseUnavailable } from '@/server/db/unavailable';
import { AppError } from '@/server/errors/app-error';
import { kickOutboxDrain } from '@/server/events';
import { recordEvent } from '@/server/events/record-event';
import type { Prisma } from '@/server/generated/prisma/client';
import { getJobs } from '@/server/jobs';
import { iso, isoOrNull, isUuid } from '@/server/shared/schemas';
import { checkRepurposeInput, repurposePost, type RepurposeProgress } from './repurpose-post';
import { weeklyDigest } from './weekly-digest';
import { checkDraftRepliesInput, draftReplies, type DraftRepliesInput } from './draft-replies';
import { WORKFLOW_IDS, WORKFLOW_NAMES, type RunWorkflowInput, type WorkflowId, type WorkflowRunDto } from './workflows.schemas';
import { log } from '@/server/observability/log';

export const WORKFLOWS = [
  {
    id: 'repurpose-post',
    name: WORKFLOW_NAMES['repurpose-post'],
    description:
      'From a published post, create a draft for each other account (or the ones named), with the text shortened to fit each platform’s limit. Drafts only: nothing is scheduled or published.',
    inputs: [
      { name: 'postId', required: true, description: 'The published post to repurpose.' },
      { name: 'connectionIds', required: false, description: 'The accounts to draft for; default: every active account the post did not go to.' },
    ],
  },
  {
    id: 'weekly-digest',
    name: WORKFLOW_NAMES['weekly-digest'],
    description:
      'A summary of the last days of publishing: posts by status, outcomes per platform, failures with the platform’s error, and top posts by engagement where known.',
    inputs: [{ name: 'days', required: false, description: 'How many days back, 1 to 31 (default 7).' }],
  },
  {
    id: 'draft-replies',
    name: WORKFLOW_NAMES['draft-replies'],
    description:
      'For every inbox item still waiting (open, not answered, no pending draft), a draft reply from one of the workspace’s saved replies, {name} becoming the author’s first name. Drafts only: each waits in the inbox for a member to send or discard.',
    inputs: [
      { name: 'savedReplyId', required: true, description: 'The saved reply the drafts start from.' },
      { name: 'kind', required: false, description: 'Only comments, messages or reviews (default: all).' },
      { name: 'minRating', required: false, description: 'Only reviews with at least this many stars.' },
      { name: 'maxRating', required: false, description: 'Only reviews with at most this many stars.' },
    ],
  },
] as const satisfies ReadonlyArray<{
  id: WorkflowId;
  name: string;
  description: string;
  inputs: ReadonlyArray<{ name: string; required: boolean; description: string }>;
}>;

const INPUTS_OF: Record<WorkflowId, ReadonlySet<string>> = {
  'repurpose-post': new Set(['postId', 'connectionIds']),
  'weekly-digest': new Set(['days']),
  'draft-replies': new Set(['savedReplyId', 'kind', 'minRating', 'maxRating']),
};

type RunRow = Prisma.WorkflowRunGetPayload<object>;

function toRunDto(row: RunRow): WorkflowRunDto {
  return {
    runId: row.id,
    workflowId: row.workflowId as WorkflowId,
    status: row.status as WorkflowRunDto['status'],
    input: (row.input ?? {}) as Record<string, unknown>,
    createdAt: iso(row.createdAt),
    startedAt: isoOrNull(row.startedAt),
    finishedAt: isoOrNull(row.finishedAt),
    summary: (row.summary ?? null) as WorkflowRunDto['summary'],
    error: (row.error ?? null) as WorkflowRunDto['error'],
  };
}

const runJobKey = (runId: string) => `workflow-run:${runId}`;

async function queueRun(runId: string): Promise<void> {
  try {
    await getJobs().enqueue('workflows.run', { runId }, { key: runJobKey(runId) });
  } catch (err) {
    log.warn('workflows', `could not queue run ${runId}; the sweep will`, err, { runId });
  }
}

/** Checks the input for the workflow, records a queued run, and queues its job. */
export async function startRun(actor: Actor, input: RunWorkflowInput): Promise<WorkflowRunDto> {
  const workflowId = input.id as WorkflowId;
  if (!(WORKFLOW_IDS as readonly string[]).includes(workflowId)) {
    throw new AppError('WORKFLOW_NOT_FOUND', `No workflow ${input.id}; GET /workflows lists them`, { field: 'id' });
  }
  const { id: _id, ...rest } = input;
  const stray = Object.keys(rest).find((k) => !INPUTS_OF[workflowId].has(k));
  if (stray) throw new AppError('VALIDATION_FAILED', `${stray} is not an input of ${workflowId}`, { field: stray });
  if (workflowId === 'repurpose-post') await checkRepurposeInput(actor.workspaceId, rest);
  if (workflowId === 'draft-replies') await checkDraftRepliesInput(actor.workspaceId, rest);
  const row = await db.workflowRun.create({
    data: { workspaceId: actor.workspaceId, workflowId, status: 'queued', input: rest as Prisma.InputJsonValue, keyId: actor.keyId ?? null },
  });
  await queueRun(row.id);
  return toRunDto(row);
}

export async function getRun(workspaceId: string, runId: string): Promise<WorkflowRunDto> {
  const row = isUuid(runId) ? await db.workflowRun.findFirst({ where: { id: runId, workspaceId } }) : null;
  if (!row) throw new AppError('WORKFLOW_RUN_NOT_FOUND', 'No workflow run with that id in this workspace', { field: 'runId' });
  return toRunDto(row);
}

export async function listRuns(workspaceId: string, limit: number): Promise<WorkflowRunDto[]> {
  const rows = await db.workflowRun.findMany({ where: { workspaceId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit });
  return rows.map(toRunDto);
}

async function finish(row: RunRow, outcome: { summary: unknown } | { error: { code: string; message: string } }): Promise<void> {
  await db.$transaction(async (tx) => {
    const ok = 'summary' in outcome;
    const changed = await tx.workflowRun.updateMany({
      where: { id: row.id, status: 'running' },
      data: ok
        ? { status: 'completed', summary: outcome.summary as Prisma.InputJsonValue, finishedAt: new Date() }
        : { status: 'failed', error: outcome.error, finishedAt: new Date() },
    });
    if (changed.count === 0) return;
    if (ok) {
      await recordEvent(tx, {
        workspaceId: row.workspaceId,
        type: 'workflow.run.completed',
        data: { workflowId: row.workflowId, runId: row.id, summary: outcome.summary },
      });
    } else {
      await recordEvent(tx, {
        workspaceId: row.workspaceId,
        type: 'workflow.run.failed',
        data: { workflowId: row.workflowId, runId: row.id, error: outcome.error },
      });
    }
  });
  void kickOutboxDrain();
}

/** The job: runs the workflow once and records its outcome with the event. */
export async function executeRun(runId: string): Promise<void> {
  const found = await db.workflowRun.findUnique({ where: { id: runId } });
  if (!found || found.status === 'completed' || found.status === 'failed') return;
  const row = await db.workflowRun.update({ where: { id: runId }, data: { status: 'running', startedAt: found.startedAt ?? new Date() } });
  const input = row.input as { postId?: string; connectionIds?: string[]; days?: number };
  try {
    let summary: unknown;
    if (row.workflowId === 'repurpose-post') {
      const progress = (row.progress ?? { drafts: [], skipped: [] }) as unknown as RepurposeProgress;
      summary = await repurposePost(row.workspaceId, input, progress, async (p) => {
        await db.workflowRun.update({ where: { id: runId }, data: { progress: p as unknown as Prisma.InputJsonValue } });
      });
    } else if (row.workflowId === 'draft-replies') {
      summary = await draftReplies(row.workspaceId, row.input as DraftRepliesInput);
    } else {
      summary = await weeklyDigest(row.workspaceId, input);
    }
    await finish(row, { summary });
  } catch (err) {
    // Not now rather than no: the job retries and continues from the saved progress.
    if (isDatabaseUnavailable(err)) throw err;
    const error =
      err instanceof AppError ? { code: err.code, message: err.message } : { code: 'INTERNAL_ERROR', message: 'The workflow stopped on an unexpected error' };
    if (!(err instanceof AppError)) log.error('workflows', `run ${runId} failed`, err, { runId });
    await finish(row, { error });
  }
}

/** Every minute: queue again runs whose job went missing (queued for a minute, or running for ten). */
export async function sweepRuns(): Promise<void> {
  const stale = await db.workflowRun.findMany({
    where: {
      OR: [
        { status: 'queued', createdAt: { lte: new Date(Date.now() - 60_000) } },
        { status: 'running', startedAt: { lte: new Date(Date.now() - 10 * 60_000) } },
      ],
    },
    select: { id: true },
    take: 100,
  });
  for (const { id } of stale) await queueRun(id);
}
