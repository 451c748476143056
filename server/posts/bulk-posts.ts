// Bulk actions over a selection of posts (ids) or a date range: shift by a duration, spread
// over evenly spaced slots, cancel. Each post goes through the same service a single change
// does (updatePost, cancelPost), so every rule — editability, the past-time tolerance, the
// approval rule, post.scheduled events — applies per post; one post's refusal does not stop
// the others, and the result says what happened to each.
import { z } from 'zod';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { ZTimestamp } from '@/server/shared/schemas';
import { cancelPost } from './cancel-post';
import { EDITABLE_STATUSES } from './post-rules';
import { updatePost } from './update-post';

export const MAX_BULK = 200;

export const ZBulkSelection = z
  .strictObject({
    ids: z.array(z.uuid()).min(1).max(MAX_BULK).optional(),
    range: z.strictObject({ from: ZTimestamp, to: ZTimestamp }).optional(),
  })
  .refine((s) => (s.ids === undefined) !== (s.range === undefined), { message: 'Give either ids or a range', path: ['ids'] });
export type BulkSelection = z.infer<typeof ZBulkSelection>;

export const ZBulkShiftInput = z.strictObject({
  selection: ZBulkSelection,
  /** Minutes to move every post by; negative moves earlier. */
  byMinutes: z
    .number()
    .int()
    .min(-60 * 24 * 365)
    .max(60 * 24 * 365)
    .refine((n) => n !== 0, 'Shift by something other than zero'),
});
export const ZBulkSpreadInput = z.strictObject({
  selection: ZBulkSelection,
  start: ZTimestamp,
  everyMinutes: z
    .number()
    .int()
    .min(1)
    .max(60 * 24 * 30),
});
export const ZBulkCancelInput = z.strictObject({ selection: ZBulkSelection });

export const ZBulkResult = z.object({
  done: z.array(z.uuid()),
  refused: z.array(z.object({ id: z.uuid(), code: z.string(), message: z.string() })),
});
export type BulkResult = z.infer<typeof ZBulkResult>;

interface Selected {
  id: string;
  scheduledAt: Date | null;
  createdAt: Date;
}

/** The posts a selection names, in time order. A range selects the scheduled posts in it. */
export async function selectPosts(workspaceId: string, selection: BulkSelection): Promise<Selected[]> {
  const select = { id: true, scheduledAt: true, createdAt: true } as const;
  const rows = selection.ids
    ? await db.post.findMany({ where: { workspaceId, id: { in: selection.ids } }, select })
    : await db.post.findMany({
        where: { workspaceId, status: 'scheduled', scheduledAt: { gte: new Date(selection.range!.from), lt: new Date(selection.range!.to) } },
        select,
        take: MAX_BULK + 1,
      });
  if (rows.length > MAX_BULK) throw new AppError('VALIDATION_FAILED', `A bulk action takes at most ${MAX_BULK} posts`, { field: 'selection' });
  if (selection.ids && rows.length < selection.ids.length) {
    const found = new Set(rows.map((r) => r.id));
    const missing = selection.ids.find((id) => !found.has(id))!;
    throw new AppError('POST_NOT_FOUND', `No post ${missing} in this workspace`, { field: 'selection.ids' });
  }
  const key = (p: Selected) => (p.scheduledAt ?? p.createdAt).getTime();
  return rows.sort((a, b) => key(a) - key(b) || a.id.localeCompare(b.id));
}

async function each(posts: Selected[], act: (p: Selected) => Promise<unknown>): Promise<BulkResult> {
  const result: BulkResult = { done: [], refused: [] };
  for (const p of posts) {
    try {
      await act(p);
      result.done.push(p.id);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      result.refused.push({ id: p.id, code: err.code, message: err.message });
    }
  }
  return result;
}

const refuse = (code: 'POST_NOT_EDITABLE', message: string) => {
  throw new AppError(code, message);
};

/** Moves each post's scheduled time by `byMinutes`; a post without a time is refused. */
export async function bulkShift(workspaceId: string, input: z.infer<typeof ZBulkShiftInput>): Promise<BulkResult> {
  const posts = await selectPosts(workspaceId, input.selection);
  return each(posts, async (p) => {
    if (!p.scheduledAt) refuse('POST_NOT_EDITABLE', 'The post has no scheduled time to shift');
    await updatePost(workspaceId, p.id, { scheduledAt: new Date(p.scheduledAt!.getTime() + input.byMinutes * 60_000).toISOString() });
  });
}

/** Gives the posts, in time order, the slots start, start + every, start + 2·every … */
export async function bulkSpread(workspaceId: string, input: z.infer<typeof ZBulkSpreadInput>): Promise<BulkResult> {
  const posts = await selectPosts(workspaceId, input.selection);
  const start = new Date(input.start).getTime();
  let slot = 0;
  return each(posts, async (p) => {
    const at = new Date(start + slot * input.everyMinutes * 60_000);
    slot++;
    await updatePost(workspaceId, p.id, { scheduledAt: at.toISOString() });
  });
}

export async function bulkCancel(workspaceId: string, input: z.infer<typeof ZBulkCancelInput>): Promise<BulkResult> {
  const posts = await selectPosts(workspaceId, input.selection);
  return each(posts, (p) => cancelPost(workspaceId, p.id));
}

/** Statuses a bulk action can change (the single-post rule, re-exported for the app's selection UI). */
export const BULK_EDITABLE_STATUSES = EDITABLE_STATUSES;
