// Staff-only procedures of the app itself (not part of the REST contract): the shell's data
// (workspace switcher, role, pending approvals, unread notifications), the dashboard, and the
// workspace's time zone.
import { z } from 'zod';
import { readEnvelope } from '@/server/shared/schemas';
import { apiProcedure, router } from '@/server/trpc/init';
import { loadDashboard, ZDashboard } from './dashboard';
import { loadAppShell, setWorkspaceTimeZone, ZAppShell } from './shell-data';
import { ZTimeZone } from '@/server/shared/time-zone';

export const appShellRouter = router({
  shell: apiProcedure
    .meta({ scope: 'posts:read' })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(ZAppShell))
    .query(async ({ ctx }) => ({ data: await loadAppShell(ctx.actor) })),

  dashboard: apiProcedure
    .meta({ scope: 'posts:read' })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(ZDashboard))
    .query(async ({ ctx }) => ({ data: await loadDashboard(ctx.actor.workspaceId) })),

  setTimeZone: apiProcedure
    .meta({ scope: 'workspaces:manage', errors: ['VALIDATION_FAILED'] })
    .input(z.strictObject({ timeZone: ZTimeZone }))
    .output(readEnvelope(z.object({ timeZone: z.string() })))
    .mutation(async ({ ctx, input }) => ({ data: await setWorkspaceTimeZone(ctx.actor.workspaceId, input.timeZone) })),
});
