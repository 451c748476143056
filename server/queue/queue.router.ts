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
      openapi: {
        method: 'GET',
        path: '/queue',
        tags,
        protect: true,
        summary: 'The posting queue: slots, pause, coming slots and their posts',
        description:
          'The workspace’s weekly slots (and accounts’ own), whether the queue is paused, and the slot instants of the next days per active account with the post taking each (postId null: free). Times are on the workspace’s clock.',
        successDescription: 'The queue.',
      },
    })
    .input(ZQueueSlotsQuery.optional())
    .output(readEnvelope(ZQueue))
    .query(async ({ ctx, input }) => ({ data: await readQueue(ctx.actor.workspaceId, input?.days) })),

  setSlots: apiProcedure
    .meta({
      scope: 'posts:write',
      errors: ['CONNECTION_NOT_FOUND'],
      openapi: {
        method: 'PUT',
        path: '/queue/slots',
        tags,
        protect: true,
        summary: 'Replace weekly queue slots',
        description:
          'Replaces every weekly slot of the workspace, or of one account (connectionId), with the list sent; an empty list removes them. Duplicates are merged. Posts already placed keep their times.',
        successDescription: 'The queue after the change.',
      },
    })
    .input(ZSetSlotsInput)
    .output(writeEnvelope(ZQueue))
    .mutation(async ({ ctx, input }) => ({ data: await setQueueSlots(ctx.actor.workspaceId, input.connectionId ?? null, input.slots), warnings: [] })),

  shuffle: apiProcedure
    .meta({
      scope: 'posts:write',
      errors: ['QUEUE_NO_SLOTS', 'QUEUE_FULL'],
      openapi: {
        method: 'POST',
        path: '/queue/shuffle',
        tags,
        protect: true,
        summary: 'Shuffle queued posts among their slots',
        description:
          'Gives the queue’s upcoming posts the same slots in a random order, each still on a slot every one of its accounts has. Posts scheduled by hand are not moved.',
        successDescription: 'The posts that moved, from and to.',
      },
    })
    .input(z.strictObject({}).optional())
    .output(writeEnvelope(ZQueueChange))
    .mutation(async ({ ctx }) => ({ data: await shuffleQueue(ctx.actor.workspaceId, scheduleDelivery), warnings: [] })),

  pause: apiProcedure
    .meta({
      scope: 'posts:write',
      openapi: {
        method: 'POST',
        path: '/queue/pause',
        tags,
        protect: true,
        summary: 'Pause the queue (its posts are held)',
        description: 'Holds the queue’s posts: they are not published at their slot until the queue resumes. Posts scheduled by hand still publish.',
        successDescription: 'When the queue was paused.',
      },
    })
    .input(z.strictObject({}).optional())
    .output(writeEnvelope(ZQueueChange))
    .mutation(async ({ ctx }) => ({ data: await pauseQueue(ctx.actor.workspaceId), warnings: [] })),

  resume: apiProcedure
    .meta({
      scope: 'posts:write',
      errors: ['QUEUE_NO_SLOTS', 'QUEUE_FULL'],
      openapi: {
        method: 'POST',
        path: '/queue/resume',
        tags,
        protect: true,
        summary: 'Resume the queue; overdue posts move to free slots',
        description:
          'Resumes publishing of the queue’s posts; those whose slot passed while paused move, in their order, to the next free slots instead of going out late at once.',
        successDescription: 'The posts that moved, from and to.',
      },
    })
    .input(z.strictObject({}).optional())
    .output(writeEnvelope(ZQueueChange))
    .mutation(async ({ ctx }) => ({ data: await resumeQueue(ctx.actor.workspaceId, scheduleDelivery), warnings: [] })),
});
