// The posting queue's routes (scopes posts:read / posts:write): one service call each
// (server/queue/posting-queue.ts). Adding a post to the queue is POST /posts with queue: true.
import { z } from 'zod';
import { scheduleDelivery } from '@/server/posts/delivery/schedule';
import { readEnvelope, writeEnvelope } from '@/server/shared/schemas';
import { apiProcedure, router } from '@/server/trpc/init';
import { pauseQueue, readQueue, resumeQueue, setQueueSlots, shuffleQueue } from './posting-queue';
import { ZQueue, ZQueueChange, ZQueueSlotsQuery, ZSetSlotsInput } from './queue.schemas';

const tags = ['Queue'];

export const queueRouter = router({
  get: apiProcedure
    .meta({
      scope: 'posts:read',
      openapi: { method: 'GET', path: '/queue', tags, protect: true, summary: 'The posting queue: slots, pause, coming slots and their posts' },
    })
    .input(ZQueueSlotsQuery.optional())
    .output(readEnvelope(ZQueue))
    .query(async ({ ctx, input }) => ({ data: await readQueue(ctx.actor.workspaceId, input?.days) })),

  setSlots: apiProcedure
    .meta({
      scope: 'posts:write',
      errors: ['CONNECTION_NOT_FOUND'],
      openapi: { method: 'PUT', path: '/queue/slots', tags, protect: true, summary: 'Replace weekly queue slots' },
    })
    .input(ZSetSlotsInput)
    .output(writeEnvelope(ZQueue))
    .mutation(async ({ ctx, input }) => ({ data: await setQueueSlots(ctx.actor.workspaceId, input.connectionId ?? null, input.slots), warnings: [] })),

  shuffle: apiProcedure
    .meta({
      scope: 'posts:write',
      errors: ['QUEUE_NO_SLOTS', 'QUEUE_FULL'],
      openapi: { method: 'POST', path: '/queue/shuffle', tags, protect: true, summary: 'Shuffle queued posts among their slots' },
    })
    .input(z.strictObject({}).optional())
    .output(writeEnvelope(ZQueueChange))
    .mutation(async ({ ctx }) => ({ data: await shuffleQueue(ctx.actor.workspaceId, scheduleDelivery), warnings: [] })),

  pause: apiProcedure
    .meta({
      scope: 'posts:write',
      openapi: { method: 'POST', path: '/queue/pause', tags, protect: true, summary: 'Pause the queue (its posts are held)' },
    })
    .input(z.strictObject({}).optional())
    .output(writeEnvelope(ZQueueChange))
    .mutation(async ({ ctx }) => ({ data: await pauseQueue(ctx.actor.workspaceId), warnings: [] })),

  resume: apiProcedure
    .meta({
      scope: 'posts:write',
      errors: ['QUEUE_NO_SLOTS', 'QUEUE_FULL'],
      openapi: { method: 'POST', path: '/queue/resume', tags, protect: true, summary: 'Resume the queue; overdue posts move to free slots' },
    })
    .input(z.strictObject({}).optional())
    .output(writeEnvelope(ZQueueChange))
    .mutation(async ({ ctx }) => ({ data: await resumeQueue(ctx.actor.workspaceId, scheduleDelivery), warnings: [] })),
});
