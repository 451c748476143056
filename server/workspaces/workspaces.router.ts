// /workspaces: agency routes. They always act on the key's own workspace (the selection
// header is refused) and need workspaces:manage.
import { z } from 'zod';
import { ZMintedKey, ZMintKeyInput } from '@/server/api-keys/api-keys.schemas';
import { mintKeyForManagedWorkspace } from '@/server/api-keys/mint-api-key';
import { idParam, readEnvelope, writeEnvelope, ZIdOf } from '@/server/shared/schemas';
import { shorten } from '@/server/shared/text';
import { apiProcedure, router } from '@/server/trpc/init';
import type { HeraldMeta } from '@/server/trpc/meta';
import { ZClientLinkBody, ZClientLinkCreated, ZClientLinkRecord, ZReportLinkBody } from '@/server/client-links/client-links.schemas';
import { checkWindow } from '@/server/shared/analytics-window';
import { listClientLinks, revokeClientLink } from '@/server/client-links/manage-client-links';
import { issueClientLink } from '@/server/client-links/issue-client-link';
import { createManagedWorkspace, detachManagedWorkspace, getManagedWorkspace, listManagedWorkspaces } from './managed-workspaces';
import { ZCreateWorkspaceInput, ZWorkspace } from './workspaces.schemas';

const base = { scope: 'workspaces:manage', workspaceHeader: 'forbidden' } as const satisfies Partial<HeraldMeta>;
const ZWorkspaceId = idParam('managed client workspace', 'from workspaces_list or workspaces_create');
const tags = ['Workspaces'];

