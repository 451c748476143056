// A member's own account: what the Security screen shows, and changing the password. A new
// password follows the same rules as at sign-up (password-rules.ts); the current one is
// checked under the sign-in throttle (a stolen session cannot guess it at leisure); the
// change ends every other session and is told to the member by email.
import { z } from 'zod';
import { db } from '@/server/db/client';
import { sendEmail } from '@/server/email/mailer';
import { AppError } from '@/server/errors/app-error';
import { log } from '@/server/observability/log';
import { currentRequestOrigin } from '@/server/observability/request-origin';
import { homeWorkspaceOf, recordSecurityEvent } from '@/server/security-events/security-events';
import { ZText, ZTimestamp } from '@/server/shared/schemas';
import { hashPassword, verifyPassword } from './password';
import { checkNewPassword, MAX_PASSWORD_LENGTH } from './password-rules';
import { signInSucceeded, takeSignInAttempt } from './sign-in-throttle';
import { retryInWords } from './sign-in';
import { endSessionsOf } from './staff-session';
import { twoFactorState, ZTwoFactorState } from './two-factor';

export const ZAccountSecurity = z.object({
  email: z.string(),
  passwordChangedAt: ZTimestamp.nullable(),
  twoFactor: ZTwoFactorState,
  /** The agency the member owns (its requirement they may change), or null. */
  ownedAgency: z.object({ id: z.uuid(), name: z.string(), requireTwoFactor: z.boolean() }).nullable(),
});
export type AccountSecurity = z.infer<typeof ZAccountSecurity>;

export async function accountSecurity(userId: string): Promise<AccountSecurity> {
  const [user, twoFactor, owned] = await Promise.all([
    db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, passwordChangedAt: true } }),
    twoFactorState(userId),
    db.membership.findFirst({
      where: { userId, role: 'owner', workspace: { managedById: null, deletedAt: null } },
      orderBy: { createdAt: 'asc' },
      select: { workspace: { select: { id: true, name: true, requireTwoFactor: true } } },
    }),
  ]);
  return { email: user.email, passwordChangedAt: user.passwordChangedAt?.toISOString() ?? null, twoFactor, ownedAgency: owned?.workspace ?? null };
}

export const ZChangePasswordInput = z.strictObject({ current: ZText.min(1).max(MAX_PASSWORD_LENGTH), next: ZText.max(MAX_PASSWORD_LENGTH + 1) });

export async function changePassword(
  userId: string,
  input: z.output<typeof ZChangePasswordInput>,
  keepToken: string | null,
): Promise<{ endedSessions: number }> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, passwordHash: true } });
  const origin = currentRequestOrigin();
  const gate = await takeSignInAttempt(user.email, origin.address ?? 'unknown');
  if (!gate.ok) throw new AppError('FORBIDDEN', `Too many wrong passwords: try again ${retryInWords(gate.retryAt)}`);
  if (!user.passwordHash || !(await verifyPassword(input.current, user.passwordHash))) {
    await recordSecurityEvent({
      kind: 'sign_in.failed',
      userId,
      email: user.email,
      workspaceId: await homeWorkspaceOf(userId),
      detail: { passwordChange: true },
    });
    throw new AppError('VALIDATION_FAILED', 'That is not your current password', { field: 'current' });
  }
  await signInSucceeded(user.email, origin.address ?? 'unknown');
  checkNewPassword(input.next, user.email);
  if (input.next === input.current) throw new AppError('VALIDATION_FAILED', 'Choose a password you have not been using', { field: 'next' });
  await db.user.update({ where: { id: userId }, data: { passwordHash: await hashPassword(input.next), passwordChangedAt: new Date() } });
  const endedSessions = await endSessionsOf(userId, { keepToken });
  await recordSecurityEvent({ kind: 'password.changed', userId, actorUserId: userId, workspaceId: await homeWorkspaceOf(userId), detail: { endedSessions } });
  await sendEmail({
    to: user.email,
    subject: 'Herald: your password was changed',
    text:
      `The password of your Herald account was changed${origin.address ? ` from the address ${origin.address}` : ''}, and your other sessions were ended.\n\n` +
      'If it was not you, reset it at once with your agency owner and turn on two-factor sign-in (Security, in the app).\n',
  }).catch((err: unknown) => log.warn('account', 'the password-change email could not be sent', err));
  return { endedSessions };
}
