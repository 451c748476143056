// Staged assistant actions. Through the tool endpoint, a call with an external or destructive
// effect (publish, schedule, cancel, detach, webhook changes, key minting …) is recorded here
// instead of run, unless the workspace or the key turned confirmation off. A member confirms
// (the call then runs once, as a job, under the original key's scopes) or declines; a
// proposal nobody decides expires. REST is unaffected: integrators are not assistants.
import type { Actor } from '@/server/auth/actor';
import type { Scope } from '@/server/auth/scopes';
import { env } from '@/server/config/env';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { kickOutboxDrain } from '@/server/events';
import { recordEvent } from '@/server/events/record-event';
import type { Prisma } from '@/server/generated/prisma/client';
import { getJobs } from '@/server/jobs';
import { iso, isoOrNull, isUuid } from '@/server/shared/schemas';
import { openSecret, sealSecret } from '@/server/webhooks/secrets';
import { stagedRouteChecks } from './prechecks';
import { PROPOSAL_TTL_MS, type ProposalDto, type ProposalStatus } from './proposals.schemas';
import { log } from '@/server/observability/log';

type ProposalRow = Prisma.AssistantProposalGetPayload<object>;

export const proposalJobKey = (actionId: string) => `proposal:${actionId}`;
export const confirmUrlOf = (actionId: string) => `${env.baseUrl()}/proposals/${actionId}`;

interface Names {
  keys: Map<string, string>;
  users: Map<string, string>;
}

function toProposalDto(row: ProposalRow, names: Names = { keys: new Map(), users: new Map() }): ProposalDto {
  return {
    actionId: row.id,
    toolName: row.toolName,
    title: row.title,
    arguments: (row.arguments ?? {}) as Record<string, unknown>,
    status: row.status as ProposalStatus,
    keyId: row.keyId,
    keyName: row.keyId ? (names.keys.get(row.keyId) ?? null) : null,
    createdAt: iso(row.createdAt),
    expiresAt: iso(row.expiresAt),
    decidedAt: isoOrNull(row.decidedAt),
    decidedBy: row.decidedByUserId,
    decidedByName: row.decidedByUserId ? (names.users.get(row.decidedByUserId) ?? null) : null,
    declineReason: row.declineReason,
    outcome: (row.outcome ?? null) as ProposalDto['outcome'],
    confirmUrl: confirmUrlOf(row.id),
  };
}

/** The rows as answered, with who staged (the key's name) and who decided (the member's name): two queries for any number of rows. */
async function toProposalDtos(rows: ProposalRow[]): Promise<ProposalDto[]> {
  const keyIds = [...new Set(rows.flatMap((r) => (r.keyId ? [r.keyId] : [])))];
  const userIds = [...new Set(rows.flatMap((r) => (r.decidedByUserId ? [r.decidedByUserId] : [])))];
  const [keys, users] = await Promise.all([
    keyIds.length ? db.apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, name: true } }) : [],
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true, email: true } }) : [],
  ]);
  const names: Names = { keys: new Map(keys.map((k) => [k.id, k.name])), users: new Map(users.map((u) => [u.id, u.name ?? u.email])) };
  return rows.map((r) => toProposalDto(r, names));
}
const toOneDto = async (row: ProposalRow) => (await toProposalDtos([row]))[0]!;

const notFound = () => new AppError('PROPOSAL_NOT_FOUND', 'No staged action with that id in this workspace', { field: 'id' });

/**
 * Whether an assistant's call waits for a member: the key's own setting when it has one,
 * otherwise the workspace's (on by default). One query.
 */
export async function confirmationRequired(workspaceId: string, keyId: string | undefined): Promise<boolean> {
  const rows = await db.$queryRaw<Array<{ workspace: boolean; key: boolean | null }>>`
    SELECT w."assistantConfirmation" AS "workspace", k."assistantConfirmation" AS "key"
    FROM "Workspace" w LEFT JOIN "ApiKey" k ON k."id" = ${keyId ?? null}::uuid
    WHERE w."id" = ${workspaceId}::uuid`;
  const row = rows[0];
  if (!row) return true;
  return row.key ?? row.workspace;
}

