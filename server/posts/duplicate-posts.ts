// Finding duplicates: the same text going to the same account within a window (24 hours by
// default) among posts that have not gone out (drafts and scheduled posts). "The same text"
// is what the account would receive — the platform's variant or the shared content —
// compared after trimming, lower-casing and collapsing white space. Resolving keeps one
// post and cancels the others of the group through cancelPost (its rules apply).
import { z } from 'zod';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import type { Platform } from '@/server/shared/platforms';
import { ZNullableTimestamp, ZText, ZTimestamp } from '@/server/shared/schemas';
import { cancelPost } from './cancel-post';

export const DUPLICATE_STATUSES = ['draft', 'scheduled'] as const;

export const ZFindDuplicatesInput = z
  .strictObject({
    windowHours: z
      .number()
      .int()
      .min(1)
      .max(24 * 90)
      .default(24),
  })
  .optional()
  .default({ windowHours: 24 });

export const ZDuplicateGroup = z.object({
  /** Stable id of the group: the sorted post ids. */
  key: z.string(),
  content: z.string(),
  connectionIds: z.array(z.uuid()),
  platforms: z.array(z.string()),
  posts: z.array(z.object({ id: z.uuid(), status: z.string(), scheduledAt: ZNullableTimestamp, createdAt: ZTimestamp })),
});
export type DuplicateGroup = z.infer<typeof ZDuplicateGroup>;

export const ZResolveDuplicatesInput = z.strictObject({ keepId: z.uuid(), groupKey: ZText.min(1).max(10_000) });

export const normaliseText = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

interface Candidate {
  id: string;
  status: string;
  content: string;
  variants: unknown;
  scheduledAt: Date | null;
  createdAt: Date;
  targets: { connectionId: string; platform: string }[];
}

const timeOf = (p: Candidate) => (p.scheduledAt ?? p.createdAt).getTime();

export async function findDuplicates(workspaceId: string, opts: { windowHours: number }): Promise<DuplicateGroup[]> {
  const posts: Candidate[] = await db.post.findMany({
    where: { workspaceId, status: { in: [...DUPLICATE_STATUSES] } },
    select: {
      id: true,
      status: true,
      content: true,
      variants: true,
      scheduledAt: true,
      createdAt: true,
      targets: { select: { connectionId: true, platform: true } },
    },
    take: 5000,
  });
  const windowMs = opts.windowHours * 3_600_000;
  // (account, text) → posts sending it, in time order.
  const byAccountText = new Map<string, Candidate[]>();
  for (const p of posts) {
    const variants = (p.variants ?? {}) as Partial<Record<Platform, { content: string }>>;
    for (const t of p.targets) {
      const text = normaliseText(variants[t.platform as Platform]?.content ?? p.content);
      const k = `${t.connectionId}\u0000${text}`;
      byAccountText.set(k, [...(byAccountText.get(k) ?? []), p]);
    }
  }
  const groups = new Map<string, DuplicateGroup>();
  for (const [k, list] of byAccountText) {
    if (list.length < 2) continue;
    const [connectionId] = k.split('\u0000') as [string];
    list.sort((a, b) => timeOf(a) - timeOf(b) || a.id.localeCompare(b.id));
    // Runs of posts each within the window of the previous one.
    let run: Candidate[] = [list[0]!];
    const flush = () => {
      if (run.length < 2) return;
      const key = run
        .map((p) => p.id)
        .sort()
        .join(',');
      const platform = run[0]!.targets.find((t) => t.connectionId === connectionId)!.platform;
      const group = groups.get(key) ?? {
        key,
        content: run[0]!.content,
        connectionIds: [],
        platforms: [],
        posts: run.map((p) => ({ id: p.id, status: p.status, scheduledAt: p.scheduledAt?.toISOString() ?? null, createdAt: p.createdAt.toISOString() })),
      };
      group.connectionIds.push(connectionId);
      if (!group.platforms.includes(platform)) group.platforms.push(platform);
      groups.set(key, group);
    };
    for (const p of list.slice(1)) {
      if (timeOf(p) - timeOf(run[run.length - 1]!) <= windowMs) run.push(p);
      else {
        flush();
        run = [p];
      }
    }
    flush();
  }
  return [...groups.values()].sort((a, b) => a.key.localeCompare(b.key));
}

/** Keeps `keepId` and cancels the other posts of the group; the group must still be a duplicate group. */
export async function resolveDuplicates(
  workspaceId: string,
  input: { keepId: string; groupKey: string; windowHours?: number },
): Promise<{ kept: string; cancelled: string[] }> {
  const groups = await findDuplicates(workspaceId, { windowHours: input.windowHours ?? 24 });
  const group = groups.find((g) => g.key === input.groupKey);
  if (!group) throw new AppError('VALIDATION_FAILED', 'Those posts are no longer duplicates of each other', { status: 409, field: 'groupKey' });
  if (!group.posts.some((p) => p.id === input.keepId)) throw new AppError('VALIDATION_FAILED', 'The post to keep is not in the group', { field: 'keepId' });
  const cancelled: string[] = [];
  for (const p of group.posts) {
    if (p.id === input.keepId) continue;
    await cancelPost(workspaceId, p.id);
    cancelled.push(p.id);
  }
  return { kept: input.keepId, cancelled };
}
