// Tracked links, the reads: a post's links with their clicks, one link's clicks per UTC day,
// and the SQL the post results use to show clicks beside the networks' own metrics. Clicks
// are summed in SQL from the (link, day) rows.
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { Prisma } from '@/server/generated/prisma/client';
import { isUuid } from '@/server/shared/schemas';
import type { Platform } from '@/server/shared/platforms';
import type { LinkClicksDto, LinkClicksQuery, TrackedLinkDto } from './links.schemas';
import { shortUrlOf } from './track-links';

/**
 * The clicks on the short links of one post on one network, every day together: an SQL
 * expression for the post results (`postId` and `platform` name the outer row's columns).
 */
export const clicksOfPostOnNetwork = (postId: Prisma.Sql, platform: Prisma.Sql): Prisma.Sql =>
  Prisma.sql`(SELECT COALESCE(sum(d.clicks), 0)::int FROM "TrackedLink" k JOIN "LinkClickDay" d ON d."linkId" = k.id
    WHERE k."postId" = ${postId} AND k.platform = ${platform})`;

type LinkRow = { id: string; postId: string; platform: string; url: string; destination: string; code: string; createdAt: Date; clicks: number };

const toDto = (r: LinkRow): TrackedLinkDto => ({
  id: r.id,
  postId: r.postId,
  platform: r.platform as Platform,
  url: r.url,
  destination: r.destination,
  shortUrl: shortUrlOf(r.code),
  clicks: Number(r.clicks),
  createdAt: r.createdAt.toISOString(),
});

/** GET /posts/{id}/links: the post's short links, per network, in the order they were made. */
export async function listPostLinks(workspaceId: string, postId: string): Promise<TrackedLinkDto[]> {
  const post = isUuid(postId) ? await db.post.findFirst({ where: { id: postId, workspaceId }, select: { id: true } }) : null;
  if (!post) throw new AppError('POST_NOT_FOUND', 'No post with that id in this workspace', { field: 'id' });
  const rows = await db.$queryRaw<LinkRow[]>`
    SELECT k.id, k."postId", k.platform, k.url, k.destination, k.code, k."createdAt",
           (SELECT COALESCE(sum(d.clicks), 0)::int FROM "LinkClickDay" d WHERE d."linkId" = k.id) AS clicks
      FROM "TrackedLink" k WHERE k."postId" = ${postId}::uuid AND k."workspaceId" = ${workspaceId}::uuid
     ORDER BY k.platform, k."createdAt", k.url`;
  return rows.map(toDto);
}

/** GET /links/{id}/clicks: one link's clicks per UTC day, within from and to when given. */
export async function linkClicks(workspaceId: string, query: LinkClicksQuery): Promise<LinkClicksDto> {
  const [link] = isUuid(query.id)
    ? await db.$queryRaw<LinkRow[]>`
        SELECT k.id, k."postId", k.platform, k.url, k.destination, k.code, k."createdAt",
               (SELECT COALESCE(sum(d.clicks), 0)::int FROM "LinkClickDay" d WHERE d."linkId" = k.id) AS clicks
          FROM "TrackedLink" k WHERE k.id = ${query.id}::uuid AND k."workspaceId" = ${workspaceId}::uuid`
    : [];
  if (!link) throw new AppError('LINK_NOT_FOUND', 'No tracked link with that id in this workspace', { field: 'id' });
  const days = await db.$queryRaw<{ date: string; clicks: number }[]>`
    SELECT to_char(d.day, 'YYYY-MM-DD') AS date, d.clicks FROM "LinkClickDay" d
     WHERE d."linkId" = ${link.id}::uuid
       ${query.from ? Prisma.sql`AND d.day >= ${query.from}::date` : Prisma.empty}
       ${query.to ? Prisma.sql`AND d.day <= ${query.to}::date` : Prisma.empty}
     ORDER BY d.day`;
  return {
    link: toDto(link),
    window: { from: query.from ?? null, to: query.to ?? null },
    total: days.reduce((sum, d) => sum + Number(d.clicks), 0),
    days: days.map((d) => ({ date: d.date, clicks: Number(d.clicks) })),
  };
}
