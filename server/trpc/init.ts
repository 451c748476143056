// tRPC initialisation and the procedure chain every route uses:
//   authenticate → select workspace → rate limit → scope → idempotency (writes) → handler
// Each step reads the route's meta (server/trpc/meta.ts). REST (trpc-to-openapi), the UI's
// /api/trpc endpoint and the tool endpoint all call these same procedures.
import { initTRPC } from '@trpc/server';
import type { Actor } from '@/server/auth/actor';
import { authenticateApiKey } from '@/server/auth/authenticate-key';
import { resolveStaffActor } from '@/server/auth/staff-actor';
import { hasScope } from '@/server/auth/scopes';
import { selectWorkspace } from '@/server/auth/workspace-selection';
import { AppError } from '@/server/errors/app-error';
import { describeIssues, toErrorResponse } from '@/server/errors/http';
import { ZodError } from 'zod';
import { HEADERS } from '@/server/shared/headers';
import { claimIdempotencyKey, completeIdempotencyKey, fingerprint, releaseIdempotencyKey } from '@/server/idempotency/idempotency';
import { stagedRouteChecks } from '@/server/proposals/prechecks';
import { confirmationRequired, stageProposal } from '@/server/proposals/proposals';
import { consumeRequest } from '@/server/ratelimit/limiter';
import type { RequestContext } from './context';
import type { HeraldMeta } from './meta';

