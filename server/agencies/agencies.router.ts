// Staff-only procedures of an agency's own life in Herald (not part of the REST contract):
// its first steps, a sandbox account to try with, the verification email sent again, and
// leaving (export, delete).
import { z } from 'zod';
import { ZPlatform } from '@/server/connections/connections.schemas';
import { readEnvelope, writeEnvelope, ZText } from '@/server/shared/schemas';
import { apiProcedure, router } from '@/server/trpc/init';
import { addSandboxAccount, firstSteps, ZFirstSteps } from './first-steps';
import { deleteAgency, exportAgency } from './leave';
import { resendVerification } from './sign-up';

export const agenciesRouter = router({
  firstSteps: apiProcedure
    .meta({ scope: 'posts:read' })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(ZFirstSteps))
    .query(async ({ ctx }) => ({ data: await firstSteps(ctx.actor) })),

  addSandboxAccount: apiProcedure
    .meta({ scope: 'posts:write' })
    .input(z.strictObject({ platform: ZPlatform }))
    .output(writeEnvelope(z.object({ id: z.string() })))
    .mutation(async ({ ctx, input }) => ({ data: await addSandboxAccount(ctx.actor, input.platform), warnings: [] })),

  resendVerification: apiProcedure
    .meta({ scope: 'posts:read' })
    .input(z.strictObject({}).optional())
    .output(writeEnvelope(z.object({ sent: z.literal(true) })))
    .mutation(async ({ ctx }) => {
      await resendVerification(ctx.actor);
      return { data: { sent: true as const }, warnings: [] };
    }),

  export: apiProcedure
    .meta({ scope: 'workspaces:manage' })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(z.record(z.string(), z.unknown())))
    .query(async ({ ctx }) => ({ data: await exportAgency(ctx.actor) })),

  delete: apiProcedure
    .meta({ scope: 'workspaces:manage', errors: ['FORBIDDEN', 'VALIDATION_FAILED'] })
    .input(z.strictObject({ confirmName: ZText.max(200) }))
    .output(writeEnvelope(z.object({ purgeAfter: z.string(), accountReleased: z.boolean() })))
    .mutation(async ({ ctx, input }) => ({ data: await deleteAgency(ctx.actor, input.confirmName), warnings: [] })),
});
