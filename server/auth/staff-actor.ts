// A signed-in staff member acting in the app. Staff act in the workspaces they belong to
// and in the client workspaces those manage, with the scopes of their role there
// (server/auth/roles.ts); the app picks the workspace with the same selection header the
// API uses.
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import type { Actor } from './actor';
import { scopesOfRole, strongerRole, toRole, type Role } from './roles';

/** A member's own (home) workspace: the first they own, else the first they joined (memberships oldest first). */
export function homeMembershipOf<T extends { role: string }>(memberships: readonly T[]): T | undefined {
  return memberships.find((m) => m.role === 'owner') ?? memberships[0];
}

export async function resolveStaffActor(userId: string, requestedWorkspaceId: string | null): Promise<Actor> {
  const memberships = await db.membership.findMany({
    where: { userId },
    orderBy: { createdAt: 'asc' },
    select: { workspaceId: true, role: true },
  });
  if (memberships.length === 0) throw new AppError('FORBIDDEN', 'You are not a member of any workspace');
  const homeMembership = homeMembershipOf(memberships)!;
  const home = homeMembership.workspaceId;
  let workspaceId = home;
  let role: Role = toRole(homeMembership.role);
  if (requestedWorkspaceId) {
    const ids = memberships.map((m) => m.workspaceId);
    const allowed = await db.workspace.findFirst({
      where: { id: requestedWorkspaceId, OR: [{ id: { in: ids } }, { managedById: { in: ids } }] },
      select: { id: true, managedById: true },
    });
    if (!allowed) throw new AppError('WORKSPACE_NOT_MANAGED', 'You cannot act for that workspace');
    workspaceId = allowed.id;
    const roles = memberships.filter((m) => m.workspaceId === allowed.id || m.workspaceId === allowed.managedById).map((m) => toRole(m.role));
    role = roles.reduce(strongerRole);
  }
  return { kind: 'staff', workspaceId, homeWorkspaceId: home, scopes: scopesOfRole(role), userId, role };
}
