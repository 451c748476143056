// Two-factor sign-in: a TOTP authenticator (server/auth/totp.ts) with one-time recovery codes,
// and an agency's requirement that every member use it. The rules live here; the sign-in
// (sign-in.ts), the staff app and the assistant consent ask these functions.
//   - Enrolment: a secret is made and shown (QR code and text); it is in force only once a
//     code from the app is typed back. Then ten recovery codes are shown, once.
//   - A TOTP code is good once: the step accepted is remembered and an older or equal one refused.
//   - A recovery code is stored as its sha256 and spent by the statement that checks it.
//   - Turning it on or off, or new recovery codes, end the member's other sessions.
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { env } from '@/server/config/env';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { homeWorkspaceOf, recordSecurityEvent } from '@/server/security-events/security-events';
import { open, seal, sealingKeyFor } from '@/server/shared/sealed-box';
import { endSessionsOf } from './staff-session';
import { generateTotpSecret, matchTotp, otpauthUri } from './totp';

export const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'Herald';

function sealingKey(): Buffer {
  const raw = env.webhookSecretKey();
  if (!raw) throw new Error('WEBHOOK_SECRET_KEY is not set: `npm start` generates one into DATA_DIR; set it wherever Herald runs without `npm start`');
  return sealingKeyFor('herald/totp-secrets', raw);
}

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');
/** How a member may type a recovery code: any case, with or without the dash and spaces. */
const normaliseRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** Whether an agency the member belongs to asks every member for a second factor. */
async function requiredFor(userId: string): Promise<boolean> {
  const count = await db.membership.count({
    where: { userId, workspace: { deletedAt: null, OR: [{ requireTwoFactor: true }, { managedBy: { requireTwoFactor: true } }] } },
  });
  return count > 0;
}

export const ZTwoFactorState = z.object({ enabled: z.boolean(), required: z.boolean(), recoveryCodesLeft: z.number().int() });
export type TwoFactorState = z.infer<typeof ZTwoFactorState>;

export async function twoFactorState(userId: string): Promise<TwoFactorState> {
  const [user, required, left] = await Promise.all([
    db.user.findUnique({ where: { id: userId }, select: { twoFactorEnabledAt: true } }),
    requiredFor(userId),
    db.recoveryCode.count({ where: { userId, usedAt: null } }),
  ]);
  return { enabled: Boolean(user?.twoFactorEnabledAt), required, recoveryCodesLeft: left };
}

/**
 * The member must set up a second factor before doing anything else: their agency requires
 * one and they have none. One query: every staff request asks it (staff-actor.ts).
 */
export async function mustEnrolTwoFactor(userId: string): Promise<boolean> {
  const due = await db.user.findFirst({
    where: {
      id: userId,
      twoFactorEnabledAt: null,
      memberships: { some: { workspace: { deletedAt: null, OR: [{ requireTwoFactor: true }, { managedBy: { requireTwoFactor: true } }] } } },
    },
    select: { id: true },
  });
  return due !== null;
}

/** Whether the member signs in with a second factor. */
export async function hasTwoFactor(userId: string): Promise<boolean> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { twoFactorEnabledAt: true } });
  return Boolean(user?.twoFactorEnabledAt);
}

/** Starts (or starts again) an enrolment: a new secret, not yet in force. */
export async function startEnrolment(userId: string): Promise<{ secret: string; uri: string }> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, twoFactorEnabledAt: true } });
  if (user.twoFactorEnabledAt) throw new AppError('VALIDATION_FAILED', 'Two-factor sign-in is already on: turn it off first to move to another app');
  const secret = generateTotpSecret();
  await db.user.update({ where: { id: userId }, data: { totpSecretSealed: seal(sealingKey(), secret), totpLastStep: null } });
  return { secret, uri: otpauthUri({ secret, account: user.email, issuer: ISSUER }) };
}

/** The enrolment under way (started, not yet confirmed): its secret, to show again. */
export async function pendingEnrolment(userId: string): Promise<{ secret: string; uri: string } | null> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true, twoFactorEnabledAt: true, totpSecretSealed: true } });
  if (!user || user.twoFactorEnabledAt || !user.totpSecretSealed) return null;
  const secret = open(sealingKey(), user.totpSecretSealed);
  return secret ? { secret, uri: otpauthUri({ secret, account: user.email, issuer: ISSUER }) } : null;
}

async function storeRecoveryCodes(userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.$transaction([
    db.recoveryCode.deleteMany({ where: { userId } }),
    db.recoveryCode.createMany({ data: codes.map((c) => ({ userId, codeHash: hashCode(normaliseRecovery(c)) })) }),
  ]);
  return codes;
}

/** Checks a TOTP code against the member's secret, spending its time step. */
async function spendTotp(userId: string, code: string, at: Date): Promise<boolean> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { totpSecretSealed: true, totpLastStep: true } });
  const secret = user?.totpSecretSealed ? open(sealingKey(), user.totpSecretSealed) : null;
  if (!secret) return false;
  const step = matchTotp(secret, code, at);
  if (step === null) return false;
  // The step is taken by one statement: the same code sent twice at once passes once.
  const { count } = await db.user.updateMany({
    where: { id: userId, OR: [{ totpLastStep: null }, { totpLastStep: { lt: BigInt(step) } }] },
    data: { totpLastStep: BigInt(step) },
  });
  return count === 1;
}

