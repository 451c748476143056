// Shared set-up for publishing tests: a workspace with a key and sandbox accounts, and a
// ready media asset.
import { randomUUID } from 'node:crypto';
import { db } from '@/server/db/client';
import { createSandboxConnection, createWorkspaceWithKey } from './fixtures';

export async function publishingWorkspace(opts: { requireApproval?: boolean } = {}) {
  const { workspace, secret } = await createWorkspaceWithKey();
  if (opts.requireApproval) await db.workspace.update({ where: { id: workspace.id }, data: { requireApproval: true } });
  const ok = {
    linkedin: await createSandboxConnection(workspace.id, { platform: 'linkedin' }),
    twitter: await createSandboxConnection(workspace.id, { platform: 'twitter' }),
    facebook: await createSandboxConnection(workspace.id, { platform: 'facebook' }),
    instagram: await createSandboxConnection(workspace.id, { platform: 'instagram' }),
    threads: await createSandboxConnection(workspace.id, { platform: 'threads' }),
    tiktok: await createSandboxConnection(workspace.id, { platform: 'tiktok' }),
  };
  const rejects = await createSandboxConnection(workspace.id, { platform: 'linkedin', behaviour: 'rejects_posts' });
  const expired = await createSandboxConnection(workspace.id, { platform: 'twitter', behaviour: 'expired' });
  return { workspace, secret, ok, rejects, expired };
}

/** A completed asset as POST /media/{id}/complete leaves it. */
export async function readyMedia(
  workspaceId: string,
  opts: { kind?: 'image' | 'video'; durationMs?: number | null; bytes?: number; name?: string; createdAt?: Date } = {},
) {
  const kind = opts.kind ?? 'image';
  const id = randomUUID();
  return db.mediaAsset.create({
    data: {
      id,
      workspaceId,
      name: opts.name ?? `${kind}-${id.slice(0, 8)}.${kind === 'image' ? 'png' : 'mp4'}`,
      kind,
      contentType: kind === 'image' ? 'image/png' : 'video/mp4',
      bytes: opts.bytes ?? 1024,
      status: 'ready',
      storageKey: `${workspaceId}/${id}`,
      url: `https://media.herald.example/${workspaceId}/${id}`,
      durationMs: kind === 'video' ? (opts.durationMs === undefined ? 30_000 : opts.durationMs) : null,
      createdAt: opts.createdAt,
      completedAt: new Date(),
    },
  });
}

export const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

export async function eventsOf(postId: string) {
  const rows = await db.outboxEvent.findMany({ orderBy: { createdAt: 'asc' } });
  return rows.filter((r) => (r.data as { postId?: string }).postId === postId).map((r) => ({ type: r.type, data: r.data as Record<string, unknown> }));
}

/** A post already published to one account (as delivery leaves it): the post and its target. */
export async function publishedTarget(workspaceId: string, connectionId: string, platform: string, publishedAt: Date, postedId: string, content = 'A post') {
  const post = await db.post.create({
    data: {
      workspaceId,
      content,
      mediaUrls: [],
      platforms: [platform],
      connectionIds: [connectionId],
      status: 'published',
      scheduledAt: publishedAt,
      publishedAt,
      targets: { create: { connectionId, platform, status: 'published', postedId, attempts: 1, publishedAt } },
    },
    include: { targets: true },
  });
  return { post, target: post.targets[0]! };
}