const t = initTRPC
  .context<RequestContext>()
  .meta<HeraldMeta>()
  .create({
    // tRPC clients (the UI) get the same code/status/body the REST surface answers. Errors
    // Herald did not raise itself (a bug, an unreachable database) keep their own text out.
    errorFormatter({ shape, error }) {
      const mapped = toErrorResponse(error);
      const ownText = mapped.code !== 'INTERNAL_ERROR' && mapped.code !== 'SERVICE_UNAVAILABLE';
      const body = mapped.body as { error?: { message?: string } };
      const message = ownText ? shape.message : (body.error?.message ?? shape.message);
      return {
        ...shape,
        message,
        data: { ...shape.data, stack: undefined, herald: { status: mapped.status, code: mapped.code, body: mapped.body, headers: mapped.headers } },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure;

/** tRPC short-circuit result (the shape its own middleware chain returns). */
const MIDDLEWARE_MARKER = 'middlewareMarker' as const;

// The chain is a few middlewares on purpose: tRPC copies its options and the context for
// every level (measured with bench/api-chain-cpu.ts: the spreads were the largest share of the
// chain's own CPU on GET /posts/{id}), so steps that always run together share one level.

/**
 * Who is calling: the route exists in this deployment, the key or staff member is known, the
 * workspace selected; and a success answers the route's own status (201 …).
 */
const authenticated = t.middleware(async ({ ctx, meta, next }) => {
  if (meta?.enabled && !meta.enabled()) throw new AppError('ROUTE_NOT_FOUND', 'No route at this method and path');
  let actor: Actor;
  if (ctx.staffUserId) {
    actor = await resolveStaffActor(ctx.staffUserId, ctx.headers.get(HEADERS.workspace));
  } else {
    const key = ctx.principal ?? (await authenticateApiKey(ctx.headers.get('authorization')));
    const workspaceId = await selectWorkspace({
      homeWorkspaceId: key.workspaceId,
      headerValue: ctx.headers.get(HEADERS.workspace),
      headerForbidden: meta?.workspaceHeader === 'forbidden',
    });
    actor = { kind: 'apiKey', workspaceId, homeWorkspaceId: key.workspaceId, scopes: key.scopes, keyId: key.keyId };
  }
  const result = await next({ ctx: { ...ctx, actor } });
  if (result.ok && meta?.successStatus && ctx.response.status === undefined) ctx.response.status = meta.successStatus;
  return result;
});

/**
 * A signed-in member acting on their own account (password, second factor, sessions), in no
 * workspace: open even while their agency waits for them to set up a second factor. Staff
 * sessions only; never a REST route or a tool.
 */
export const staffProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.staffUserId) throw new AppError('UNAUTHORIZED', 'Sign in to Herald first');
  return next({ ctx: { ...ctx, staffUserId: ctx.staffUserId, sessionToken: ctx.sessionToken ?? null } });
});

/** Authenticated: `ctx.actor` is set (and typed so) for every step after this one. */
const authedProcedure = t.procedure.use(authenticated);

/** Every route that needs a key (or a staff session). */
export const apiProcedure = authedProcedure
  // May this call run: the workspace's rate limit (API keys only: staff using the app are not
  // metered, the budget protects the public surfaces), then the route's scope. And routes whose
  // meta says `inputErrors: 'field'` answer an input the schema refuses with VALIDATION_FAILED
  // naming the first offending parameter: the input is parsed after every middleware of this
  // chain, so this step sees the parse failure as a failed result.
  .use(async ({ ctx, meta, next }) => {
    const actor = ctx.actor;
    if (actor.kind === 'apiKey') {
      const { headers } = await consumeRequest(actor.workspaceId);
      Object.assign(ctx.response.headers, headers);
    }
    if (meta?.scope && !hasScope(actor.scopes, meta.scope)) {
      throw new AppError('SCOPE_MISSING', `This key lacks the scope ${meta.scope}`);
    }
    const result = await next();
    if (result.ok || meta?.inputErrors !== 'field') return result;
    const cause = result.error.cause;
    if (result.error.code !== 'BAD_REQUEST' || !(cause instanceof ZodError)) return result;
    const first = cause.issues[0]!;
    const field = first.code === 'unrecognized_keys' ? first.keys[0]! : first.path.map(String).join('.');
    throw new AppError('VALIDATION_FAILED', describeIssues(cause.issues).join('; '), { field: field || undefined });
  })
  // Writes an assistant makes and the Idempotency-Key, in one level (see the note above).
  .use(async ({ ctx, meta, type, path, getRawInput, next }) => {
    type Result = Awaited<ReturnType<typeof next>>;
    // Assistant actions: through the tool endpoint, a call with an external or destructive
    // effect is recorded as a staged action for a member to confirm instead of run (after the
    // scope check: a call the key may not make is refused, never staged; after the
    // Idempotency-Key claim: a retried call answers the same staged action). Only what would
    // run if confirmed now is staged: the procedure's precheck (its service's own checks,
    // server/proposals/prechecks.ts) refuses the rest with the code REST answers.
    const run = async (): Promise<Result> => {
      const call = ctx.assistant;
      const stage = meta?.assistant?.stage;
      if (!call?.stageable || !stage || ctx.actor.kind !== 'apiKey') return next();
      const args = ((await getRawInput()) ?? {}) as Record<string, unknown>;
      if (stage !== true && !stage(args)) return next();
      if (!(await confirmationRequired(ctx.actor.workspaceId, ctx.actor.keyId))) return next();
      const precheck = stagedRouteChecks[path];
      if (!precheck) throw new AppError('INTERNAL_ERROR', `${path} is staged but has no precheck`);
      await precheck(ctx.actor, args);
      const proposal = await stageProposal({
        workspaceId: ctx.actor.workspaceId,
        keyId: ctx.actor.keyId ?? null,
        sessionId: call.sessionId,
        toolName: call.toolName,
        procedure: path,
        title: meta.assistant?.title?.(args) ?? meta.openapi?.summary ?? call.toolName,
        arguments: args,
        workspaceHeader: ctx.headers.get(HEADERS.workspace),
      });
      ctx.response.status = 202;
      const staged = {
        staged: {
          actionId: proposal.actionId,
          toolName: proposal.toolName,
          title: proposal.title,
          status: 'staged' as const,
          expiresAt: proposal.expiresAt,
          confirmUrl: proposal.confirmUrl,
        },
      };
      return { ok: true as const, data: staged, marker: MIDDLEWARE_MARKER } as unknown as Result;
    };
    // Idempotency-Key on writes: replay, refuse a different request, or claim and record.
    const key = ctx.headers.get(HEADERS.idempotencyKey);
    if (type !== 'mutation' || key === null) return run();
    const claim = await claimIdempotencyKey({
      workspaceId: ctx.actor.workspaceId,
      key,
      fingerprint: fingerprint(path, await getRawInput()),
    });
    if (claim.kind === 'replay') {
      ctx.response.status = claim.statusCode;
      ctx.response.headers['Idempotent-Replayed'] = 'true';
      return { ok: true as const, data: claim.body, marker: MIDDLEWARE_MARKER } as unknown as Result;
    }
    let result: Result;
    try {
      result = await run();
    } catch (err) {
      await releaseIdempotencyKey(claim);
      throw err;
    }
    if (result.ok) {
      await completeIdempotencyKey(claim, ctx.response.status ?? meta?.successStatus ?? 200, result.data);
    } else {
      await releaseIdempotencyKey(claim);
    }
    return result;
  });

export type ApiContext = RequestContext & { actor: Actor };
