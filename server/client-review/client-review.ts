// The client review link: what the client sees (the workspace's posts awaiting approval, as
// each platform will show them) and what it may do (approve, or reject with a comment). The
// decisions run through the same approval services as a member's in the app.
import { z } from 'zod';
import { resolveClientLink } from '@/server/client-links/resolve-client-link';
import { db } from '@/server/db/client';
import { approvePostAs, listPendingApprovals, rejectPostAs } from '@/server/posts/review-post';
import type { Platform } from '@/server/shared/platforms';
import { ZText } from '@/server/shared/schemas';

export const REVIEW_COMMENT_MAX = 1000;
export const ZRejectBody = z.strictObject({ comment: ZText.trim().min(1).max(REVIEW_COMMENT_MAX) });
export const ZApproveBody = z.strictObject({});

export interface ReviewPreview {
  platform: Platform;
  account: { displayName: string; accountName: string; avatarUrl: string | null };
  content: string;
}

export interface ReviewPost {
  id: string;
  status: string;
  approvalStatus: string;
  scheduledAt: string | null;
  media: { url: string; kind: 'image' | 'video' }[];
  previews: ReviewPreview[];
}

export interface ReviewPageData {
  /** The times on the page are in the workspace's zone, as the agency's staff read them. */
  workspace: { id: string; name: string; timeZone: string };
  brand: { name: string; logoUrl: string | null };
  expiresAt: string;
  posts: ReviewPost[];
}

export async function readReviewPage(token: string): Promise<ReviewPageData> {
  const link = await resolveClientLink(token, 'review');
  const pending = await listPendingApprovals(link.workspace.id);
  const connectionIds = [...new Set(pending.flatMap((p) => p.targets.map((t) => t.connectionId)))];
  const connections = new Map(
    (
      await db.connection.findMany({
        where: { id: { in: connectionIds }, workspaceId: link.workspace.id },
        select: { id: true, displayName: true, accountName: true, avatarUrl: true },
      })
    ).map((c) => [c.id, c]),
  );
  const media = new Map(
    (await db.post.findMany({ where: { id: { in: pending.map((p) => p.id) } }, select: { id: true, media: true } })).map((p) => [
      p.id,
      (p.media as { url: string; kind: 'image' | 'video' }[]).map((m) => ({ url: m.url, kind: m.kind })),
    ]),
  );
  return {
    workspace: link.workspace,
    brand: link.brand,
    expiresAt: link.expiresAt.toISOString(),
    posts: pending.map((p) => ({
      id: p.id,
      status: p.status,
      approvalStatus: p.approvalStatus,
      scheduledAt: p.scheduledAt,
      media: media.get(p.id) ?? [],
      previews: p.targets.map((t) => {
        const c = connections.get(t.connectionId);
        return {
          platform: t.platform,
          account: { displayName: c?.displayName ?? t.platform, accountName: c?.accountName ?? '', avatarUrl: c?.avatarUrl ?? null },
          content: p.variants?.[t.platform]?.content ?? p.content,
        };
      }),
    })),
  };
}

export interface ReviewDecision {
  id: string;
  approvalStatus: string;
  status: string;
}

export async function approveByReviewLink(token: string, postId: string): Promise<ReviewDecision> {
  const link = await resolveClientLink(token, 'review');
  const post = await approvePostAs(link.workspace.id, { kind: 'reviewLink', linkId: link.id, link }, postId);
  return { id: post.id, approvalStatus: post.approvalStatus, status: post.status };
}

export async function rejectByReviewLink(token: string, postId: string, comment: string): Promise<ReviewDecision> {
  const link = await resolveClientLink(token, 'review');
  const post = await rejectPostAs(link.workspace.id, { kind: 'reviewLink', linkId: link.id, link }, postId, comment);
  return { id: post.id, approvalStatus: post.approvalStatus, status: post.status };
}
