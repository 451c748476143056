// Staff-only procedures of the app itself (not part of the REST contract): the shell's data
// (workspace switcher, role, pending approvals, unread notifications) and the dashboard. The
// workspace's time zone is set through settings.update.
import { z } from 'zod';
import { readEnvelope } from '@/server/shared/schemas';
import { apiProcedure, router } from '@/server/trpc/init';
import { listClientSummaries, ZClientSummary } from './client-summaries';
import { loadDashboard, ZDashboard } from './dashboard';
import { loadAppShell, ZAppShell } from './shell-data';

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

  /** The Clients screen: the workspaces this member's agency manages, with account health and approvals. */
  clients: apiProcedure
    .meta({ scope: 'workspaces:manage' })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(z.array(ZClientSummary)))
    .query(async ({ ctx }) => ({ data: await listClientSummaries(ctx.actor.homeWorkspaceId) })),
});
