// Writes one visit and what follows from it, in one transaction: the visit row, the page's
// last-visit pointer, and — for a successful visit — the change against the previous
// successful visit of the page, if anything tracked differs.
import { createHash } from 'node:crypto';
import { db } from '@/server/db/client';
import type { Prisma } from '@/server/generated/prisma/client';
import { detectChange } from './changes';
import { extractPage, type Extracted, type Heading } from './extract';
import type { VisitResult } from './visit';

export interface VisitToRecord {
  page: { id: string; workspaceId: string; siteId: string; url: string };
  result: VisitResult;
  userAgent: string;
  startedAt: Date;
  finishedAt: Date;
}

export function contentHash(e: Extracted): string {
  return createHash('sha256')
    .update(JSON.stringify([e.title, e.metaDescription, e.canonical, e.headings, e.text]))
    .digest('hex');
}

const stored = (v: { title: string | null; metaDescription: string | null; canonical: string | null; headings: unknown; text: string | null }): Extracted => ({
  title: v.title,
  metaDescription: v.metaDescription,
  canonical: v.canonical,
  headings: (Array.isArray(v.headings) ? v.headings : []) as Heading[],
  text: v.text,
});

export async function recordVisit(v: VisitToRecord): Promise<{ visitId: string; changeId: string | null }> {
  const extracted = v.result.outcome === 'ok' && v.result.html ? extractPage(v.result.html, v.page.url) : null;
  return db.$transaction(async (tx) => {
    // One writer per page at a time: consecutive visits are compared in the order recorded.
    await tx.$queryRaw`SELECT id FROM "CrawlPage" WHERE id = ${v.page.id}::uuid FOR UPDATE`;
    const previous = extracted
      ? await tx.crawlVisit.findFirst({ where: { pageId: v.page.id, outcome: 'ok' }, orderBy: [{ startedAt: 'desc' }, { id: 'desc' }] })
      : null;
    const visit = await tx.crawlVisit.create({
      data: {
        workspaceId: v.page.workspaceId,
        pageId: v.page.id,
        outcome: v.result.outcome,
        detail: v.result.detail,
        statusCode: v.result.statusCode,
        contentType: v.result.contentType,
        bytes: v.result.bytes,
        durationMs: Math.max(0, v.finishedAt.getTime() - v.startedAt.getTime()),
        title: extracted?.title ?? null,
        metaDescription: extracted?.metaDescription ?? null,
        canonical: extracted?.canonical ?? null,
        headings: extracted ? (extracted.headings as unknown as Prisma.InputJsonValue) : undefined,
        text: extracted?.text ?? null,
        contentHash: extracted ? contentHash(extracted) : null,
        userAgent: v.userAgent,
        startedAt: v.startedAt,
        finishedAt: v.finishedAt,
      },
    });
    await tx.crawlPage.update({ where: { id: v.page.id }, data: { lastVisitId: visit.id, lastVisitAt: v.finishedAt } });
    let changeId: string | null = null;
    if (extracted && previous && previous.contentHash !== visit.contentHash) {
      const change = detectChange(stored(previous), extracted);
      if (change) {
        const row = await tx.crawlChange.create({
          data: {
            workspaceId: v.page.workspaceId,
            siteId: v.page.siteId,
            pageId: v.page.id,
            fromVisitId: previous.id,
            toVisitId: visit.id,
            fields: change.fields,
            changes: change.changes as Prisma.InputJsonValue,
            diffSummary: change.diffSummary as unknown as Prisma.InputJsonValue,
            detectedAt: v.finishedAt,
          },
        });
        changeId = row.id;
      }
    }
    return { visitId: visit.id, changeId };
  });
}
