import { z } from 'zod';
import { readEnvelope } from '@/server/shared/schemas';
import { apiProcedure, router } from '@/server/trpc/init';
import { ZConnection } from './connections.schemas';
import { listConnections } from './list-connections';

export const connectionsRouter = router({
  list: apiProcedure
    .meta({
      scope: 'connections:read',
      openapi: { method: 'GET', path: '/connections', tags: ['Connections'], protect: true, summary: 'Connected social accounts with token health' },
    })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(z.array(ZConnection)))
    .query(async ({ ctx }) => ({ data: await listConnections(ctx.actor.workspaceId) })),
});
