// Who operates this Herald: the members who may see how the deployment itself is set up (the
// Networks page: which networks take real accounts, which variables are set). The owners of
// the first agency — on a self-hosted Herald, whoever installed it — and anyone whose email is
// in HERALD_OPERATORS (a hosted Herald whose operator runs no agency of their own).
import { env } from '@/server/config/env';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';

export async function isOperator(userId: string): Promise<boolean> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
  if (!user) return false;
  if (env.operatorEmails().includes(user.email.toLowerCase())) return true;
  // The first agency still here (a deleted one hands the role on to the next).
  const first = await db.workspace.findFirst({
    where: { managedById: null, deletedAt: null, memberships: { some: { role: 'owner' } } },
    orderBy: { createdAt: 'asc' },
    select: { id: true },
  });
  if (!first) return false;
  return (await db.membership.count({ where: { userId, workspaceId: first.id, role: 'owner' } })) > 0;
}

/** Refuses anyone but an operator (signed in; never an API key). */
export async function requireOperator(actor: { kind: string; userId?: string }): Promise<void> {
  if (actor.kind !== 'staff' || !actor.userId || !(await isOperator(actor.userId))) {
    throw new AppError('FORBIDDEN', 'Only the operator of this Herald sees how its networks are set up');
  }
}
