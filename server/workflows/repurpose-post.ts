// repurpose-post: from a published post, a draft for each other account, its text fitted to
// that platform's limit. Drafts are made by createPost, so every rule of POST /posts holds;
// an account the post cannot go to (e.g. Instagram without media) is skipped with the code
// createPost gave.
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { PLATFORM_CATALOGUE } from '@/server/platforms/catalogue';
import { createPost } from '@/server/posts/create-post';
import { isUuid } from '@/server/shared/schemas';
import type { Platform } from '@/server/shared/platforms';
import { fitText } from './fit-text';
import type { z } from 'zod';
import type { ZRepurposeSummary } from './workflows.schemas';

type Summary = z.infer<typeof ZRepurposeSummary>;
type Draft = Summary['drafts'][number];
type Skip = Summary['skipped'][number];

export interface RepurposeProgress {
  drafts: Draft[];
  skipped: Skip[];
}

export async function checkRepurposeInput(workspaceId: string, input: { postId?: string; connectionIds?: string[] }): Promise<void> {
  if (!input.postId) throw new AppError('VALIDATION_FAILED', 'repurpose-post needs postId: the published post to repurpose', { field: 'postId' });
  await publishedPost(workspaceId, input.postId);
}

async function publishedPost(workspaceId: string, postId: string) {
  const post = isUuid(postId) ? await db.post.findFirst({ where: { id: postId, workspaceId }, include: { targets: true } }) : null;
  if (!post) throw new AppError('POST_NOT_FOUND', `No post ${postId} in this workspace`, { field: 'postId' });
  if (post.status !== 'published' && post.status !== 'partial_published') {
    throw new AppError('VALIDATION_FAILED', `repurpose-post takes a published post; this one is ${post.status}`, { field: 'postId' });
  }
  return post;
}

/**
 * Makes the drafts not yet made (`progress` is what an interrupted run already did, saved
 * after each draft through `save`), and returns the summary.
 */
export async function repurposePost(
  workspaceId: string,
  input: { postId?: string; connectionIds?: string[] },
  progress: RepurposeProgress,
  save: (p: RepurposeProgress) => Promise<void>,
): Promise<Summary> {
  const post = await publishedPost(workspaceId, input.postId ?? '');
  const targeted = new Set(post.targets.map((t) => t.connectionId));
  const connections = await db.connection.findMany({
    where: input.connectionIds
      ? { workspaceId, id: { in: input.connectionIds.filter(isUuid) } }
      : { workspaceId, status: 'active', id: { notIn: [...targeted] } },
    orderBy: [{ platform: 'asc' }, { createdAt: 'asc' }],
  });
  if (input.connectionIds) {
    const found = new Set(connections.map((c) => c.id));
    const missing = input.connectionIds.find((id) => !found.has(id));
    if (missing) throw new AppError('CONNECTION_NOT_FOUND', `No connection ${missing} in this workspace`, { field: 'connectionIds' });
  }
  const done = new Set([...progress.drafts, ...progress.skipped].map((d) => d.connectionId));
  const variants = (post.variants ?? {}) as Partial<Record<Platform, { content: string }>>;
  const mediaIds = ((post.media ?? []) as Array<{ assetId?: string }>).flatMap((m) => (m.assetId ? [m.assetId] : []));

  for (const connection of connections) {
    if (done.has(connection.id)) continue;
    const platform = connection.platform as Platform;
    const rules = PLATFORM_CATALOGUE[platform]?.text;
    const source = variants[platform]?.content ?? post.content;
    const fitted = rules ? fitText(source, rules) : { text: source, shortened: false };
    try {
      const { post: draft } = await createPost(workspaceId, { content: fitted.text, connectionIds: [connection.id], ...(mediaIds.length ? { mediaIds } : {}) });
      progress.drafts.push({ postId: draft.id, connectionId: connection.id, platform, shortened: fitted.shortened });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      progress.skipped.push({ connectionId: connection.id, platform, code: err.code, message: err.message });
    }
    await save(progress);
  }
  return { sourcePostId: post.id, drafts: progress.drafts, skipped: progress.skipped };
}