export interface StageInput {
  workspaceId: string;
  keyId: string | null;
  sessionId: string | null;
  toolName: string;
  procedure: string;
  title: string;
  arguments: Record<string, unknown>;
  /** The workspace-selection header of the original call, replayed when it runs. */
  workspaceHeader: string | null;
}

export async function stageProposal(input: StageInput): Promise<ProposalDto> {
  const row = await db.$transaction(async (tx) => {
    const created = await tx.assistantProposal.create({
      data: {
        workspaceId: input.workspaceId,
        keyId: input.keyId,
        sessionId: input.sessionId,
        toolName: input.toolName,
        procedure: input.procedure,
        title: input.title,
        arguments: input.arguments as Prisma.InputJsonValue,
        workspaceHeader: input.workspaceHeader,
        status: 'staged',
        expiresAt: new Date(Date.now() + PROPOSAL_TTL_MS),
      },
    });
    await recordEvent(tx, {
      workspaceId: input.workspaceId,
      type: 'proposal.staged',
      data: { actionId: created.id, toolName: created.toolName, title: created.title },
    });
    return created;
  });
  void kickOutboxDrain();
  return toOneDto(row);
}

export async function listProposals(workspaceId: string, query: { status?: ProposalStatus; limit: number }): Promise<ProposalDto[]> {
  await expireProposals(workspaceId);
  const rows = await db.assistantProposal.findMany({
    where: { workspaceId, ...(query.status ? { status: query.status } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: query.limit,
  });
  return toProposalDtos(rows);
}

/**
 * One proposal. When its run produced a secret (a minted key, a webhook signing secret), the
 * key that staged the call receives it in `outcome.result` on its first read, and never again:
 * the same "shown once" rule as the routes themselves.
 */
export async function getProposal(workspaceId: string, id: string, reader: { keyId?: string } = {}): Promise<ProposalDto> {
  if (!isUuid(id)) throw notFound();
  await expireProposals(workspaceId);
  const row = await db.assistantProposal.findFirst({ where: { id, workspaceId } });
  if (!row) throw notFound();
  const dto = await toOneDto(row);
  if (row.outcomeSecret && reader.keyId && reader.keyId === row.keyId) {
    const taken = await db.assistantProposal.updateMany({ where: { id, outcomeSecret: row.outcomeSecret }, data: { outcomeSecret: null } });
    if (taken.count === 1) {
      const data = (dto.outcome?.result as { data?: Record<string, unknown> } | undefined)?.data;
      if (data) data.secret = openSecret(row.outcomeSecret);
    }
  }
  return dto;
}

/** Takes `data.secret` out of a run's result, sealed, so the stored outcome holds no secret. */
function withoutSecret(result: unknown): { result: unknown; sealed: string | null } {
  const data = (result as { data?: Record<string, unknown> } | null)?.data;
  if (!data || typeof data.secret !== 'string') return { result, sealed: null };
  const { secret, ...rest } = data;
  return { result: { ...(result as object), data: { ...rest, secret: null } }, sealed: sealSecret(secret as string) };
}

/** Confirming and declining are a member's act in the app, never a key's. */
function memberOf(actor: Actor): string {
  if (actor.kind !== 'staff' || !actor.userId) throw new AppError('FORBIDDEN', 'Staged actions are confirmed by a member in the app');
  return actor.userId;
}

/**
 * Confirms a staged action and queues its run. Confirming again (a double click, two
 * members at once) changes nothing and runs nothing more: only the transition from
 * `staged` queues the job, and the run itself is keyed by the action.
 */
export async function confirmProposal(actor: Actor, id: string): Promise<ProposalDto> {
  const userId = memberOf(actor);
  if (!isUuid(id)) throw notFound();
  await expireProposals(actor.workspaceId);
  const changed = await db.assistantProposal.updateMany({
    where: { id, workspaceId: actor.workspaceId, status: 'staged' },
    data: { status: 'confirmed', decidedAt: new Date(), decidedByUserId: userId },
  });
  const row = await db.assistantProposal.findFirst({ where: { id, workspaceId: actor.workspaceId } });
  if (!row) throw notFound();
  if (changed.count === 0 && row.status !== 'confirmed' && row.status !== 'executed' && row.status !== 'failed') {
    throw new AppError('PROPOSAL_NOT_PENDING', `This action was ${row.status} and can no longer be confirmed`);
  }
  if (changed.count === 1) {
    // Re-checked now: the action waited, and what it acts on may have changed meanwhile.
    // One that can no longer run fails here, with the reason, instead of in the job.
    const refusal = await recheck(row);
    if (refusal) {
      await recordProposalOutcome(row.id, { ok: false, error: refusal });
      return toOneDto(await db.assistantProposal.findUniqueOrThrow({ where: { id: row.id } }));
    }
    await queueRun(row.id);
  }
  return toOneDto(row);
}

/** Codes that mean "cannot tell now", not "no": the run decides (it retries them). */
const NOT_A_REFUSAL = new Set(['SERVICE_UNAVAILABLE', 'INTERNAL_ERROR', 'RATE_LIMITED']);

/**
 * Why the confirmed action could not run now, or null: the staging precheck again, as the
 * key that staged it (a key revoked meanwhile fails like its run would).
 */
async function recheck(row: ProposalRow): Promise<{ code: string; message: string } | null> {
  const key = row.keyId
    ? await db.apiKey.findUnique({ where: { id: row.keyId }, select: { workspaceId: true, scopes: true, revokedAt: true, expiresAt: true } })
    : null;
  if (!key || key.revokedAt || (key.expiresAt && key.expiresAt <= new Date())) {
    return { code: 'UNAUTHORIZED', message: 'The API key that staged this action was revoked or expired' };
  }
  const actor: Actor = { kind: 'apiKey', workspaceId: row.workspaceId, homeWorkspaceId: key.workspaceId, scopes: key.scopes as Scope[], keyId: row.keyId! };
  try {
    await stagedRouteChecks[row.procedure]?.(actor, (row.arguments ?? {}) as Record<string, unknown>);
    return null;
  } catch (err) {
    if (!(err instanceof AppError) || NOT_A_REFUSAL.has(err.code)) throw err;
    return { code: err.code, message: err.message };
  }
}

async function queueRun(actionId: string): Promise<void> {
  try {
    await getJobs().enqueue('proposals.execute', { actionId }, { key: proposalJobKey(actionId) });
  } catch (err) {
    // The sweep (proposals.sweep, every minute) queues confirmed actions that never ran.
    log.warn('proposals', `could not queue the run of ${actionId}; the sweep will`, err, { actionId });
  }
}

export async function declineProposal(actor: Actor, id: string, reason: string | undefined): Promise<ProposalDto> {
  const userId = memberOf(actor);
  if (!isUuid(id)) throw notFound();
  await expireProposals(actor.workspaceId);
  const changed = await db.assistantProposal.updateMany({
    where: { id, workspaceId: actor.workspaceId, status: 'staged' },
    data: { status: 'declined', decidedAt: new Date(), decidedByUserId: userId, declineReason: reason ?? null },
  });
  const row = await db.assistantProposal.findFirst({ where: { id, workspaceId: actor.workspaceId } });
  if (!row) throw notFound();
  if (changed.count === 0 && row.status !== 'declined') {
    throw new AppError('PROPOSAL_NOT_PENDING', `This action was ${row.status} and can no longer be declined`);
  }
  return toOneDto(row);
}

/** Actions waiting for a member right now (the app's navigation badge); ones past their time do not count. */
export async function countStagedProposals(workspaceId: string): Promise<number> {
  return db.assistantProposal.count({ where: { workspaceId, status: 'staged', expiresAt: { gt: new Date() } } });
}

/** Staged actions past their time are recorded as expired (lazily on read, and by the sweep). */
export async function expireProposals(workspaceId?: string): Promise<number> {
  const res = await db.assistantProposal.updateMany({
    where: { status: 'staged', expiresAt: { lte: new Date() }, ...(workspaceId ? { workspaceId } : {}) },
    data: { status: 'expired' },
  });
  return res.count;
}

/** The confirmed action to run, or null when it already ran (a retried or duplicated job). */
export async function proposalToRun(actionId: string): Promise<ProposalRow | null> {
  return db.assistantProposal.findFirst({ where: { id: actionId, status: 'confirmed' } });
}

export interface ProposalOutcome {
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string };
}

/** Records how the confirmed call went and emits proposal.confirmed with that outcome, once. */
export async function recordProposalOutcome(actionId: string, outcome: ProposalOutcome): Promise<void> {
  const { result, sealed } = withoutSecret(outcome.result);
  const stored = outcome.ok ? { ...outcome, result } : outcome;
  await db.$transaction(async (tx) => {
    const changed = await tx.assistantProposal.updateMany({
      where: { id: actionId, status: 'confirmed' },
      data: { status: outcome.ok ? 'executed' : 'failed', outcome: stored as unknown as Prisma.InputJsonValue, outcomeSecret: sealed, executedAt: new Date() },
    });
    if (changed.count === 0) return;
    const row = await tx.assistantProposal.findUniqueOrThrow({ where: { id: actionId } });
    await recordEvent(tx, {
      workspaceId: row.workspaceId,
      type: 'proposal.confirmed',
      data: { actionId: row.id, toolName: row.toolName, title: row.title, outcome: { ok: outcome.ok, error: outcome.error ?? null } },
    });
  });
  void kickOutboxDrain();
}

/** Every minute: expire what nobody decided, and queue again confirmed actions whose run was lost. */
export async function sweepProposals(): Promise<void> {
  await expireProposals();
  const stale = await db.assistantProposal.findMany({
    where: { status: 'confirmed', decidedAt: { lte: new Date(Date.now() - 60_000) } },
    select: { id: true },
    take: 100,
  });
  for (const { id } of stale) await queueRun(id);
}

export interface ConfirmationPolicy {
  workspaceConfirmation: boolean;
  keys: Array<{ id: string; name: string; confirmation: boolean | null }>;
}

export async function getConfirmationPolicy(workspaceId: string): Promise<ConfirmationPolicy> {
  const ws = await db.workspace.findUniqueOrThrow({
    where: { id: workspaceId },
    select: {
      assistantConfirmation: true,
      apiKeys: { where: { revokedAt: null }, select: { id: true, name: true, assistantConfirmation: true }, orderBy: { createdAt: 'asc' } },
    },
  });
  return {
    workspaceConfirmation: ws.assistantConfirmation,
    keys: ws.apiKeys.map((k) => ({ id: k.id, name: k.name, confirmation: k.assistantConfirmation })),
  };
}

/** A member turns confirmation off (or on) for the workspace or for one of its keys. */
export async function setConfirmationPolicy(
  actor: Actor,
  input: { workspaceConfirmation?: boolean; key?: { id: string; confirmation: boolean | null } },
): Promise<ConfirmationPolicy> {
  memberOf(actor);
  await db.$transaction(async (tx) => {
    if (input.workspaceConfirmation !== undefined) {
      await tx.workspace.update({ where: { id: actor.workspaceId }, data: { assistantConfirmation: input.workspaceConfirmation } });
    }
    if (input.key) {
      const changed = await tx.apiKey.updateMany({
        where: { id: input.key.id, workspaceId: actor.workspaceId },
        data: { assistantConfirmation: input.key.confirmation },
      });
      if (changed.count === 0) throw new AppError('VALIDATION_FAILED', 'No API key with that id in this workspace', { field: 'key.id' });
    }
  });
  return getConfirmationPolicy(actor.workspaceId);
}
