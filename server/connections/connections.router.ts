import { z } from 'zod';
import { apiProcedure, router } from '@/server/trpc/init';
import { ZConnection } from './connections.schemas';
import { ZProvenance } from '@/server/analytics/analytics.schemas';
import { instagramProfilesEnabled, listInstagramProfiles } from './instagram-profiles';
import { listConnections } from './list-connections';
import { ZClientLinkCreated } from '@/server/client-links/client-links.schemas';
import { issueMemberConnectLink } from '@/server/client-links/issue-client-link';
import { connectionUsage, disconnectConnection } from '@/server/posts/disconnect-connection';
import { idParam, readEnvelope, writeEnvelope } from '@/server/shared/schemas';

const ZInstagramProfile = z
  .object({
    connectionId: z.uuid().describe('The Instagram connection, as GET /connections lists it'),
    handle: z.string().describe('The account’s Instagram handle'),
    displayName: z.string().describe('The account’s display name'),
    avatarUrl: z.string().nullable().describe('The account’s picture, when Instagram gives one'),
    provider: z.enum(['sandbox', 'live']).describe('live: the real network; sandbox: a demo account that publishes nowhere'),
    status: z.enum(['active', 'inactive']).describe('inactive: disconnected in the app; posts to it are refused'),
    connectedAt: z.iso.datetime({ offset: true }).describe('When the account was connected, in ISO 8601'),
  })
  .meta({ id: 'InstagramProfile', description: 'A connected Instagram business account the workspace tracks.' });

export const connectionsRouter = router({
  list: apiProcedure
    .meta({
      scope: 'connections:read',
      openapi: {
        method: 'GET',
        path: '/connections',
        description:
          'Lists the social accounts connected to the workspace, the ids POST /posts takes in connectionIds. tokenHealth (valid, expiring_soon, expired, unknown), the last error and the last successful post tell which accounts need reconnecting in the app before a post goes out.',
        successDescription: 'The connected accounts.',
        tags: ['Connections'],
        protect: true,
        summary: 'Connected social accounts with token health',
      },
    })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(z.array(ZConnection)))
    .query(async ({ ctx }) => ({ data: await listConnections(ctx.actor.workspaceId) })),

  instagramProfiles: apiProcedure
    .meta({
      scope: 'analytics:read',
      enabled: instagramProfilesEnabled,
      errors: ['ROUTE_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/instagram/profiles',
        description:
          'Lists the Instagram handles the workspace tracks. The route exists only on deployments with a Meta app configured; elsewhere it answers ROUTE_NOT_FOUND (404) like a path that does not exist.',
        successDescription: 'The tracked Instagram profiles.',
        tags: ['Connections'],
        protect: true,
        summary: 'Tracked Instagram handles; 404 ROUTE_NOT_FOUND unless this deployment has a Meta app (the platform-derived flag)',
      },
    })
    .input(z.strictObject({}).optional())
    .output(z.object({ data: z.array(ZInstagramProfile).describe('The workspace’s Instagram accounts, oldest first'), provenance: ZProvenance }))
    .query(({ ctx }) => listInstagramProfiles(ctx.actor.workspaceId)),

  // The app's own (not REST) procedures below: connecting happens on the hosted connect page,
  // and disconnecting is decided in the app with its warning (docs/decisions.md).

  /** A one-hour connect link for the workspace acting; connecting an account is part of publishing. */
  connectLink: apiProcedure
    .meta({ scope: 'posts:write' })
    .input(z.strictObject({}).optional())
    .output(writeEnvelope(ZClientLinkCreated))
    .mutation(async ({ ctx }) => ({ data: await issueMemberConnectLink(ctx.actor.workspaceId, ctx.actor), warnings: [] })),

  /** Draft and scheduled posts that target the account: the warning shown before disconnecting. */
  usage: apiProcedure
    .meta({ scope: 'connections:read' })
    .input(idParam('connection', 'from connections_list (GET /connections)'))
    .output(
      readEnvelope(
        z.object({
          posts: z.array(z.object({ id: z.uuid(), content: z.string(), status: z.string(), scheduledAt: z.string().nullable(), onlyTarget: z.boolean() })),
        }),
      ),
    )
    .query(async ({ ctx, input }) => ({ data: await connectionUsage(ctx.actor.workspaceId, input.id) })),

  /** Disconnects an account; changes every post that targets it, so it is an administrator's act. */
  disconnect: apiProcedure
    .meta({ scope: 'workspaces:manage', errors: ['CONNECTION_NOT_FOUND'] })
    .input(idParam('connection', 'from connections_list (GET /connections)'))
    .output(writeEnvelope(z.object({ targetsRemoved: z.number().int(), postsCancelled: z.array(z.uuid()) })))
    .mutation(async ({ ctx, input }) => ({ data: await disconnectConnection(ctx.actor.workspaceId, input.id), warnings: [] })),
});
