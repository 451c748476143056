// A signed-in staff member acting in the app. Staff act in the workspaces they belong to
// and in the client workspaces those manage, with the scopes of their role there
// (server/auth/roles.ts); the app picks the workspace with the same selection header the
// API uses.
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import type { Actor } from './actor';
import { scopesOfRole, strongerRole, toRole, type Role } from './roles';
import type { Scope } from './scopes';
import { mustEnrolTwoFactor } from './two-factor';

export const TWO_FACTOR_DUE = 'Your agency requires two-factor sign-in: set it up under Security before anything else';

/**
 * Until a member who signed up themselves has verified their email, they try everything
 * inside Herald (accounts, posts, media, analytics) but nothing that lets others in or sends
 * data out: no API keys, client workspaces or links (workspaces:manage), no webhooks.
 */
export const UNVERIFIED_WITHOUT: readonly Scope[] = ['workspaces:manage', 'webhooks:manage'];

/** A member's own (home) workspace: the first they own, else the first they joined (memberships oldest first). */
export function homeMembershipOf<T extends { role: string }>(memberships: readonly T[]): T | undefined {
  return memberships.find((m) => m.role === 'owner') ?? memberships[0];
}

export async function resolveStaffActor(userId: string, requestedWorkspaceId: string | null): Promise<Actor> {
  // An agency that requires a second factor lets a member without one do nothing but set it up.
  if (await mustEnrolTwoFactor(userId)) throw new AppError('FORBIDDEN', TWO_FACTOR_DUE);
  const user = await db.user.findUnique({
    where: { id: userId },
    select: {
      signedUpAt: true,
      emailVerified: true,
      // A deleted agency (and its clients) is reached by nobody.
      memberships: { where: { workspace: { deletedAt: null } }, orderBy: { createdAt: 'asc' }, select: { workspaceId: true, role: true } },
    },
  });
  const memberships = user?.memberships ?? [];
  if (memberships.length === 0) throw new AppError('FORBIDDEN', 'You are not a member of any workspace');
  const unverified = user!.signedUpAt !== null && user!.emailVerified === null;
  const homeMembership = homeMembershipOf(memberships)!;
  const home = homeMembership.workspaceId;
  let workspaceId = home;
  let role: Role = toRole(homeMembership.role);
  if (requestedWorkspaceId) {
    const ids = memberships.map((m) => m.workspaceId);
    const allowed = await db.workspace.findFirst({
      where: { id: requestedWorkspaceId, deletedAt: null, OR: [{ id: { in: ids } }, { managedById: { in: ids } }] },
      select: { id: true, managedById: true },
    });
    if (!allowed) throw new AppError('WORKSPACE_NOT_MANAGED', 'You cannot act for that workspace');
    workspaceId = allowed.id;
    const roles = memberships.filter((m) => m.workspaceId === allowed.id || m.workspaceId === allowed.managedById).map((m) => toRole(m.role));
    role = roles.reduce(strongerRole);
  }
  const scopes = scopesOfRole(role).filter((scope) => !unverified || !UNVERIFIED_WITHOUT.includes(scope));
  return { kind: 'staff', workspaceId, homeWorkspaceId: home, scopes, userId, role, ...(unverified ? { unverified: true } : {}) };
}
