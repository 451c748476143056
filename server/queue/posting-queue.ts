// The posting queue (docs/decisions.md, "Posting queue"): weekly time slots on the workspace's
// clock, per workspace or per account, and posts placed in the next free one.
//
// A slot is taken by a scheduled post at that instant on that account; nothing else records it,
// so moving, cancelling or deleting a post frees its slot by itself, whatever path did it.
// Placing a post takes a transaction-scoped advisory lock per workspace, reads the taken
// instants and inserts in the same transaction: two concurrent adds never take one slot.
//
// A post's accounts share one time (a post has one scheduledAt), so "the next free slot for
// every target account" is the earliest instant that is a slot of each of them and free on
// each of them. An account uses its own slots, or the workspace's when it has none.
import { TZDate } from '@date-fns/tz';
import { db, type Tx } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { Prisma } from '@/server/generated/prisma/client';
import { dayStart } from '@/server/shared/time-zone';
import { isUuid } from '@/server/shared/schemas';
import type { QueueDto, Slot } from './queue.schemas';

/** How far ahead a free slot is looked for. */
export const QUEUE_HORIZON_DAYS = 84;

interface SlotRow {
  id: string;
  connectionId: string | null;
  weekday: number;
  minute: number;
}

export const slotTime = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
const minuteOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The instants of `slots` on the `days` days from `from`'s day, on `timeZone`'s clock, in order. */
export function slotInstants(slots: readonly Pick<SlotRow, 'weekday' | 'minute'>[], timeZone: string, from: Date, days: number): Date[] {
  const out: Date[] = [];
  for (let d = 0; d <= days; d++) {
    const day = new TZDate(dayStart(from, timeZone, d).getTime(), timeZone);
    const weekday = day.getDay() === 0 ? 7 : day.getDay();
    for (const s of slots) {
      if (s.weekday !== weekday) continue;
      out.push(new Date(new TZDate(day.getFullYear(), day.getMonth(), day.getDate(), Math.floor(s.minute / 60), s.minute % 60, timeZone).getTime()));
    }
  }
  return [...new Set(out.map((d) => d.getTime()))].sort((a, b) => a - b).map((t) => new Date(t));
}

/** Each account's slots: its own, or the workspace's. */
function slotsFor(all: SlotRow[], connectionId: string): SlotRow[] {
  const own = all.filter((s) => s.connectionId === connectionId);
  return own.length ? own : all.filter((s) => s.connectionId === null);
}

/** Instants at which a scheduled post (other than `except`) takes one of these accounts. */
async function takenInstants(client: Pick<Tx, '$queryRaw'>, workspaceId: string, connectionIds: string[], from: Date, to: Date, except: string[] = []) {
  const rows = await client.$queryRaw<{ connectionId: string; at: Date; postId: string }[]>`
    SELECT t."connectionId", p."scheduledAt" AS at, p.id AS "postId"
      FROM "Post" p JOIN "PostTarget" t ON t."postId" = p.id
     WHERE p."workspaceId" = ${workspaceId}::uuid AND p.status = 'scheduled'
       AND p."scheduledAt" >= ${from} AND p."scheduledAt" <= ${to}
       AND t."connectionId" = ANY(${connectionIds}::uuid[])
       AND NOT (p.id = ANY(${except}::uuid[]))`;
  const taken = new Map<string, string>();
  for (const r of rows) taken.set(`${r.connectionId}@${r.at.getTime()}`, r.postId);
  return taken;
}

