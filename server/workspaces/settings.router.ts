// The workspace's settings (REST, app and tools): read by anyone in the workspace, changed by
// owners and admins (workspaces:manage), each change in the audit trail. One service call each
// (server/workspaces/workspace-settings.ts). They act on the selected workspace: an agency's
// key sends X-Service-Workspace to change a client's.
import { z } from 'zod';
import { readEnvelope, writeEnvelope } from '@/server/shared/schemas';
import { apiProcedure, router } from '@/server/trpc/init';
import { readSettings, settingsHistory, updateSettings, ZSettingsChange, ZUpdateSettingsInput, ZWorkspaceSettings } from './workspace-settings';

const tags = ['Settings'];

export const settingsRouter = router({
  get: apiProcedure
    .meta({
      scope: 'posts:read',
      openapi: {
        method: 'GET',
        path: '/settings',
        tags,
        protect: true,
        summary: 'The workspace’s settings',
        description:
          'Name, time zone, whether scheduled posts wait for approval by default, the brand clients see on connect, review and report links (and the one a new link shows), whether the posting queue is paused, and whether links in posts become tracked short links (trackLinks) with which UTM parameters (utmTemplate).',
        successDescription: 'The settings.',
      },
    })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(ZWorkspaceSettings))
    .query(async ({ ctx }) => ({ data: await readSettings(ctx.actor.workspaceId) })),

  update: apiProcedure
    .meta({
      scope: 'workspaces:manage',
      errors: ['VALIDATION_FAILED'],
      openapi: {
        method: 'PATCH',
        path: '/settings',
        tags,
        protect: true,
        summary: 'Change the workspace’s settings',
        description:
          'Changes the fields sent, and only those; each change is recorded with who made it and the old and new values. A new time zone changes how times are written, not when scheduled posts go out. A brand applies to client links issued from now on. trackLinks and utmTemplate apply to posts created or edited from now on: a post already written keeps its links as they are until it is edited.',
        successDescription: 'The settings after the change.',
      },
    })
    .input(ZUpdateSettingsInput)
    .output(writeEnvelope(ZWorkspaceSettings))
    .mutation(async ({ ctx, input }) => ({ data: await updateSettings(ctx.actor, input), warnings: [] })),

  // The settings page's history (app only): the audit trail's settings changes.
  history: apiProcedure
    .meta({ scope: 'workspaces:manage' })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(z.array(ZSettingsChange)))
    .query(async ({ ctx }) => ({ data: await settingsHistory(ctx.actor) })),
});
