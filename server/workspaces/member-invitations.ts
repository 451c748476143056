// Inviting people to an agency's team by email. An owner names an address and a role; Herald
// sends a link that works once, for INVITATION_DAYS, without signing in. The person opens it
// and either sets a password (no Herald account with that email yet: the account is created,
// its email counts as verified since the link reached it) or signs in with that email and
// accepts. Access to the agency's clients follows the role in the agency (server/auth/roles.ts).
// Invitations, their withdrawal and their acceptance are security events.
import { z } from 'zod';
import { hashPassword } from '@/server/auth/password';
import { checkNewPassword, MAX_PASSWORD_LENGTH } from '@/server/auth/password-rules';
import { ZRole, type Role } from '@/server/auth/roles';
import { hashLinkToken, isWellFormedLinkToken, newLinkToken } from '@/server/client-links/link-tokens';
import { env } from '@/server/config/env';
import { db, type Tx } from '@/server/db/client';
import { sendEmail } from '@/server/email/mailer';
import { AppError } from '@/server/errors/app-error';
import { log } from '@/server/observability/log';
import { recordSecurityEvent } from '@/server/security-events/security-events';
import { ZText, ZTimestamp } from '@/server/shared/schemas';
import { ownedAgency } from './members';

/** How long an invitation link works. */
export const INVITATION_DAYS = 7;

export const ZInviteInput = z.strictObject({ email: z.email().max(254), role: ZRole });
export const ZInvitationIdInput = z.strictObject({ invitationId: z.uuid() });
export const ZAcceptWithPasswordInput = z.strictObject({
  name: ZText.trim().min(1).max(80),
  password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
});

export const ZInvitation = z.object({
  id: z.uuid(),
  email: z.string(),
  role: ZRole,
  invitedBy: z.string().nullable(),
  expiresAt: ZTimestamp,
  createdAt: ZTimestamp,
  expired: z.boolean(),
});
export type InvitationDto = z.infer<typeof ZInvitation>;

/** What the invitation page shows: enough to decide, nothing more (no ids). */
export type InvitationView =
  | { state: 'invalid' | 'used' | 'revoked' }
  | { state: 'expired'; agencyName: string }
  | { state: 'live'; agencyName: string; email: string; role: Role; hasAccount: boolean; expiresAt: string };

const invitationLink = (token: string) => `${env.baseUrl()}/invite/${token}`;

const ROLE_WORDS: Record<Role, string> = {
  owner: 'an owner (everything, including members and billing of the agency)',
  admin: 'an admin (everything but the members)',
  member: 'a member (compose, schedule and publish)',
  reviewer: 'a reviewer (read and approve posts)',
};

/**
 * Invites an address to the owner's agency with a role, replacing any invitation still
 * pending for it, and emails the link (returned too, once, for the owner to pass on by hand).
 */
export async function inviteMember(userId: string, input: z.output<typeof ZInviteInput>): Promise<{ invitation: InvitationDto; link: string }> {
  const workspaceId = await ownedAgency(userId);
  const email = input.email.toLowerCase();
  const existing = await db.user.findUnique({ where: { email }, select: { memberships: { where: { workspaceId }, select: { id: true } } } });
  if (existing && existing.memberships.length > 0) throw new AppError('VALIDATION_FAILED', 'They are a member already', { field: 'email' });
  const token = newLinkToken();
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 86_400_000);
  const [row, agency, inviter] = await db.$transaction(async (tx) => {
    // One live invitation per address: a new one replaces the old (its link stops working).
    await tx.memberInvitation.updateMany({ where: { workspaceId, email, acceptedAt: null, revokedAt: null }, data: { revokedAt: new Date() } });
    const created = await tx.memberInvitation.create({
      data: { workspaceId, email, role: input.role, tokenHash: hashLinkToken(token), invitedById: userId, expiresAt },
    });
    await recordSecurityEvent({ kind: 'member.invited', workspaceId, actorUserId: userId, email, detail: { role: input.role, invitationId: created.id } }, tx);
    const ws = await tx.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { name: true } });
    const by = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { name: true, email: true } });
    return [created, ws, by] as const;
  });
  const link = invitationLink(token);
  const from = inviter.name ? `${inviter.name} (${inviter.email})` : inviter.email;
  await sendEmail({
    to: email,
    subject: `${from} invited you to ${agency.name} on Herald`,
    text:
      `${from} invited you to join ${agency.name} on Herald as ${ROLE_WORDS[input.role]}.\n\n` +
      `Open this link within ${INVITATION_DAYS} days to accept; it works once:\n\n${link}\n\n` +
      `If you were not expecting this, ignore this message: nothing happens unless the link is opened and accepted.\n`,
  }).catch((error: unknown) => log.warn('team', `the invitation email to ${email} could not be sent; the owner can copy the link`, error));
  return { invitation: toDto(row, inviter.email), link };
}

function toDto(row: { id: string; email: string; role: string; expiresAt: Date; createdAt: Date }, invitedBy: string | null, now = new Date()): InvitationDto {
  return {
    id: row.id,
    email: row.email,
    role: ZRole.catch('reviewer').parse(row.role),
    invitedBy,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    expired: row.expiresAt <= now,
  };
}

