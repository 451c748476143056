// The members of an agency, managed by its owners: list, change a role, remove (people join
// through an invitation: member-invitations.ts); a member may leave. A removal or a role change ends the member's sessions at once (their
// next request, on any instance, signs them in again with what they now may do); each change
// is a security event. An agency always keeps an owner.
import { z } from 'zod';
import { ZRole, type Role } from '@/server/auth/roles';
import { endSessionsOf } from '@/server/auth/staff-session';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { recordSecurityEvent } from '@/server/security-events/security-events';
import { ZTimestamp } from '@/server/shared/schemas';

export const ZMember = z.object({
  membershipId: z.uuid(),
  userId: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  role: ZRole,
  twoFactor: z.boolean(),
  lastSeenAt: ZTimestamp.nullable(),
  you: z.boolean(),
});
export type MemberDto = z.infer<typeof ZMember>;

export const ZChangeRoleInput = z.strictObject({ membershipId: z.uuid(), role: ZRole });
export const ZRemoveMemberInput = z.strictObject({ membershipId: z.uuid() });

/** The agency the member owns (the first, as everywhere in the app), or FORBIDDEN. */
export async function ownedAgency(userId: string): Promise<string> {
  const m = await db.membership.findFirst({
    where: { userId, role: 'owner', workspace: { managedById: null, deletedAt: null } },
    orderBy: { createdAt: 'asc' },
    select: { workspaceId: true },
  });
  if (!m) throw new AppError('FORBIDDEN', 'Only an owner of the agency manages its members');
  return m.workspaceId;
}

export async function listMembers(userId: string): Promise<MemberDto[]> {
  const workspaceId = await ownedAgency(userId);
  const rows = await db.membership.findMany({
    where: { workspaceId },
    orderBy: { createdAt: 'asc' },
    include: {
      user: {
        select: { email: true, name: true, twoFactorEnabledAt: true, sessions: { orderBy: { lastSeenAt: 'desc' }, take: 1, select: { lastSeenAt: true } } },
      },
    },
  });
  return rows.map((m) => ({
    membershipId: m.id,
    userId: m.userId,
    email: m.user.email,
    name: m.user.name,
    role: ZRole.catch('reviewer').parse(m.role),
    twoFactor: m.user.twoFactorEnabledAt !== null,
    lastSeenAt: m.user.sessions[0]?.lastSeenAt.toISOString() ?? null,
    you: m.userId === userId,
  }));
}

async function targetOf(userId: string, membershipId: string) {
  const workspaceId = await ownedAgency(userId);
  const target = await db.membership.findFirst({ where: { id: membershipId, workspaceId } });
  if (!target) throw new AppError('VALIDATION_FAILED', 'No such member of your agency', { field: 'membershipId' });
  return target;
}

async function keepsAnOwner(workspaceId: string, leaving: string): Promise<void> {
  const owners = await db.membership.count({ where: { workspaceId, role: 'owner', id: { not: leaving } } });
  if (owners === 0) throw new AppError('VALIDATION_FAILED', 'The agency must keep an owner: make someone else owner first', { field: 'membershipId' });
}

/** Changes a member's role; their sessions end, so what they may do changes at once. */
export async function changeMemberRole(userId: string, input: z.output<typeof ZChangeRoleInput>): Promise<void> {
  const target = await targetOf(userId, input.membershipId);
  if (target.role === input.role) return;
  if (target.role === 'owner') await keepsAnOwner(target.workspaceId, target.id);
  await db.$transaction(async (tx) => {
    await tx.membership.update({ where: { id: target.id }, data: { role: input.role satisfies Role } });
    await endSessionsOf(target.userId, { tx });
    await recordSecurityEvent(
      {
        kind: 'member.role_changed',
        workspaceId: target.workspaceId,
        userId: target.userId,
        actorUserId: userId,
        detail: { from: target.role, to: input.role },
      },
      tx,
    );
  });
}

export const ZLeaveInput = z.strictObject({ workspaceId: z.uuid() });

/**
 * A member leaves an agency they belong to (any role). The last owner cannot: the agency
 * would be left with nobody to manage it (they make someone else owner first, or delete the
 * agency). Their sessions end, so the app forgets the agency at once.
 */
export async function leaveAgency(userId: string, input: z.output<typeof ZLeaveInput>): Promise<void> {
  const mine = await db.membership.findFirst({ where: { userId, workspaceId: input.workspaceId, workspace: { managedById: null } } });
  if (!mine) throw new AppError('VALIDATION_FAILED', 'You are not a member of that agency', { field: 'workspaceId' });
  if (mine.role === 'owner') await keepsAnOwner(mine.workspaceId, mine.id);
  await db.$transaction(async (tx) => {
    await tx.membership.delete({ where: { id: mine.id } });
    await endSessionsOf(userId, { tx });
    await recordSecurityEvent({ kind: 'member.left', workspaceId: mine.workspaceId, userId, actorUserId: userId, detail: { role: mine.role } }, tx);
  });
}

/** Removes a member from the agency and ends their sessions. */
export async function removeMember(userId: string, input: z.output<typeof ZRemoveMemberInput>): Promise<void> {
  const target = await targetOf(userId, input.membershipId);
  if (target.role === 'owner') await keepsAnOwner(target.workspaceId, target.id);
  await db.$transaction(async (tx) => {
    await tx.membership.delete({ where: { id: target.id } });
    await endSessionsOf(target.userId, { tx });
    await recordSecurityEvent(
      { kind: 'member.removed', workspaceId: target.workspaceId, userId: target.userId, actorUserId: userId, detail: { role: target.role } },
      tx,
    );
  });
}
