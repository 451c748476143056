// A new agency and its owner. On an empty instance (no agency yet) anyone who opens it
// creates the first one — the first run; after that SIGNUP_MODE decides: `open` lets anyone
// sign up, `invite` needs an invitation (`npm run invite`), `single` refuses. The owner's
// email is verified by a link (server/email): until then the account works with the
// limited scopes of server/auth/staff-actor.ts (try everything inside Herald; nothing that
// lets others in or sends data out). An email is free for sign-up unless its account still
// belongs to a live workspace (released-accounts.ts).
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Actor } from '@/server/auth/actor';
import { hashPassword } from '@/server/auth/password';
import { checkNewPassword, MAX_PASSWORD_LENGTH } from '@/server/auth/password-rules';
import { env } from '@/server/config/env';
import { recordSecurityEvent } from '@/server/security-events/security-events';
import { db } from '@/server/db/client';
import { sendEmail } from '@/server/email/mailer';
import { AppError } from '@/server/errors/app-error';
import { Prisma } from '@/server/generated/prisma/client';
import { log } from '@/server/observability/log';
import { ZText } from '@/server/shared/schemas';
import { ZTimeZone } from '@/server/shared/time-zone';
import { slugify, withSuffix } from '@/server/workspaces/slug';
import { accountHoldingEmail, releaseAccount } from './released-accounts';

export const ZSignUpInput = z.strictObject({
  agencyName: ZText.trim().min(2).max(80),
  name: ZText.trim().min(1).max(80),
  email: z.email().max(254),
  password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
  timeZone: ZTimeZone,
  invite: z.string().max(200).optional(),
});
export type SignUpInput = z.infer<typeof ZSignUpInput>;

/** What sign-up answers (on the email field) for an address whose account works somewhere. */
export const EMAIL_TAKEN = 'An account with this email exists already: sign in instead';

/** Whether a sign-up was refused for an email in use (the form then links to sign-in and the reset). */
export const isEmailTaken = (error: unknown): boolean => error instanceof AppError && error.field === 'email' && error.message === EMAIL_TAKEN;

/** How long a verification link works. */
export const VERIFY_LINK_HOURS = 48;
/** How long an invitation works. */
export const INVITE_DAYS = 14;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const token = () => randomBytes(32).toString('base64url');
const verifyIdentifier = (userId: string) => `verify-email:${userId}`;

/** An agency that is still here: a workspace nobody manages and nobody deleted. */
export async function hasAgency(): Promise<boolean> {
  return (await db.workspace.count({ where: { managedById: null, deletedAt: null } })) > 0;
}

/** Whether the agencies this Herald had were all deleted (their rows wait for the purge): no agency now, yet not new. */
export async function onlyDeletedAgencies(): Promise<boolean> {
  return !(await hasAgency()) && (await db.workspace.count({ where: { managedById: null } })) > 0;
}

/** Who may sign up now: the first run (no agency yet) always; afterwards the configured mode. */
export async function signUpState(): Promise<{ firstRun: boolean; mode: 'open' | 'invite' | 'single' }> {
  return { firstRun: !(await hasAgency()), mode: env.signupMode() };
}

/** An invitation to sign up an agency (invite-only instances); returns its link. */
export async function createSignupInvite(email: string | null, days = INVITE_DAYS): Promise<string> {
  const secret = token();
  await db.signupInvite.create({
    data: { tokenHash: sha256(secret), email: email?.toLowerCase() ?? null, expiresAt: new Date(Date.now() + days * 86_400_000) },
  });
  return `${env.baseUrl()}/signup?invite=${secret}`;
}

/** The live invitation a token names, or null. */
async function liveInvite(secret: string | undefined) {
  if (!secret) return null;
  const invite = await db.signupInvite.findUnique({ where: { tokenHash: sha256(secret) } });
  return invite && !invite.usedAt && invite.expiresAt > new Date() ? invite : null;
}

/** Whether the sign-up page should show its form (and to say why not). */
export async function signUpOpen(inviteToken: string | undefined): Promise<{ open: true; firstRun: boolean } | { open: false; reason: 'single' | 'invite' }> {
  const { firstRun, mode } = await signUpState();
  if (firstRun || mode === 'open') return { open: true, firstRun };
  if (mode === 'invite' && (await liveInvite(inviteToken))) return { open: true, firstRun: false };
  return { open: false, reason: mode === 'invite' ? 'invite' : 'single' };
}

/**
 * Creates the agency, its owner and the owner's membership in one transaction, then sends
 * the verification email. Refuses (with the field) what the form must fix.
 */
