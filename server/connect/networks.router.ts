// The operator's Networks page (staff app only; not part of the REST contract or the tools):
// how each network is set up on this Herald, and a check of its credentials.
import { z } from 'zod';
import { requireOperator } from '@/server/agencies/operator';
import { db } from '@/server/db/client';
import { ZPlatform } from '@/server/connections/connections.schemas';
import { readEnvelope, writeEnvelope } from '@/server/shared/schemas';
import { apiProcedure, router } from '@/server/trpc/init';
import { checkNetworkCredentials, networksOverview, ZCredentialsCheck, ZNetworksOverview } from './network-setup';

export const networksRouter = router({
  overview: apiProcedure
    .meta({ scope: 'posts:read', errors: ['FORBIDDEN'] })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(ZNetworksOverview))
    .query(async ({ ctx }) => {
      await requireOperator(ctx.actor);
      const workspace = await db.workspace.findUniqueOrThrow({ where: { id: ctx.actor.workspaceId }, select: { demoAccounts: true } });
      return { data: networksOverview(workspace) };
    }),

  check: apiProcedure
    .meta({ scope: 'posts:read', errors: ['FORBIDDEN'] })
    .input(z.strictObject({ platform: ZPlatform }))
    .output(writeEnvelope(ZCredentialsCheck))
    .mutation(async ({ ctx, input }) => {
      await requireOperator(ctx.actor);
      return { data: await checkNetworkCredentials(input.platform), warnings: [] };
    }),
});
