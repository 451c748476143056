// Tracked links (scope analytics:read, like the other post results): a post's short links with
// their clicks, and one link's clicks per day. The settings that turn tracking on are in
// /settings (trackLinks, utmTemplate); the short links themselves are served at /l/{code}.
import { z } from 'zod';
import { idParam, readEnvelope } from '@/server/shared/schemas';
import { apiProcedure, router } from '@/server/trpc/init';
import type { HeraldMeta } from '@/server/trpc/meta';
import { linkClicks, listPostLinks } from './link-reads';
import { ZLinkClicks, ZLinkClicksQuery, ZTrackedLink } from './links.schemas';

const read = { scope: 'analytics:read' } as const satisfies Partial<HeraldMeta>;
const tags = ['Links'];

export const linksRouter = router({
  forPost: apiProcedure
    .meta({
      ...read,
      errors: ['POST_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/posts/{id}/links',
        description:
          'Lists the short links Herald put in place of the links in a post’s text, one per network and link (each network’s own UTM parameters), with the clicks counted on each so far. Empty when the workspace did not track links when the post was written (settings trackLinks).',
        successDescription: 'The post’s tracked links.',
        tags,
        protect: true,
        summary: 'List a post’s tracked links and their clicks',
      },
    })
    .input(idParam('post', 'from posts_list or posts_create'))
    .output(readEnvelope(z.array(ZTrackedLink)))
    .query(async ({ ctx, input }) => ({ data: await listPostLinks(ctx.actor.workspaceId, input.id) })),

  clicks: apiProcedure
    .meta({
      ...read,
      errors: ['LINK_NOT_FOUND'],
      openapi: {
        method: 'GET',
        path: '/links/{id}/clicks',
        description:
          'A tracked link’s clicks per UTC day (only days with clicks), within from and to when given, and their total. A click is a GET of the short link by a browser: requests whose user agent is a crawler or a link preview, and HEAD requests, are redirected but not counted; nothing about the visitor is stored. Counts are written about once a second.',
        successDescription: 'The link and its clicks per day.',
        tags,
        protect: true,
        summary: 'A tracked link’s clicks per day',
      },
    })
    .input(ZLinkClicksQuery)
    .output(readEnvelope(ZLinkClicks))
    .query(async ({ ctx, input }) => ({ data: await linkClicks(ctx.actor.workspaceId, input) })),
});