/** The agency's invitations not yet accepted nor withdrawn (expired ones included, marked), newest first. */
export async function listInvitations(userId: string): Promise<InvitationDto[]> {
  const workspaceId = await ownedAgency(userId);
  const rows = await db.memberInvitation.findMany({ where: { workspaceId, acceptedAt: null, revokedAt: null }, orderBy: { createdAt: 'desc' } });
  const inviters = await db.user.findMany({
    where: { id: { in: rows.flatMap((r) => (r.invitedById ? [r.invitedById] : [])) } },
    select: { id: true, email: true },
  });
  const email = new Map(inviters.map((u) => [u.id, u.email]));
  return rows.map((r) => toDto(r, r.invitedById ? (email.get(r.invitedById) ?? null) : null));
}

/** Withdraws a pending invitation: its link answers as withdrawn from now on. */
export async function revokeInvitation(userId: string, input: z.output<typeof ZInvitationIdInput>): Promise<void> {
  const workspaceId = await ownedAgency(userId);
  await db.$transaction(async (tx) => {
    const done = await tx.memberInvitation.updateMany({
      where: { id: input.invitationId, workspaceId, acceptedAt: null, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (done.count !== 1) throw new AppError('VALIDATION_FAILED', 'No pending invitation with that id in your agency', { field: 'invitationId' });
    await recordSecurityEvent({ kind: 'member.invitation_revoked', workspaceId, actorUserId: userId, detail: { invitationId: input.invitationId } }, tx);
  });
}

async function findByToken(token: string) {
  if (!isWellFormedLinkToken(token)) return null;
  return db.memberInvitation.findUnique({ where: { tokenHash: hashLinkToken(token) }, include: { workspace: { select: { name: true, deletedAt: true } } } });
}

/** What the invitation link's page shows. */
type InvitationRow = NonNullable<Awaited<ReturnType<typeof findByToken>>>;

/** Where an invitation stands: one rule for the page and for accepting. */
function stateOf(row: InvitationRow | null, now = new Date()): InvitationView['state'] {
  if (!row || row.workspace.deletedAt) return 'invalid';
  if (row.acceptedAt) return 'used';
  if (row.revokedAt) return 'revoked';
  return row.expiresAt <= now ? 'expired' : 'live';
}

/** What the invitation link's page shows. */
export async function viewInvitation(token: string): Promise<InvitationView> {
  const row = await findByToken(token);
  const state = stateOf(row);
  if (state === 'expired') return { state, agencyName: row!.workspace.name };
  if (state !== 'live') return { state };
  const live = row!;
  const hasAccount = (await db.user.count({ where: { email: live.email } })) > 0;
  return {
    state: 'live',
    agencyName: live.workspace.name,
    email: live.email,
    role: ZRole.catch('reviewer').parse(live.role),
    hasAccount,
    expiresAt: live.expiresAt.toISOString(),
  };
}

const NOT_LIVE: Record<Exclude<InvitationView['state'], 'live'>, string> = {
  invalid: 'This invitation link is not valid',
  used: 'This invitation was accepted already',
  revoked: 'This invitation was withdrawn: ask the agency for a new one',
  expired: 'This invitation has expired: ask the agency for a new one',
};

/** The invitation a token names, refused unless it can still be accepted. */
async function liveInvitation(token: string): Promise<InvitationRow> {
  const row = await findByToken(token);
  const state = stateOf(row);
  if (state !== 'live') throw new AppError('FORBIDDEN', NOT_LIVE[state]);
  return row!;
}

/**
 * Spends the invitation inside `tx` (exactly once, even with two tabs accepting at the same
 * moment: the update's own condition decides) and adds the membership.
 */
async function spend(tx: Tx, row: InvitationRow, userId: string): Promise<void> {
  const spent = await tx.memberInvitation.updateMany({
    where: { id: row.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    data: { acceptedAt: new Date() },
  });
  if (spent.count !== 1) throw new AppError('FORBIDDEN', NOT_LIVE.used);
  const already = await tx.membership.findUnique({ where: { userId_workspaceId: { userId, workspaceId: row.workspaceId } } });
  if (!already) await tx.membership.create({ data: { userId, workspaceId: row.workspaceId, role: row.role } });
  await recordSecurityEvent(
    { kind: 'member.added', workspaceId: row.workspaceId, userId, actorUserId: userId, detail: { role: row.role, invitationId: row.id } },
    tx,
  );
}

/** Accepts for someone without a Herald account: creates it with the password chosen. */
export async function acceptInvitationWithPassword(token: string, raw: z.input<typeof ZAcceptWithPasswordInput>): Promise<{ email: string }> {
  const input = ZAcceptWithPasswordInput.parse(raw);
  const row = await liveInvitation(token);
  checkNewPassword(input.password, row.email);
  const passwordHash = await hashPassword(input.password);
  await db.$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email: row.email }, select: { id: true } })) {
      throw new AppError('VALIDATION_FAILED', `An account with ${row.email} exists already: sign in to accept`, { field: 'email' });
    }
    // The link reached this address, so the address is verified.
    const user = await tx.user.create({ data: { email: row.email, name: input.name, passwordHash, emailVerified: new Date() } });
    await spend(tx, row, user.id);
  });
  return { email: row.email };
}

/** Accepts for the signed-in member, whose email must be the invited one. */
export async function acceptInvitationAsMember(token: string, userId: string): Promise<{ workspaceId: string }> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
  const row = await liveInvitation(token);
  if (row.email !== user.email) {
    throw new AppError('FORBIDDEN', `This invitation is for ${row.email}: sign out and sign in with that address to accept`);
  }
  await db.$transaction((tx) => spend(tx, row, userId));
  return { workspaceId: row.workspaceId };
}
