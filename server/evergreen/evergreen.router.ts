// Evergreen posts: a published post repeated through the posting queue (/posts/{id}/evergreen, /evergreen).
import { z } from 'zod';
import { readEnvelope, writeEnvelope } from '@/server/shared/schemas';
import { apiProcedure, router } from '@/server/trpc/init';
import type { HeraldMeta } from '@/server/trpc/meta';
import { getEvergreen, listEvergreen, setEvergreen, stopEvergreen } from './evergreen';
import {
  MAX_INTERVAL_DAYS,
  MIN_INTERVAL_DAYS,
  ZEvergreen,
  ZEvergreenPage,
  ZEvergreenPostId,
  ZListEvergreenQuery,
  ZSetEvergreenInput,
} from './evergreen.schemas';

const read = { scope: 'posts:read' } as const satisfies Partial<HeraldMeta>;
const write = { scope: 'posts:write' } as const satisfies Partial<HeraldMeta>;
const tags = ['Evergreen'];
const NOT_ELIGIBLE = 'The post is not published (a draft, scheduled, failed or cancelled post), or it is itself a repeat of an evergreen post.';
const TOO_LONG = 'One of texts is over the limit of a network the post goes to, counted its way; field names it (texts[i]).';

export const evergreenRouter = router({
  list: apiProcedure
    .meta({
      ...read,
      errors: ['VALIDATION_FAILED'],
      errorWhen: { VALIDATION_FAILED: { 400: 'cursor is not a nextCursor this list returned.' } },
      openapi: {
        method: 'GET',
        path: '/evergreen',
        description:
          'Lists the workspace’s evergreen posts, most recently made evergreen first, a cursor page at a time: the active ones by default (status ended or all for the others), each with its progress (repeats, nextDueAt, lastQueuedPostId, lastError).',
        successDescription: 'One page of evergreen settings and the cursor of the next.',
        tags,
        protect: true,
        summary: 'List evergreen posts and how their repeats are going',
      },
    })
    .input(ZListEvergreenQuery)
    .output(ZEvergreenPage)
    .query(async ({ ctx, input }) => listEvergreen(ctx.actor.workspaceId, input)),

  set: apiProcedure
    .meta({
      errorWhen: {
        EVERGREEN_NOT_ELIGIBLE: NOT_ELIGIBLE,
        CONTENT_TOO_LONG: TOO_LONG,
        VALIDATION_FAILED: 'endsAt is in the past (field endsAt).',
      },
      ...write,
      errors: ['POST_NOT_FOUND', 'EVERGREEN_NOT_ELIGIBLE', 'CONTENT_TOO_LONG'],
      assistant: {
        stage: true,
        title: (a) => `Repeat post ${String(a.id)} through the posting queue every ${String(a.intervalDays)} day(s)`,
        hint: 'Each repeat is a new post that publishes at its queue slot without anyone opening it.',
      },
      openapi: {
        method: 'PUT',
        path: '/posts/{id}/evergreen',
        description: `Makes a published post evergreen, or replaces its setting: intervalDays (${MIN_INTERVAL_DAYS}–${MAX_INTERVAL_DAYS}) after the post, or its last repeat, went out, a repeat is added to the posting queue as a new post (the next free slot, the workspace’s approval rule, event post.evergreen_requeued). The repeats rotate through texts (repeat n takes texts[(n-1) mod length]); without texts each has the post’s own text and variants. A network that refuses a duplicate (X) never gets a text it had within its window (the platform catalogue’s duplicateWindowDays): the next text is taken, and when every text is inside the window the repeat waits until one leaves it. No new repeat is queued while the last one has not gone out. It ends at endsAt or after maxRepeats repeats. Replacing an ended setting starts it again; repeats already made still count.`,
        successDescription: 'The evergreen setting.',
        tags,
        protect: true,
        summary: 'Make a published post evergreen: repeated through the posting queue',
      },
    })
    .input(ZSetEvergreenInput.extend({ id: ZEvergreenPostId }))
    .output(writeEnvelope(ZEvergreen))
    .mutation(async ({ ctx, input }) => {
      const { id, ...setting } = input;
      return { data: await setEvergreen(ctx.actor.workspaceId, id, setting), warnings: [] };
    }),

  get: apiProcedure
    .meta({
      ...read,
      errors: ['EVERGREEN_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/posts/{id}/evergreen',
        description: 'Reads a post’s evergreen setting and progress: repeats made, when the next is due, the last repeat, why the last due one waited.',
        successDescription: 'The evergreen setting.',
        tags,
        protect: true,
        summary: 'Read a post’s evergreen setting',
      },
    })
    .input(z.strictObject({ id: ZEvergreenPostId }))
    .output(readEnvelope(ZEvergreen))
    .query(async ({ ctx, input }) => ({ data: await getEvergreen(ctx.actor.workspaceId, input.id) })),

  stop: apiProcedure
    .meta({
      ...write,
      errors: ['EVERGREEN_NOT_FOUND'],
      openapi: {
        method: 'DELETE',
        path: '/posts/{id}/evergreen',
        description:
          'Stops repeating the post: the setting ends (endedReason stopped) and is kept with its progress; PUT starts it again. A repeat already in the queue stays there (DELETE /posts/{id} cancels it).',
        successDescription: 'The ended setting.',
        tags,
        protect: true,
        summary: 'Stop repeating an evergreen post (a repeat already queued stays)',
      },
    })
    .input(z.strictObject({ id: ZEvergreenPostId }))
    .output(writeEnvelope(ZEvergreen))
    .mutation(async ({ ctx, input }) => ({ data: await stopEvergreen(ctx.actor.workspaceId, input.id), warnings: [] })),
});
