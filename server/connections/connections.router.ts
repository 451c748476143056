import { z } from 'zod';
import { readEnvelope } from '@/server/shared/schemas';
import { apiProcedure, router } from '@/server/trpc/init';
import { ZConnection } from './connections.schemas';
import { ZProvenance } from '@/server/analytics/analytics.schemas';
import { instagramProfilesEnabled, listInstagramProfiles } from './instagram-profiles';
import { listConnections } from './list-connections';

const ZInstagramProfile = z
  .object({
    connectionId: z.uuid(),
    handle: z.string(),
    displayName: z.string(),
    avatarUrl: z.string().nullable(),
    provider: z.enum(['sandbox', 'live']),
    status: z.enum(['active', 'inactive']),
    connectedAt: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'InstagramProfile' });

export const connectionsRouter = router({
  list: apiProcedure
    .meta({
      scope: 'connections:read',
      openapi: { method: 'GET', path: '/connections', tags: ['Connections'], protect: true, summary: 'Connected social accounts with token health' },
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
        tags: ['Connections'],
        protect: true,
        summary: 'Tracked Instagram handles; 404 ROUTE_NOT_FOUND unless this deployment has a Meta app (the platform-derived flag)',
      },
    })
    .input(z.strictObject({}).optional())
    .output(z.object({ data: z.array(ZInstagramProfile), provenance: ZProvenance }))
    .query(({ ctx }) => listInstagramProfiles(ctx.actor.workspaceId)),
});
