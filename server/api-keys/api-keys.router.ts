// /api-keys: the keys of the workspace the request acts on (Herald extension, docs/decisions.md
// → "API keys routes"). Managing keys is an administrator's act, so the routes need
// workspaces:manage; unlike /workspaces/*, they accept the selection header: an agency manages
// a client's keys the way it acts for the client everywhere else.
import { z } from 'zod';
import { idParam, readEnvelope, writeEnvelope } from '@/server/shared/schemas';
import { shorten } from '@/server/shared/text';
import { apiProcedure, router } from '@/server/trpc/init';
import type { HeraldMeta } from '@/server/trpc/meta';
import { ZApiKey, ZMintedKey, ZMintKeyInput } from './api-keys.schemas';
import { listApiKeys, mintApiKey, revokeApiKey } from './manage-api-keys';

const base = { scope: 'workspaces:manage' } as const satisfies Partial<HeraldMeta>;
const tags = ['API keys'];

export const apiKeysRouter = router({
  list: apiProcedure
    .meta({
      ...base,
      openapi: {
        method: 'GET',
        path: '/api-keys',
        description:
          'Herald extension. Lists the live API keys of the key’s own workspace with their prefix, scopes, expiry and last use, to audit or rotate them. Secrets are never listed: they are shown once, when minted.',
        successDescription: 'The live keys, newest first, without secrets.',
        tags,
        protect: true,
        summary: 'Herald extension: list the workspace’s live API keys (never their secrets)',
      },
    })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(z.array(ZApiKey)))
    .query(async ({ ctx }) => ({ data: await listApiKeys(ctx.actor.workspaceId) })),

  create: apiProcedure
    .meta({
      errorWhen: { VALIDATION_FAILED: 'no scope would remain, or expiresAt is not in the future; field names it' },
      ...base,
      successStatus: 201,
      errors: ['VALIDATION_FAILED'],
      openapi: {
        method: 'POST',
        path: '/api-keys',
        successDescription: 'Created: the key record with its secret, shown this once.',
        tags,
        protect: true,
        summary: 'Herald extension: mint an API key for this workspace',
        description:
          'The secret is in this answer only. A key cannot grant scopes the caller lacks; for a client workspace (selection header) workspaces:manage is stripped, as on POST /workspaces/{id}/api-keys.',
      },
      assistant: { stage: true, title: (a) => `Mint an API key "${shorten(a.name, 40)}"`, hint: 'Once confirmed, proposals_get shows the secret once.' },
    })
    .input(ZMintKeyInput)
    .output(writeEnvelope(ZMintedKey))
    .mutation(async ({ ctx, input }) => ({
      data: await mintApiKey({
        workspaceId: ctx.actor.workspaceId,
        homeWorkspaceId: ctx.actor.homeWorkspaceId,
        callerScopes: ctx.actor.scopes,
        input,
        by: ctx.actor,
      }),
      warnings: [],
    })),

  revoke: apiProcedure
    .meta({
      ...base,
      successStatus: 204,
      errors: ['API_KEY_NOT_FOUND'],
      openapi: {
        method: 'DELETE',
        path: '/api-keys/{id}',
        description: 'Herald extension. Revokes one API key of this workspace; its next request answers 401. Revoking the key making the call is allowed.',
        successDescription: 'Revoked; no body.',
        tags,
        protect: true,
        summary: 'Herald extension: revoke an API key; its next request answers 401',
      },
      assistant: { stage: true, title: (a) => `Revoke API key ${String(a.id)}` },
    })
    .input(idParam('API key', 'from api_keys_list (GET /api-keys)'))
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await revokeApiKey(ctx.actor.workspaceId, input.id, ctx.actor);
    }),
});
