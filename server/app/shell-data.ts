// What the signed-in shell shows: the staff member, their workspaces and client workspaces.
import { db } from '@/server/db/client';

export interface ShellData {
  user: { id: string; email: string; name: string | null };
  workspaces: { id: string; name: string; slug: string; role: string; clients: { id: string; name: string }[] }[];
}

export async function loadShellData(userId: string): Promise<ShellData | null> {
  const user = await db.user.findUnique({
    where: { id: userId },
    include: {
      memberships: {
        orderBy: { createdAt: 'asc' },
        include: { workspace: { include: { managed: { select: { id: true, name: true }, orderBy: { name: 'asc' } } } } },
      },
    },
  });
  if (!user) return null;
  return {
    user: { id: user.id, email: user.email, name: user.name },
    workspaces: user.memberships
      .filter((m) => m.workspace.managedById === null || !user.memberships.some((o) => o.workspaceId === m.workspace.managedById))
      .map((m) => ({ id: m.workspace.id, name: m.workspace.name, slug: m.workspace.slug, role: m.role, clients: m.workspace.managed })),
  };
}
