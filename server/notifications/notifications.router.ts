// Staff-only: the app's notification list and unread count (not part of the REST contract).
import { z } from 'zod';
import { readEnvelope } from '@/server/shared/schemas';
import { apiProcedure, router } from '@/server/trpc/init';
import { listNotifications, markNotificationsRead, ZListNotificationsInput, ZMarkReadInput, ZNotification } from './notifications';

export const notificationsRouter = router({
  list: apiProcedure
    .meta({ scope: 'posts:read' })
    .input(ZListNotificationsInput)
    .output(readEnvelope(z.object({ items: z.array(ZNotification), unread: z.number().int() })))
    .query(async ({ ctx, input }) => ({ data: await listNotifications(ctx.actor.workspaceId, input) })),

  markRead: apiProcedure
    .meta({ scope: 'posts:read' })
    .input(ZMarkReadInput)
    .output(readEnvelope(z.object({ unread: z.number().int() })))
    .mutation(async ({ ctx, input }) => ({ data: await markNotificationsRead(ctx.actor.workspaceId, input) })),
});
