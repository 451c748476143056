// An account that belongs to no live workspace any more does not hold its email. When an
// agency is deleted, each of its members with no other agency (or client workspace) to go to
// is released at once, in the deletion's transaction: the address moves to `releasedEmail`
// and `email` becomes a placeholder no one can type, so the same person can sign up again,
// or be invited elsewhere, the same minute, as a new account that sees nothing of the old.
// The old rows stay until the purge (leave.ts): support can still undo a deletion within
// its grace period by putting the address back, while no new account took it.
//
// A released account cannot be signed in to (its password is dropped; a restored one is
// given a new password through the reset link), its sessions, sign-in challenges, reset and
// verification links end, and the release is a security event naming the address.
import type { Tx } from '@/server/db/client';
import { recordSecurityEvent } from '@/server/security-events/security-events';

/** Why an account let go of its email. */
export type ReleaseReason = 'agency_deleted' | 'sign_up';

/** The placeholder a released account carries: unique, and in a domain that cannot exist (RFC 2606). */
export const releasedPlaceholder = (userId: string) => `released-${userId}@herald.invalid`;

/** Releases an account's email, in the caller's transaction. */
export async function releaseAccount(
  tx: Tx,
  user: { id: string; email: string },
  opts: { reason: ReleaseReason; workspaceId: string | null; now: Date },
): Promise<void> {
  const { id: userId, email } = user;
  await tx.user.update({
    where: { id: userId },
    data: { email: releasedPlaceholder(userId), releasedEmail: email, releasedAt: opts.now, passwordHash: null },
  });
  await tx.session.deleteMany({ where: { userId } });
  await tx.signInChallenge.deleteMany({ where: { userId } });
  await tx.passwordReset.updateMany({ where: { userId, usedAt: null, replacedAt: null }, data: { replacedAt: opts.now } });
  await tx.verificationToken.deleteMany({ where: { identifier: `verify-email:${userId}` } });
  await recordSecurityEvent({ kind: 'account.released', userId, email, workspaceId: opts.workspaceId, detail: { reason: opts.reason } }, tx);
}

/**
 * The account holding `email`, when a new sign-up may take the address: it belongs to no
 * live workspace (its agency was deleted before releases existed, or its member was removed
 * everywhere). Null when no account has the email; `taken` when one still works somewhere.
 */
export async function accountHoldingEmail(tx: Tx, email: string): Promise<null | { taken: true } | { taken: false; id: string; email: string }> {
  const user = await tx.user.findUnique({
    where: { email },
    select: { id: true, email: true, memberships: { where: { workspace: { deletedAt: null } }, select: { id: true }, take: 1 } },
  });
  if (!user) return null;
  return user.memberships.length > 0 ? { taken: true } : { taken: false, id: user.id, email: user.email };
}
