// In-app notifications of a workspace: approval requested, a post failed on an account, an
// account needs reconnecting, an assistant staged an action, a workflow run failed (from the
// outbox, below); a webhook endpoint paused (server/webhooks/pause.ts) and an ad account's
// sync started failing (server/analytics/sync.ts), both written in their own transaction
// through writeNotification. Read state is per workspace: any member marking a notice read
// clears it for the team, as a shared inbox does.
import { z } from 'zod';
import type { Tx } from '@/server/db/client';
import { db } from '@/server/db/client';
import type { OutboxConsumer } from '@/server/events/consumers';
import type { DomainEventData } from '@/server/events/catalogue';
import { platformName } from '@/server/platforms/catalogue';
import { WORKFLOW_NAMES, type WorkflowId } from '@/server/workflows/workflows.schemas';
import { shorten } from '@/server/shared/text';
import { isUuid, ZTimestamp } from '@/server/shared/schemas';

export const NOTIFICATION_KINDS = [
  'approval.requested',
  'post.failed',
  'connection.expired',
  'webhook.paused',
  'proposal.staged',
  'workflow.failed',
  'sync.failed',
  'client.approved',
  'client.rejected',
  'client.connected',
  'comment.received',
  'review.received',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const ZNotification = z.object({
  id: z.uuid(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  data: z.record(z.string(), z.unknown()),
  readAt: ZTimestamp.nullable(),
  createdAt: ZTimestamp,
});
export type NotificationDto = z.infer<typeof ZNotification>;

export const ZListNotificationsInput = z
  .strictObject({ unreadOnly: z.boolean().default(false), limit: z.number().int().min(1).max(100).default(30) })
  .optional()
  .default({ unreadOnly: false, limit: 30 });

export const ZMarkReadInput = z.strictObject({ ids: z.array(z.uuid()).min(1).max(100).optional(), all: z.literal(true).optional() });

interface NewNotification {
  workspaceId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  data: Record<string, unknown>;
}

/**
 * Writes notices in the caller's transaction, so each exists exactly when what it reports
 * does: two statements however many there are.
 */
async function writeNotifications(tx: Tx, notes: readonly NewNotification[]): Promise<void> {
  if (notes.length === 0) return;
  // An event of a workspace deleted since has no one left to tell.
  const existing = await tx.workspace.findMany({ where: { id: { in: [...new Set(notes.map((n) => n.workspaceId))] } }, select: { id: true } });
  const live = new Set(existing.map((w) => w.id));
  const rows = notes.filter((n) => live.has(n.workspaceId)).map((n) => ({ ...n, data: n.data as object }));
  if (rows.length) await tx.notification.createMany({ data: rows });
}

/**
 * What a client did through a link the agency sent (approved, rejected, connected an
 * account), told to the workspace that sent it, in the caller's transaction. A link a
 * workspace sent itself (a member connecting from the app) tells nobody: they were there.
 */
export async function notifyLinkIssuer(
  tx: Tx,
  link: { issuedById: string; workspace: { id: string; name: string } },
  kind: 'client.approved' | 'client.rejected' | 'client.connected',
  title: string,
  body: string,
  data: Record<string, unknown>,
): Promise<void> {
  if (link.issuedById === link.workspace.id) return;
  await writeNotification(tx, link.issuedById, kind, title, body, { ...data, clientWorkspaceId: link.workspace.id });
}

/** Writes one notice in the caller's transaction, so it exists exactly when what it reports does. */
export async function writeNotification(
  tx: Tx,
  workspaceId: string,
  kind: NotificationKind,
  title: string,
  body: string,
  data: Record<string, unknown>,
): Promise<void> {
  await writeNotifications(tx, [{ workspaceId, kind, title, body, data }]);
}

/**
 * Outbox consumer: turns the events staff must act on into notifications, in the drain's
 * transaction. A batch reads the posts and accounts it names once, then writes every notice
 * in one insert.
 */
export const notifyStaff: OutboxConsumer = async (events, { tx }) => {
  const postIds = new Set<string>();
  const connectionIds = new Set<string>();
  for (const event of events) {
    if (event.type === 'post.approval_required') {
      const { postId } = event.data as DomainEventData['post.approval_required'];
      if (isUuid(postId)) postIds.add(postId);
    } else if (event.type === 'connection.error') {
      const { connectionId } = event.data as DomainEventData['connection.error'];
      if (isUuid(connectionId)) connectionIds.add(connectionId);
    }
  }
  const contents = new Map(
    postIds.size ? (await tx.post.findMany({ where: { id: { in: [...postIds] } }, select: { id: true, content: true } })).map((p) => [p.id, p.content]) : [],
  );
  const accounts = new Map(
    connectionIds.size
      ? (await tx.connection.findMany({ where: { id: { in: [...connectionIds] } }, select: { id: true, displayName: true } })).map((c) => [c.id, c.displayName])
      : [],
  );

  const notes: NewNotification[] = [];
  const note = (workspaceId: string, kind: NotificationKind, title: string, body: string, data: Record<string, unknown>) =>
    notes.push({ workspaceId, kind, title, body, data });
  for (const event of events) {
    if (event.type === 'post.approval_required') {
      const { postId } = event.data as DomainEventData['post.approval_required'];
      note(event.workspaceId, 'approval.requested', 'Approval requested', `“${shorten(contents.get(postId) ?? '')}” waits for a reviewer.`, { postId });
    } else if (event.type === 'post.failed') {
      const d = event.data as DomainEventData['post.failed'];
      note(event.workspaceId, 'post.failed', `A post failed on ${platformName(d.platform)}`, d.error.message, {
        postId: d.postId,
        targetId: d.targetId,
        code: d.error.code,
      });
    } else if (event.type === 'connection.error') {
      const d = event.data as DomainEventData['connection.error'];
      note(
        event.workspaceId,
        'connection.expired',
        `${accounts.get(d.connectionId) ?? 'An account'} on ${platformName(d.platform)} needs reconnecting`,
        d.reason,
        {
          connectionId: d.connectionId,
        },
      );
    } else if (event.type === 'proposal.staged') {
      const d = event.data as DomainEventData['proposal.staged'];
      note(event.workspaceId, 'proposal.staged', 'An assistant asks for confirmation', d.title, { actionId: d.actionId, toolName: d.toolName });
    } else if (event.type === 'review.received') {
      // A low review is worth a notice (answered in an hour it keeps a customer); the others wait in the inbox.
      const d = event.data as DomainEventData['review.received'];
      const low = d.rating !== null ? d.rating <= LOW_REVIEW_STARS : d.recommends === false;
      if (low) {
        const verdict = d.rating !== null ? `${d.rating} star${d.rating === 1 ? '' : 's'}` : 'a review that does not recommend';
        note(
          event.workspaceId,
          'review.received',
          `${d.authorName} left ${verdict} on ${platformName(d.platform)}`,
          d.text ? `“${shorten(d.text)}”` : 'No words, only the rating.',
          {
            itemId: d.itemId,
          },
        );
      }
    } else if (event.type === 'workflow.run.failed') {
      const d = event.data as DomainEventData['workflow.run.failed'];
      const error = d.error as { message?: unknown } | null;
      const name = WORKFLOW_NAMES[d.workflowId as WorkflowId] ?? d.workflowId;
      note(event.workspaceId, 'workflow.failed', `Workflow “${name}” failed`, typeof error?.message === 'string' ? error.message : 'The run failed.', {
        runId: d.runId,
        workflowId: d.workflowId,
      });
    }
  }
  notes.push(...(await commentNotices(tx, events)));
  await writeNotifications(tx, notes);
};

/** Reviews with at most this many stars (or a Facebook "does not recommend") notify the team. */
export const LOW_REVIEW_STARS = 2;

/** How young a post must be for a new comment under it to notify the team. */
export const COMMENT_NOTICE_MAX_POST_AGE_MS = 24 * 3_600_000;

/**
 * New comments under posts younger than a day: one notice per post and batch ("3 new comments
 * on …"), so a busy post does not bury the other notices. Older posts' comments wait in the
 * inbox, counted in its unread badge.
 */
async function commentNotices(tx: Tx, events: Parameters<OutboxConsumer>[0]): Promise<NewNotification[]> {
  const byPost = new Map<string, { workspaceId: string; items: DomainEventData['comment.received'][] }>();
  for (const event of events) {
    if (event.type !== 'comment.received') continue;
    const d = event.data as DomainEventData['comment.received'];
    if (event.createdAt.getTime() - Date.parse(d.postPublishedAt) > COMMENT_NOTICE_MAX_POST_AGE_MS || !isUuid(d.postId)) continue;
    const entry = byPost.get(d.postId) ?? { workspaceId: event.workspaceId, items: [] };
    entry.items.push(d);
    byPost.set(d.postId, entry);
  }
  if (!byPost.size) return [];
  const contents = new Map(
    (await tx.post.findMany({ where: { id: { in: [...byPost.keys()] } }, select: { id: true, content: true } })).map((p) => [p.id, p.content]),
  );
  return [...byPost].map(([postId, { workspaceId, items }]) => {
    const first = items[0]!;
    const title =
      items.length === 1
        ? `${first.authorName} commented on ${platformName(first.platform)}`
        : `${items.length} new comments on ${[...new Set(items.map((i) => platformName(i.platform)))].join(', ')}`;
    return {
      workspaceId,
      kind: 'comment.received' as const,
      title,
      body: items.length === 1 ? `“${shorten(first.text)}” on “${shorten(contents.get(postId) ?? '')}”` : `On “${shorten(contents.get(postId) ?? '')}”`,
      data: { postId, itemId: first.itemId },
    };
  });
}

function toDto(n: { id: string; kind: string; title: string; body: string; data: unknown; readAt: Date | null; createdAt: Date }): NotificationDto {
  return { ...n, data: (n.data ?? {}) as Record<string, unknown>, readAt: n.readAt?.toISOString() ?? null, createdAt: n.createdAt.toISOString() };
}

export async function listNotifications(
  workspaceId: string,
  opts: { unreadOnly: boolean; limit: number },
): Promise<{ items: NotificationDto[]; unread: number }> {
  const [rows, unread] = await Promise.all([
    db.notification.findMany({
      where: { workspaceId, ...(opts.unreadOnly ? { readAt: null } : {}) },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: opts.limit,
    }),
    unreadCount(workspaceId),
  ]);
  return { items: rows.map(toDto), unread };
}

export async function unreadCount(workspaceId: string): Promise<number> {
  return db.notification.count({ where: { workspaceId, readAt: null } });
}

export async function markNotificationsRead(workspaceId: string, input: { ids?: string[]; all?: true }): Promise<{ unread: number }> {
  await db.notification.updateMany({
    where: { workspaceId, readAt: null, ...(input.all ? {} : { id: { in: input.ids ?? [] } }) },
    data: { readAt: new Date() },
  });
  return { unread: await unreadCount(workspaceId) };
}