/** Confirms an enrolment with a code from the app: two-factor is on, recovery codes are shown once. */
export async function confirmEnrolment(userId: string, code: string, keepToken: string | null, at = new Date()): Promise<{ recoveryCodes: string[] }> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { twoFactorEnabledAt: true, totpSecretSealed: true } });
  if (user.twoFactorEnabledAt) throw new AppError('VALIDATION_FAILED', 'Two-factor sign-in is already on');
  if (!user.totpSecretSealed) throw new AppError('VALIDATION_FAILED', 'Start the set-up first');
  if (!(await spendTotp(userId, code, at)))
    throw new AppError('VALIDATION_FAILED', 'That code does not match: type the six digits your app shows now', { field: 'code' });
  await db.user.update({ where: { id: userId }, data: { twoFactorEnabledAt: at } });
  const recoveryCodes = await storeRecoveryCodes(userId);
  await endSessionsOf(userId, { keepToken });
  await recordSecurityEvent({ kind: 'two_factor.enabled', userId, actorUserId: userId, workspaceId: await homeWorkspaceOf(userId) });
  return { recoveryCodes };
}

/**
 * Checks a second factor at sign-in or before a change: a current TOTP code, or an unused
 * recovery code (spent by this check). The kind that matched, or null.
 */
export async function verifySecondFactor(userId: string, code: string, at = new Date()): Promise<'totp' | 'recovery' | null> {
  if (/^\s*\d{3}\s?\d{3}\s*$/.test(code)) return (await spendTotp(userId, code.replace(/\s/g, ''), at)) ? 'totp' : null;
  const { count } = await db.recoveryCode.updateMany({ where: { userId, codeHash: hashCode(normaliseRecovery(code)), usedAt: null }, data: { usedAt: at } });
  if (count !== 1) return null;
  await recordSecurityEvent({ kind: 'two_factor.recovery_used', userId, workspaceId: await homeWorkspaceOf(userId) });
  return 'recovery';
}

async function requireCurrentFactor(userId: string, code: string): Promise<void> {
  if (!(await verifySecondFactor(userId, code)))
    throw new AppError('VALIDATION_FAILED', 'That code does not match: type the code your app shows now, or a recovery code', { field: 'code' });
}

/** Turns two-factor sign-in off (a current code or a recovery code proves it is the member). */
export async function disableTwoFactor(userId: string, code: string, keepToken: string | null): Promise<void> {
  if (!(await hasTwoFactor(userId))) throw new AppError('VALIDATION_FAILED', 'Two-factor sign-in is not on');
  if (await requiredFor(userId)) throw new AppError('FORBIDDEN', 'Your agency requires two-factor sign-in: it cannot be turned off');
  await requireCurrentFactor(userId, code);
  await db.$transaction([
    db.user.update({ where: { id: userId }, data: { twoFactorEnabledAt: null, totpSecretSealed: null, totpLastStep: null } }),
    db.recoveryCode.deleteMany({ where: { userId } }),
  ]);
  await endSessionsOf(userId, { keepToken });
  await recordSecurityEvent({ kind: 'two_factor.disabled', userId, actorUserId: userId, workspaceId: await homeWorkspaceOf(userId) });
}

/** New recovery codes (the old ones stop working), shown once. */
export async function regenerateRecoveryCodes(userId: string, code: string, keepToken: string | null): Promise<{ recoveryCodes: string[] }> {
  if (!(await hasTwoFactor(userId))) throw new AppError('VALIDATION_FAILED', 'Two-factor sign-in is not on');
  await requireCurrentFactor(userId, code);
  const recoveryCodes = await storeRecoveryCodes(userId);
  await endSessionsOf(userId, { keepToken });
  await recordSecurityEvent({ kind: 'two_factor.recovery_regenerated', userId, actorUserId: userId, workspaceId: await homeWorkspaceOf(userId) });
  return { recoveryCodes };
}

/**
 * An agency owner asks (or stops asking) every member for a second factor. The owner turning
 * it on has one already, so nobody is required something the owner has not done.
 */
export async function setTwoFactorRequirement(userId: string, workspaceId: string, required: boolean): Promise<{ required: boolean }> {
  const membership = await db.membership.findUnique({
    where: { userId_workspaceId: { userId, workspaceId } },
    select: { role: true, workspace: { select: { managedById: true, deletedAt: true } } },
  });
  if (membership?.role !== 'owner' || membership.workspace.managedById !== null || membership.workspace.deletedAt)
    throw new AppError('FORBIDDEN', 'Only an owner of the agency sets this');
  if (required && !(await hasTwoFactor(userId))) throw new AppError('VALIDATION_FAILED', 'Turn on two-factor sign-in for yourself first');
  await db.workspace.update({ where: { id: workspaceId }, data: { requireTwoFactor: required } });
  await recordSecurityEvent({ kind: 'two_factor.requirement_changed', workspaceId, actorUserId: userId, detail: { required } });
  return { required };
}
