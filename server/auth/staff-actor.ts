// A signed-in staff member acting in the app. Staff hold every scope in the workspaces
// they belong to and in the client workspaces those manage; the app picks the workspace
// with the same selection header the API uses.
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import type { Actor } from './actor';
import { SCOPES } from './scopes';

export async function resolveStaffActor(userId: string, requestedWorkspaceId: string | null): Promise<Actor> {
  const memberships = await db.membership.findMany({
    where: { userId },
    orderBy: { createdAt: 'asc' },
    select: { workspaceId: true, role: true },
  });
  if (memberships.length === 0) throw new AppError('FORBIDDEN', 'You are not a member of any workspace');
  const home = (memberships.find((m) => m.role === 'owner') ?? memberships[0]!).workspaceId;
  let workspaceId = home;
  if (requestedWorkspaceId) {
    const ids = memberships.map((m) => m.workspaceId);
    const allowed = await db.workspace.findFirst({
      where: { id: requestedWorkspaceId, OR: [{ id: { in: ids } }, { managedById: { in: ids } }] },
      select: { id: true },
    });
    if (!allowed) throw new AppError('WORKSPACE_NOT_MANAGED', 'You cannot act for that workspace');
    workspaceId = allowed.id;
  }
  return { kind: 'staff', workspaceId, homeWorkspaceId: home, scopes: SCOPES, userId };
}