export const workspacesRouter = router({
  list: apiProcedure
    .meta({
      ...base,
      openapi: {
        method: 'GET',
        path: '/workspaces',
        description:
          'Lists the client workspaces this key’s workspace manages, for an agency that runs several clients from one account. Each id can be sent as X-Service-Workspace on other routes, or used to mint a key for that client.',
        successDescription: 'The managed workspaces, oldest first.',
        tags,
        protect: true,
        summary: 'List the workspaces this workspace manages',
      },
    })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(z.array(ZWorkspace)))
    .query(async ({ ctx }) => ({ data: await listManagedWorkspaces(ctx.actor.homeWorkspaceId) })),

  create: apiProcedure
    .meta({
      errorWhen: { VALIDATION_FAILED: { 409: 'The slug is taken (field: slug); choose another or omit it.' } },
      ...base,
      successStatus: 201,
      errors: ['VALIDATION_FAILED'],
      openapi: {
        method: 'POST',
        path: '/workspaces',
        description:
          'Creates a client workspace managed by this one: a real workspace with its own composer, connections and limits, owned by the agency’s owner and on the agency’s plan. Connect its accounts through a hosted connect link (POST /workspaces/{id}/connect-url).',
        successDescription: 'Created: the new managed workspace.',
        tags,
        protect: true,
        summary: 'Create a client workspace managed by this one',
      },
    })
    .input(ZCreateWorkspaceInput)
    .output(writeEnvelope(ZWorkspace))
    .mutation(async ({ ctx, input }) => ({ data: await createManagedWorkspace(ctx.actor.homeWorkspaceId, input), warnings: [] })),

  get: apiProcedure
    .meta({
      ...base,
      errors: ['WORKSPACE_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/workspaces/{id}',
        description:
          'Reads one workspace this key’s workspace manages. Any other id, including a workspace that exists but is not managed by this one, answers WORKSPACE_NOT_FOUND.',
        successDescription: 'The managed workspace.',
        tags,
        protect: true,
        summary: 'Read a managed workspace',
      },
    })
    .input(ZWorkspaceId)
    .output(readEnvelope(ZWorkspace))
    .query(async ({ ctx, input }) => ({ data: await getManagedWorkspace(ctx.actor.homeWorkspaceId, input.id) })),

  detach: apiProcedure
    .meta({
      ...base,
      successStatus: 204,
      errors: ['WORKSPACE_NOT_FOUND'],
      openapi: {
        method: 'DELETE',
        path: '/workspaces/{id}',
        description:
          'Detaches a managed workspace: the agency stops managing it and nothing is deleted. Every live hosted connect, review and report link of it is revoked; keys minted for it keep working.',
        successDescription: 'Detached; no body.',
        tags,
        protect: true,
        summary: 'Stop managing a workspace (nothing is deleted)',
      },
      assistant: { stage: true, title: (a) => `Stop managing workspace ${String(a.id)}` },
    })
    .input(ZWorkspaceId)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await detachManagedWorkspace(ctx.actor.homeWorkspaceId, input.id);
    }),

  mintKey: apiProcedure
    .meta({
      errorWhen: {
        VALIDATION_FAILED:
          'the only scope requested is workspaces:manage (which a client key never holds), no scope would remain, or expiresAt is not in the future; field names it',
      },
      ...base,
      successStatus: 201,
      errors: ['WORKSPACE_NOT_FOUND', 'VALIDATION_FAILED'],
      openapi: {
        method: 'POST',
        path: '/workspaces/{id}/api-keys',
        description:
          'Mints an API key that belongs to a managed workspace, so a client’s own systems can call Herald without the agency’s key. The key never holds workspaces:manage, needs no workspace header, and keeps working after the workspace is detached.',
        successDescription: 'Created: the key record with its secret, shown this once.',
        tags,
        protect: true,
        summary: 'Mint an API key for a managed workspace',
      },
      assistant: {
        stage: true,
        title: (a) => `Mint an API key "${shorten(a.name, 40)}" for workspace ${String(a.id)}`,
        hint: 'Once a member confirms, proposals_get shows the new key’s secret to this key once.',
      },
    })
    .input(ZMintKeyInput.extend(ZWorkspaceId.shape))
    .output(writeEnvelope(ZMintedKey))
    .mutation(async ({ ctx, input }) => {
      const { id, ...body } = input;
      return {
        data: await mintKeyForManagedWorkspace({ agencyWorkspaceId: ctx.actor.homeWorkspaceId, workspaceId: id, callerScopes: ctx.actor.scopes, input: body }),
        warnings: [],
      };
    }),

  connectUrl: apiProcedure
    .meta({
      ...base,
      successStatus: 201,
      errors: ['WORKSPACE_NOT_FOUND'],
      openapi: {
        method: 'POST',
        path: '/workspaces/{id}/connect-url',
        successDescription: 'Created: the link, shown this once, with its expiry.',
        tags,
        protect: true,
        summary: 'Issue a hosted connect link for a managed workspace',
        description:
          'The link opens a branded page where the client connects its own accounts, without logging in. It is shown once; `rotate` revokes every earlier connect link of the workspace first. Detaching the workspace revokes its links.',
      },
      assistant: { hint: 'The link is in this answer only; rotate revokes earlier ones.' },
    })
    .input(ZClientLinkBody.extend(ZWorkspaceId.shape))
    .output(writeEnvelope(ZClientLinkCreated))
    .mutation(async ({ ctx, input }) => {
      const { id, ...body } = input;
      return {
        data: await issueClientLink({ agencyWorkspaceId: ctx.actor.homeWorkspaceId, workspaceId: id, kind: 'connect', input: body, by: ctx.actor }),
        warnings: [],
      };
    }),

  reviewUrl: apiProcedure
    .meta({
      ...base,
      successStatus: 201,
      errors: ['WORKSPACE_NOT_FOUND'],
      openapi: {
        method: 'POST',
        path: '/workspaces/{id}/review-url',
        successDescription: 'Created: the link, shown this once, with its expiry.',
        tags,
        protect: true,
        summary: 'Herald extension: issue a client review link for a managed workspace',
        description:
          'Not part of the v1 contract. The link (`<connect base>/review/<token>`) opens a branded page, without login, listing the workspace’s posts awaiting approval; the client approves or rejects each with a comment, through the same rules as a member in the app (events `post.approved`; `approvedBy` is `review-link:<link id>`). Same body and answer as connect-url; `rotate` revokes earlier review links, detach revokes all.',
      },
      assistant: { hint: 'The client approves or rejects pending posts there, without login. The link is in this answer only.' },
    })
    .input(ZClientLinkBody.extend(ZWorkspaceId.shape))
    .output(writeEnvelope(ZClientLinkCreated))
    .mutation(async ({ ctx, input }) => {
      const { id, ...body } = input;
      return {
        data: await issueClientLink({ agencyWorkspaceId: ctx.actor.homeWorkspaceId, workspaceId: id, kind: 'review', input: body, by: ctx.actor }),
        warnings: [],
      };
    }),

  reportUrl: apiProcedure
    .meta({
      ...base,
      successStatus: 201,
      errors: ['WORKSPACE_NOT_FOUND', 'VALIDATION_FAILED'],
      openapi: {
        method: 'POST',
        path: '/workspaces/{id}/report-url',
        successDescription: 'Created: the link, shown this once, with its expiry.',
        tags,
        protect: true,
        summary: 'Herald extension: issue a client report link (results of a date range) for a managed workspace',
        description:
          'Not part of the v1 contract. The link (`<connect base>/report/<token>`) opens a branded, read-only page, without login, with the results of what the workspace published from `from` to `to` (days in the workspace’s time zone, both included, at most 366 days): headline numbers with their coverage, per-network comparison, a per-day chart, top posts and everything published. The same report as a PDF: `GET /public/report/{token}/pdf`; as JSON: `GET /public/report/{token}`. The numbers are read when the link is opened, so a report of a running month fills in. Same brand, expiry and `rotate` as review-url (`rotate` revokes earlier report links); detach revokes all.',
      },
    })
    .input(ZReportLinkBody.extend(ZWorkspaceId.shape).superRefine(checkWindow))
    .output(writeEnvelope(ZClientLinkCreated))
    .mutation(async ({ ctx, input }) => {
      const { id, from, to, title, ...body } = input;
      return {
        data: await issueClientLink({
          agencyWorkspaceId: ctx.actor.homeWorkspaceId,
          workspaceId: id,
          kind: 'report',
          input: body,
          report: { from, to, title: title ?? null },
          by: ctx.actor,
        }),
        warnings: [],
      };
    }),

  links: apiProcedure
    .meta({
      ...base,
      errors: ['WORKSPACE_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/workspaces/{id}/links',
        successDescription: 'The live links, without their tokens.',
        tags,
        protect: true,
        summary: 'Herald extension: the live connect, review and report links of a managed workspace',
        description: 'Links are shown once at creation and stored only as a hash, so this lists what each link is and when it expires, never its URL.',
      },
    })
    .input(ZWorkspaceId)
    .output(readEnvelope(z.array(ZClientLinkRecord)))
    .query(async ({ ctx, input }) => ({ data: await listClientLinks({ agencyWorkspaceId: ctx.actor.homeWorkspaceId, workspaceId: input.id }) })),

  revokeLink: apiProcedure
    .meta({
      ...base,
      successStatus: 204,
      errors: ['WORKSPACE_NOT_FOUND', 'CLIENT_LINK_NOT_FOUND'],
      openapi: {
        method: 'DELETE',
        path: '/workspaces/{id}/links/{linkId}',
        description:
          'Herald extension. Revokes one connect, review or report link of a managed workspace at once; the link then answers CONNECT_TOKEN_INVALID, as if it never existed.',
        successDescription: 'Revoked; no body.',
        tags,
        protect: true,
        summary: 'Herald extension: revoke one connect, review or report link; it answers CONNECT_TOKEN_INVALID from now on',
      },
      assistant: { stage: true, title: (a) => `Revoke client link ${String(a.linkId)} of workspace ${String(a.id)}` },
    })
    .input(ZWorkspaceId.extend({ linkId: ZIdOf('client link', 'from workspaces_links') }))
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await revokeClientLink({ agencyWorkspaceId: ctx.actor.homeWorkspaceId, workspaceId: input.id, linkId: input.linkId, by: ctx.actor });
    }),
});
