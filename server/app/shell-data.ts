// What the signed-in shell shows: the staff member, their workspaces and client workspaces.
import { z } from 'zod';
import type { Actor } from '@/server/auth/actor';
import { ROLES } from '@/server/auth/roles';
import { isOperator } from '@/server/agencies/operator';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { unreadCount } from '@/server/notifications/notifications';
import { countStagedProposals } from '@/server/proposals/proposals';
import { reachableWorkspaces, unreadInboxCount } from '@/server/inbox/read-inbox';
import { countPendingReplies } from '@/server/inbox/reply-approval';

export interface ShellData {
  user: { id: string; email: string; name: string | null; emailUnverified: boolean };
  workspaces: { id: string; name: string; slug: string; role: string; clients: { id: string; name: string }[] }[];
}

export async function loadShellData(userId: string): Promise<ShellData | null> {
  const user = await db.user.findUnique({
    where: { id: userId },
    include: {
      memberships: {
        where: { workspace: { deletedAt: null } },
        orderBy: { createdAt: 'asc' },
        include: { workspace: { include: { managed: { where: { deletedAt: null }, select: { id: true, name: true }, orderBy: { name: 'asc' } } } } },
      },
    },
  });
  if (!user) return null;
  return {
    user: { id: user.id, email: user.email, name: user.name, emailUnverified: user.signedUpAt !== null && user.emailVerified === null },
    workspaces: user.memberships
      .filter((m) => m.workspace.managedById === null || !user.memberships.some((o) => o.workspaceId === m.workspace.managedById))
      .map((m) => ({ id: m.workspace.id, name: m.workspace.name, slug: m.workspace.slug, role: m.role, clients: m.workspace.managed })),
  };
}

export const ZAppShell = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string().nullable(), emailUnverified: z.boolean(), operator: z.boolean() }),
  workspaces: z.array(z.object({ id: z.string(), name: z.string(), role: z.string(), clients: z.array(z.object({ id: z.string(), name: z.string() })) })),
  current: z.object({ id: z.string(), name: z.string(), timeZone: z.string(), role: z.enum(ROLES), scopes: z.array(z.string()) }),
  counts: z.object({
    pendingApprovals: z.number().int(),
    unreadNotifications: z.number().int(),
    stagedProposals: z.number().int(),
    unreadInbox: z.number().int(),
  }),
});
export type AppShellDto = z.infer<typeof ZAppShell>;

/** The shell for the workspace the request acts on: the switcher's list, who I am there, the nav's counts. */
export async function loadAppShell(actor: Actor): Promise<AppShellDto> {
  if (!actor.userId) throw new AppError('FORBIDDEN', 'The app is for signed-in members');
  // The inbox counts what the inbox lists by default: from the agency, every client's too.
  const inboxWorkspaces = await reachableWorkspaces(actor, 'agency');
  const [shell, ws, pendingPosts, unreadNotifications, stagedProposals, operator, unreadInbox, pendingReplies] = await Promise.all([
    loadShellData(actor.userId),
    db.workspace.findUniqueOrThrow({ where: { id: actor.workspaceId }, select: { id: true, name: true, timeZone: true } }),
    db.post.count({ where: { workspaceId: actor.workspaceId, approvalStatus: 'pending', status: { in: ['draft', 'scheduled'] } } }),
    unreadCount(actor.workspaceId),
    countStagedProposals(actor.workspaceId),
    isOperator(actor.userId),
    unreadInboxCount(inboxWorkspaces),
    countPendingReplies([actor.workspaceId]),
  ]);
  if (!shell) throw new AppError('FORBIDDEN', 'The app is for signed-in members');
  return {
    user: { ...shell.user, operator },
    workspaces: shell.workspaces.map((w) => ({ id: w.id, name: w.name, role: w.role, clients: w.clients })),
    current: { ...ws, role: actor.role ?? 'reviewer', scopes: [...actor.scopes] },
    counts: { pendingApprovals: pendingPosts + pendingReplies, unreadNotifications, stagedProposals, unreadInbox },
  };
}