/** Serialises every placement in one workspace until the transaction ends. */
async function lockQueue(tx: Pick<Tx, '$executeRaw'>, workspaceId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`herald:queue:${workspaceId}`}, 0))`;
}

/**
 * The next free slot after `after` shared by all `connections`, inside the caller's
 * transaction, under the workspace's queue lock: the caller inserts (or moves) its post in
 * the same transaction, so no other placement sees the slot free meanwhile.
 */
export async function takeQueueSlot(
  tx: Tx,
  workspaceId: string,
  connections: { id: string; accountName?: string }[],
  after: Date,
  opts: { except?: string[]; alsoTaken?: Set<number> } = {},
): Promise<Date> {
  await lockQueue(tx, workspaceId);
  const [{ timeZone }] = await tx.$queryRaw<{ timeZone: string }[]>`SELECT "timeZone" FROM "Workspace" WHERE id = ${workspaceId}::uuid`;
  const all = await tx.$queryRaw<SlotRow[]>`SELECT id, "connectionId", weekday, minute FROM "QueueSlot" WHERE "workspaceId" = ${workspaceId}::uuid`;
  const perAccount = connections.map((c) => {
    const slots = slotsFor(all, c.id);
    if (!slots.length) {
      throw new AppError(
        'QUEUE_NO_SLOTS',
        `${c.accountName ?? 'An account'} has no queue slots: add the workspace’s, or the account’s own, on the Queue page (PUT /queue/slots)`,
        {
          field: 'connectionIds',
        },
      );
    }
    return new Set(slotInstants(slots, timeZone, after, QUEUE_HORIZON_DAYS).map((d) => d.getTime()));
  });
  const [first, ...rest] = perAccount;
  const shared = [...first!].filter((t) => t > after.getTime() && rest.every((s) => s.has(t))).sort((a, b) => a - b);
  const horizon = new Date(after.getTime() + (QUEUE_HORIZON_DAYS + 1) * 86_400_000);
  const ids = connections.map((c) => c.id);
  const taken = await takenInstants(tx, workspaceId, ids, after, horizon, opts.except);
  const free = shared.find((t) => !opts.alsoTaken?.has(t) && ids.every((id) => !taken.has(`${id}@${t}`)));
  if (free === undefined) throw new AppError('QUEUE_FULL', `Every queue slot these accounts share is taken for the next ${QUEUE_HORIZON_DAYS / 7} weeks`);
  return new Date(free);
}

/** GET /queue: the slots, whether the queue is paused, and the next `days` days' slot instants with what takes them. */
export async function readQueue(workspaceId: string, days = 7, now = new Date()): Promise<QueueDto> {
  const ws = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { timeZone: true, queuePausedAt: true } });
  const all = await db.queueSlot.findMany({ where: { workspaceId }, orderBy: [{ weekday: 'asc' }, { minute: 'asc' }] });
  const connections = await db.connection.findMany({ where: { workspaceId, status: 'active' }, select: { id: true }, orderBy: { createdAt: 'asc' } });
  const to = new Date(now.getTime() + days * 86_400_000);
  const taken = await takenInstants(
    db,
    workspaceId,
    connections.map((c) => c.id),
    now,
    to,
  );
  const upcoming = connections.flatMap((c) =>
    slotInstants(slotsFor(all, c.id), ws.timeZone, now, days)
      .filter((at) => at > now && at <= to)
      .map((at) => ({ at: at.toISOString(), connectionId: c.id, postId: taken.get(`${c.id}@${at.getTime()}`) ?? null })),
  );
  upcoming.sort((a, b) => a.at.localeCompare(b.at) || a.connectionId.localeCompare(b.connectionId));
  return {
    timeZone: ws.timeZone,
    pausedAt: ws.queuePausedAt?.toISOString() ?? null,
    slots: all.map((s) => ({ connectionId: s.connectionId, weekday: s.weekday, time: slotTime(s.minute) })),
    upcoming,
  };
}

/** PUT /queue/slots: replaces the workspace's (or one account's) slots. */
export async function setQueueSlots(workspaceId: string, connectionId: string | null, slots: Slot[]): Promise<QueueDto> {
  if (connectionId !== null) {
    const found = isUuid(connectionId) ? await db.connection.findFirst({ where: { id: connectionId, workspaceId }, select: { id: true } }) : null;
    if (!found) throw new AppError('CONNECTION_NOT_FOUND', 'No connection with that id in this workspace', { field: 'connectionId' });
  }
  const unique = [...new Map(slots.map((s) => [`${s.weekday}@${s.time}`, { weekday: s.weekday, minute: minuteOf(s.time) }])).values()];
  await db.$transaction(async (tx) => {
    await lockQueue(tx, workspaceId);
    await tx.queueSlot.deleteMany({ where: { workspaceId, connectionId } });
    if (unique.length) await tx.queueSlot.createMany({ data: unique.map((s) => ({ workspaceId, connectionId, ...s })) });
  });
  return readQueue(workspaceId);
}

interface QueuedPost {
  id: string;
  scheduledAt: Date;
  scheduleVersion: number;
  connections: { id: string; accountName: string }[];
}

/** The queue's scheduled posts from `from` on, in time order, with their accounts. */
async function queuedPosts(tx: Tx, workspaceId: string, from: Date | null): Promise<QueuedPost[]> {
  const rows = await tx.$queryRaw<{ id: string; scheduledAt: Date; scheduleVersion: number; connections: { id: string; accountName: string }[] }[]>`
    SELECT p.id, p."scheduledAt", p."scheduleVersion",
           json_agg(json_build_object('id', c.id, 'accountName', c."accountName") ORDER BY t."createdAt") AS connections
      FROM "Post" p JOIN "PostTarget" t ON t."postId" = p.id JOIN "Connection" c ON c.id = t."connectionId"
     WHERE p."workspaceId" = ${workspaceId}::uuid AND p.status = 'scheduled' AND p.queued
       ${from ? Prisma.sql`AND p."scheduledAt" >= ${from}` : Prisma.empty}
     GROUP BY p.id ORDER BY p."scheduledAt", p.id`;
  return rows;
}

/**
 * Gives `posts` new slots after `after`, in the order given: each takes the next slot free of
 * every post not being moved and of the ones already placed in this pass. Returns the moves.
 */
async function replace(tx: Tx, workspaceId: string, posts: QueuedPost[], after: Date) {
  const moving = posts.map((p) => p.id);
  const placed = new Map<string, Set<number>>();
  const moved: { postId: string; from: string | null; to: string }[] = [];
  for (const p of posts) {
    // Slots this pass already gave to another post on one of this post's accounts.
    const alsoTaken = new Set<number>();
    for (const c of p.connections) for (const t of placed.get(c.id) ?? []) alsoTaken.add(t);
    const at = await takeQueueSlot(tx, workspaceId, p.connections, after, { except: moving, alsoTaken });
    for (const c of p.connections) placed.set(c.id, (placed.get(c.id) ?? new Set()).add(at.getTime()));
    if (at.getTime() !== p.scheduledAt.getTime()) {
      await tx.$executeRaw`
        UPDATE "Post" SET "scheduledAt" = ${at}, "scheduleVersion" = "scheduleVersion" + 1, "updatedAt" = now() WHERE id = ${p.id}::uuid`;
      moved.push({ postId: p.id, from: p.scheduledAt.toISOString(), to: at.toISOString() });
    }
  }
  return moved;
}

type Rescheduler = (post: { id: string; scheduledAt: Date; scheduleVersion: number }) => Promise<void>;

async function afterMoves(workspaceId: string, moved: { postId: string }[], reschedule: Rescheduler) {
  if (!moved.length) return;
  const rows = await db.post.findMany({
    where: { id: { in: moved.map((m) => m.postId) }, workspaceId },
    select: { id: true, scheduledAt: true, scheduleVersion: true },
  });
  for (const r of rows) if (r.scheduledAt) await reschedule({ id: r.id, scheduledAt: r.scheduledAt, scheduleVersion: r.scheduleVersion });
}

/**
 * POST /queue/shuffle: the queue's upcoming posts take the same slots in a random order
 * (each still on a slot every one of its accounts has). `random` is for tests.
 */
export async function shuffleQueue(workspaceId: string, reschedule: Rescheduler, random: () => number = Math.random) {
  const now = new Date();
  const { moved, pausedAt } = await db.$transaction(async (tx) => {
    await lockQueue(tx, workspaceId);
    const posts = await queuedPosts(tx, workspaceId, now);
    for (let i = posts.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [posts[i], posts[j]] = [posts[j]!, posts[i]!];
    }
    // A paused queue stays paused: its answer says since when, like GET /queue.
    const ws = await tx.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { queuePausedAt: true } });
    return { moved: await replace(tx, workspaceId, posts, now), pausedAt: ws.queuePausedAt?.toISOString() ?? null };
  });
  await afterMoves(workspaceId, moved, reschedule);
  return { moved, pausedAt };
}

/** POST /queue/pause: the queue's posts are held (not published) until resumed. */
export async function pauseQueue(workspaceId: string) {
  const ws = await db.workspace.update({ where: { id: workspaceId }, data: { queuePausedAt: new Date() }, select: { queuePausedAt: true } });
  return { moved: [], pausedAt: ws.queuePausedAt!.toISOString() };
}

/**
 * POST /queue/resume: publishing of the queue's posts resumes; the ones whose slot passed
 * while paused move, in their order, to the next free slots (never published late in a burst).
 */
export async function resumeQueue(workspaceId: string, reschedule: Rescheduler) {
  const now = new Date();
  const moved = await db.$transaction(async (tx) => {
    await lockQueue(tx, workspaceId);
    await tx.workspace.update({ where: { id: workspaceId }, data: { queuePausedAt: null } });
    const overdue = (await queuedPosts(tx, workspaceId, null)).filter((p) => p.scheduledAt <= now);
    return replace(tx, workspaceId, overdue, now);
  });
  await afterMoves(workspaceId, moved, reschedule);
  return { moved, pausedAt: null };
}

/** SQL: true when the post `p` is held by its workspace's paused queue (delivery leaves it). */
export const heldByPausedQueueSql = (p: Prisma.Sql) =>
  Prisma.sql`(${p}."queued" AND EXISTS (SELECT 1 FROM "Workspace" qw WHERE qw.id = ${p}."workspaceId" AND qw."queuePausedAt" IS NOT NULL))`;