export async function signUpAgency(raw: SignUpInput): Promise<{ userId: string; workspaceId: string; email: string }> {
  const input = ZSignUpInput.parse(raw);
  const email = input.email.toLowerCase();
  const gate = await signUpOpen(input.invite);
  if (!gate.open) {
    throw new AppError(
      'FORBIDDEN',
      gate.reason === 'invite' ? 'This Herald is invite-only: sign up from the invitation link you were sent' : 'This Herald does not take new agencies',
    );
  }
  checkNewPassword(input.password, email);
  const invite = gate.firstRun ? null : await liveInvite(input.invite);
  if (invite?.email && invite.email !== email) {
    throw new AppError('VALIDATION_FAILED', `This invitation is for ${invite.email}`, { field: 'email' });
  }
  const passwordHash = await hashPassword(input.password);
  const secret = token();
  let slug = slugify(input.agencyName);
  for (let attempt = 0; ; attempt++) {
    try {
      const created = await db.$transaction(async (tx) => {
        // An account still at work somewhere keeps its email; one left with no live workspace
        // (an agency deleted before releases existed, a member removed everywhere) lets it go.
        const holder = await accountHoldingEmail(tx, email);
        if (holder?.taken) throw new AppError('VALIDATION_FAILED', EMAIL_TAKEN, { field: 'email' });
        if (holder) await releaseAccount(tx, holder, { reason: 'sign_up', workspaceId: null, now: new Date() });
        if (invite) {
          // Spent once: a second sign-up with the same link finds it used.
          const spent = await tx.signupInvite.updateMany({ where: { id: invite.id, usedAt: null }, data: { usedAt: new Date() } });
          if (spent.count !== 1) throw new AppError('FORBIDDEN', 'This invitation was used already');
        }
        const workspace = await tx.workspace.create({ data: { name: input.agencyName, slug, timeZone: input.timeZone } });
        const user = await tx.user.create({ data: { email, name: input.name, passwordHash, signedUpAt: new Date() } });
        await tx.membership.create({ data: { userId: user.id, workspaceId: workspace.id, role: 'owner' } });
        await recordSecurityEvent(
          { kind: 'member.added', workspaceId: workspace.id, userId: user.id, actorUserId: user.id, detail: { role: 'owner', signUp: true } },
          tx,
        );
        await tx.verificationToken.create({
          data: { identifier: verifyIdentifier(user.id), token: sha256(secret), expires: new Date(Date.now() + VERIFY_LINK_HOURS * 3_600_000) },
        });
        return { userId: user.id, workspaceId: workspace.id };
      });
      await sendVerification(email, secret).catch((error: unknown) =>
        log.warn('signup', `the verification email to ${email} could not be sent; it can be sent again from the app`, error),
      );
      return { ...created, email };
    } catch (error) {
      const slugTaken = error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002' && String(error.meta?.target ?? '').includes('slug');
      if (!slugTaken || attempt >= 4) throw error;
      slug = withSuffix(slugify(input.agencyName));
    }
  }
}

async function sendVerification(email: string, secret: string): Promise<void> {
  const link = `${env.baseUrl()}/verify-email?token=${secret}`;
  await sendEmail({
    to: email,
    subject: 'Confirm your email for Herald',
    text: `Welcome to Herald.\n\nConfirm that this is your email address by opening this link within ${VERIFY_LINK_HOURS} hours:\n\n${link}\n\nIf you did not sign up, ignore this message.\n`,
  });
}

/** A new link for a signed-up owner who has not verified yet (the old ones stop working). */
export async function resendVerification(actor: Actor): Promise<void> {
  if (actor.kind !== 'staff' || !actor.userId) throw new AppError('FORBIDDEN', 'The verification email is sent again from the app');
  const userId = actor.userId;
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true, emailVerified: true } });
  if (!user || user.emailVerified) return;
  const secret = token();
  await db.$transaction([
    db.verificationToken.deleteMany({ where: { identifier: verifyIdentifier(userId) } }),
    db.verificationToken.create({
      data: { identifier: verifyIdentifier(userId), token: sha256(secret), expires: new Date(Date.now() + VERIFY_LINK_HOURS * 3_600_000) },
    }),
  ]);
  await sendVerification(user.email, secret);
}

/** What opening a verification link did. */
export type VerifyOutcome =
  | { state: 'confirmed'; email: string }
  /** The link was spent before (a second click, a mail client's preview): nothing more to do. */
  | { state: 'already'; email: string }
  /** Unknown, expired, replaced by a newer link, or copied incompletely. */
  | { state: 'invalid' };

const USED_PREFIX = 'verify-email-used:';

/**
 * Spends a verification link. A spent link is kept, marked, until it would have expired, so
 * opening it again says the address is confirmed already instead of sending the owner to
 * ask for a new link they no longer need.
 */
export async function verifyEmail(secret: string, now = new Date()): Promise<VerifyOutcome> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(secret)) return { state: 'invalid' };
  return db.$transaction(async (tx) => {
    await tx.verificationToken.deleteMany({ where: { identifier: { startsWith: USED_PREFIX }, expires: { lt: now } } });
    const row = await tx.verificationToken.findFirst({
      where: { token: sha256(secret), OR: [{ identifier: { startsWith: 'verify-email:' } }, { identifier: { startsWith: USED_PREFIX } }] },
    });
    if (!row) return { state: 'invalid' };
    if (row.identifier.startsWith(USED_PREFIX)) {
      const user = await tx.user.findUnique({ where: { id: row.identifier.slice(USED_PREFIX.length) }, select: { email: true, emailVerified: true } });
      return user?.emailVerified ? { state: 'already', email: user.email } : { state: 'invalid' };
    }
    const userId = row.identifier.slice('verify-email:'.length);
    // Every other link of the account stops working; this one is kept as spent.
    await tx.verificationToken.deleteMany({ where: { identifier: row.identifier, token: { not: row.token } } });
    if (row.expires <= now) {
      await tx.verificationToken.deleteMany({ where: { identifier: row.identifier } });
      return { state: 'invalid' };
    }
    await tx.verificationToken.updateMany({ where: { identifier: row.identifier, token: row.token }, data: { identifier: `${USED_PREFIX}${userId}` } });
    const user = await tx.user.update({ where: { id: userId }, data: { emailVerified: new Date() }, select: { email: true } });
    return { state: 'confirmed', email: user.email };
  });
}
