// /feeds: RSS and Atom feeds the workspace follows, each new item a draft or a queued post.
import { z } from 'zod';
import { readEnvelope, writeEnvelope } from '@/server/shared/schemas';
import { shorten } from '@/server/shared/text';
import { apiProcedure, router } from '@/server/trpc/init';
import type { HeraldMeta } from '@/server/trpc/meta';
import { checkFeedNow, createFeed, deleteFeed, getFeed, listFeeds, updateFeed } from './feeds';
import { FEED_PAUSE_AFTER, ZCreateFeedInput, ZFeed, ZFeedCheck, ZFeedId, ZUpdateFeedInput } from './feeds.schemas';

const read = { scope: 'posts:read' } as const satisfies Partial<HeraldMeta>;
const write = { scope: 'posts:write' } as const satisfies Partial<HeraldMeta>;
const tags = ['Feeds'];
const URL_REFUSED =
  'The URL is not https, carries a user name or password, names localhost, or its host is a private, loopback, link-local or otherwise reserved address, or is a name that does not resolve or resolves to such an address; the message gives the reason.';
const UNREADABLE =
  'Reading the URL did not give an RSS or Atom feed: an error status, a redirect (use the address it moved to), no answer in time, or a document that is not a feed; the message says which.';
/** Adding or switching a feed to the queue lets its items publish without anyone opening them. */
const queues = (a: Record<string, unknown>) => a.mode === 'queue';

export const feedsRouter = router({
  list: apiProcedure
    .meta({
      ...read,
      openapi: {
        method: 'GET',
        path: '/feeds',
        description:
          'Lists the feeds the workspace follows, newest first, each with how reading it is going (lastCheckedAt, lastError, consecutiveFailures, status).',
        successDescription: 'The feeds.',
        tags,
        protect: true,
        summary: 'List followed feeds and how reading each is going',
      },
    })
    .input(z.strictObject({}).optional())
    .output(readEnvelope(z.array(ZFeed)))
    .query(async ({ ctx }) => ({ data: await listFeeds(ctx.actor.workspaceId) })),

  create: apiProcedure
    .meta({
      errorWhen: { FEED_URL_REFUSED: URL_REFUSED, FEED_UNREADABLE: UNREADABLE },
      ...write,
      successStatus: 201,
      errors: ['FEED_URL_REFUSED', 'FEED_UNREADABLE', 'CONNECTION_NOT_FOUND', 'CONNECTION_EXPIRED'],
      assistant: {
        stage: queues,
        title: (a) =>
          `Follow the feed ${shorten(String(a.url), 80)}${a.mode === 'queue' ? ', each new item added to the posting queue' : ', each new item as a draft'}`,
        hint: 'Items already in the feed are not posted; only items that appear later are.',
      },
      openapi: {
        method: 'POST',
        path: '/feeds',
        description:
          'Follows an RSS or Atom feed. The URL must be public https; it is read now (refused with 422 FEED_UNREADABLE when that does not give a feed) and its title taken. Items already in the feed are taken as seen: only items that appear later become posts, each once, from the template ({title}, {link}, {summary}), as a draft or, with mode queue, at the next free slot of the posting queue. The feed is read every 15 minutes.',
        successDescription: 'Created: the feed.',
        tags,
        protect: true,
        summary: 'Follow an RSS or Atom feed; each later item becomes a draft or a queued post',
      },
    })
    .input(ZCreateFeedInput)
    .output(writeEnvelope(ZFeed))
    .mutation(async ({ ctx, input }) => ({ data: await createFeed(ctx.actor.workspaceId, input), warnings: [] })),

  get: apiProcedure
    .meta({
      ...read,
      errors: ['FEED_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/feeds/{id}',
        description: 'Reads one feed: its settings and how reading it is going.',
        successDescription: 'The feed.',
        tags,
        protect: true,
        summary: 'Read a feed',
      },
    })
    .input(z.strictObject({ id: ZFeedId }))
    .output(readEnvelope(ZFeed))
    .query(async ({ ctx, input }) => ({ data: await getFeed(ctx.actor.workspaceId, input.id) })),

  update: apiProcedure
    .meta({
      errorWhen: { FEED_URL_REFUSED: URL_REFUSED, FEED_UNREADABLE: UNREADABLE },
      ...write,
      errors: ['FEED_NOT_FOUND', 'FEED_URL_REFUSED', 'FEED_UNREADABLE', 'CONNECTION_NOT_FOUND', 'CONNECTION_EXPIRED'],
      assistant: { stage: queues, title: (a) => `Change feed ${String(a.id)}${a.mode === 'queue' ? ': add its new items to the posting queue' : ''}` },
      openapi: {
        method: 'PATCH',
        path: '/feeds/{id}',
        description: `Changes a feed’s URL, accounts, mode, template or image setting, or pauses (status paused) and resumes (status active) it; resuming resets consecutiveFailures (${FEED_PAUSE_AFTER} failed reads in a row pause a feed). A new URL is read at once and its current items taken as seen. Items already used are never posted again, whatever changes.`,
        successDescription: 'The feed as changed.',
        tags,
        protect: true,
        summary: 'Change a feed; status active resumes a paused one, paused pauses it',
      },
    })
    .input(ZUpdateFeedInput.extend({ id: ZFeedId }))
    .output(writeEnvelope(ZFeed))
    .mutation(async ({ ctx, input }) => {
      const { id, ...changes } = input;
      return { data: await updateFeed(ctx.actor.workspaceId, id, changes), warnings: [] };
    }),

  delete: apiProcedure
    .meta({
      ...write,
      successStatus: 204,
      errors: ['FEED_NOT_FOUND'],
      openapi: {
        method: 'DELETE',
        path: '/feeds/{id}',
        description: 'Stops following a feed. The posts already made from its items stay.',
        successDescription: 'Deleted; no body.',
        tags,
        protect: true,
        summary: 'Stop following a feed (its posts stay)',
      },
    })
    .input(z.strictObject({ id: ZFeedId }))
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await deleteFeed(ctx.actor.workspaceId, input.id);
    }),

  check: apiProcedure
    .meta({
      errorWhen: { VALIDATION_FAILED: { 409: 'The feed is paused: resume it (PATCH status active) first.' } },
      ...write,
      errors: ['FEED_NOT_FOUND'],
      openapi: {
        method: 'POST',
        path: '/feeds/{id}/check',
        description:
          'Reads the feed now instead of waiting for the next scheduled read, and makes a post of each new item. A read that fails is answered 200 like a good one: the error is on the feed (lastError, consecutiveFailures), as it would be after a scheduled read. 409 VALIDATION_FAILED while the feed is paused.',
        successDescription: 'Read: the feed as it now stands and the posts made.',
        tags,
        protect: true,
        summary: 'Read a feed now; new items become posts (409 VALIDATION_FAILED while paused)',
      },
    })
    .input(z.strictObject({ id: ZFeedId }))
    .output(writeEnvelope(ZFeedCheck))
    .mutation(async ({ ctx, input }) => ({ data: await checkFeedNow(ctx.actor.workspaceId, input.id), warnings: [] })),
});
