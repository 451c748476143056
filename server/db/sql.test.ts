// Statements on the driver give the same rows Prisma gives for the same columns, and read
// and write timestamps as UTC whatever the process's time zone.
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { isoTimestamp, sqlRows } from '@/server/db/sql';
import { Prisma } from '@/server/generated/prisma/client';
import { publishingWorkspace } from '@/server/testing/posts-fixtures';

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('sqlRows', () => {
  it("reads a post exactly as Prisma's $queryRaw does: timestamps, json, arrays, nulls", async () => {
    const w = await publishingWorkspace();
    const post = await db.post.create({
      data: {
        workspaceId: w.workspace.id,
        content: 'hello',
        status: 'scheduled',
        platforms: ['linkedin', 'twitter'],
        connectionIds: [w.ok.linkedin.id, w.ok.twitter.id],
        variants: { twitter: { content: 'short' } },
        scheduledAt: new Date('2031-03-04T05:06:07.008Z'),
        approvedAt: new Date('2031-03-04T05:06:07.000Z'),
      },
    });
    const statement = Prisma.sql`SELECT * FROM "Post" WHERE "id" = ${post.id}::uuid`;
    const [viaPrisma] = await db.$queryRaw<(typeof post)[]>(statement);
    const [viaDriver] = await sqlRows<typeof post>(statement);
    expect(viaDriver).toEqual(viaPrisma);
    // Model reads differ only where Prisma fills in a NULL scalar list (mediaUrls) as [].
    expect({ ...viaDriver, mediaUrls: [] }).toEqual(await db.post.findUniqueOrThrow({ where: { id: post.id } }));
    expect(viaDriver!.scheduledAt!.toISOString()).toBe('2031-03-04T05:06:07.008Z');
  });

  it('keeps UTC in a process whose time zone is not UTC, both ways', async () => {
    process.env.TZ = 'Asia/Kolkata'; // +05:30: a local-time reading or writing would shift by it
    const w = await publishingWorkspace();
    const at = new Date('2031-07-01T23:45:00.250Z');
    const post = await db.post.create({ data: { workspaceId: w.workspace.id, content: 'tz', status: 'scheduled', scheduledAt: at } });
    const rows = await sqlRows<{ id: string; scheduledAt: Date }>(
      Prisma.sql`SELECT "id", "scheduledAt" FROM "Post" WHERE "workspaceId" = ${w.workspace.id}::uuid AND "scheduledAt" = ${at}`,
    );
    expect(rows.map((r) => r.id)).toEqual([post.id]);
    expect(rows[0]!.scheduledAt.toISOString()).toBe(at.toISOString());
  });

  it('gives timestamps as the strings toISOString writes when asked, for every fraction PostgreSQL prints', async () => {
    const w = await publishingWorkspace();
    const stamps = ['2031-03-04T05:06:07.008Z', '2031-03-04T05:06:07.100Z', '2031-03-04T05:06:07.000Z', '2031-12-31T23:59:59.999Z'];
    for (const at of stamps) {
      const post = await db.post.create({ data: { workspaceId: w.workspace.id, content: at, status: 'scheduled', scheduledAt: new Date(at) } });
      const [row] = await sqlRows<{ scheduledAt: string; createdAt: string; approvedAt: string | null }>(
        Prisma.sql`SELECT "scheduledAt", "createdAt", "approvedAt" FROM "Post" WHERE "id" = ${post.id}::uuid`,
        { timestamps: 'iso' },
      );
      expect(row).toEqual({ scheduledAt: at, createdAt: post.createdAt.toISOString(), approvedAt: null });
    }
    expect(isoTimestamp('2031-03-04 05:06:07.1')).toBe('2031-03-04T05:06:07.100Z');
    expect(isoTimestamp('2031-03-04 05:06:07')).toBe('2031-03-04T05:06:07.000Z');
  });
});
