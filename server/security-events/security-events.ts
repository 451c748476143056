// Security events: what happened to the accounts and the doors of a workspace (sign-in
// failures and locks, second-factor changes, passwords (changed, reset by email), accounts
// released by a deletion, sessions ended, keys minted and
// revoked, members added and removed, client links issued and revoked), with who did it,
// when and from where. Rows are only ever added (the table's trigger refuses UPDATE and
// DELETE); owners read those of their agency and its clients.
import { z } from 'zod';
import { db, type Tx } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { log } from '@/server/observability/log';
import { currentRequestOrigin } from '@/server/observability/request-origin';
import { ZTimestamp } from '@/server/shared/schemas';

export const SECURITY_EVENT_LABELS = {
  'sign_in.failed': 'Sign-in failed',
  'sign_in.throttled': 'Sign-in refused: too many failures',
  'sign_in.locked': 'Sign-in locked',
  'sign_in.succeeded': 'Signed in',
  'two_factor.failed': 'Wrong two-factor code',
  'two_factor.enabled': 'Two-factor sign-in turned on',
  'two_factor.disabled': 'Two-factor sign-in turned off',
  'two_factor.recovery_used': 'Recovery code used',
  'two_factor.recovery_regenerated': 'New recovery codes',
  'two_factor.requirement_changed': 'Two-factor requirement changed',
  'password.changed': 'Password changed',
  'password.reset_requested': 'Password reset link sent',
  'password.reset': 'Password reset by email link',
  'account.released': 'Email freed for a new sign-up',
  'session.ended': 'Session ended',
  'key.minted': 'API key created',
  'key.revoked': 'API key revoked',
  'member.added': 'Member added',
  'member.removed': 'Member removed',
  'member.role_changed': 'Member role changed',
  'member.invited': 'Member invited',
  'member.invitation_revoked': 'Invitation withdrawn',
  'member.left': 'Member left',
  'settings.changed': 'Settings changed',
  'link.issued': 'Client link issued',
  'link.revoked': 'Client link revoked',
} as const;
export type SecurityEventKind = keyof typeof SECURITY_EVENT_LABELS;

export interface NewSecurityEvent {
  kind: SecurityEventKind;
  workspaceId?: string | null;
  userId?: string | null;
  actorUserId?: string | null;
  actorKeyId?: string | null;
  email?: string | null;
  /** Where from; defaults to the request being handled (server/observability/request-origin.ts). */
  address?: string | null;
  userAgent?: string | null;
  detail?: Record<string, unknown>;
}

/** Who acted, in the shape every service's actor has. */
export function actorFields(actor: { kind: 'staff' | 'apiKey'; userId?: string; keyId?: string } | undefined) {
  return { actorUserId: actor?.userId ?? null, actorKeyId: actor?.keyId ?? null };
}

/** The workspace an account's events are filed under: the agency it works in (its home). */
export async function homeWorkspaceOf(userId: string): Promise<string | null> {
  const memberships = await db.membership.findMany({ where: { userId }, orderBy: { createdAt: 'asc' }, select: { workspaceId: true, role: true } });
  return (memberships.find((m) => m.role === 'owner') ?? memberships[0])?.workspaceId ?? null;
}

/**
 * Records one event, in the caller's transaction when given (so it exists exactly when the
 * change does). Without one, a failure to record is logged, never the caller's failure: a
 * sign-in must not fail because its record could not be written.
 */
export async function recordSecurityEvent(event: NewSecurityEvent, tx?: Tx): Promise<void> {
  const origin = currentRequestOrigin();
  const data = {
    kind: event.kind,
    workspaceId: event.workspaceId ?? null,
    userId: event.userId ?? null,
    actorUserId: event.actorUserId ?? null,
    actorKeyId: event.actorKeyId ?? null,
    email: event.email ?? null,
    address: event.address !== undefined ? event.address : origin.address,
    userAgent: (event.userAgent !== undefined ? event.userAgent : origin.userAgent)?.slice(0, 300) ?? null,
    detail: (event.detail ?? {}) as object,
  };
  if (tx) {
    await tx.securityEvent.create({ data });
    return;
  }
  try {
    await db.securityEvent.create({ data });
  } catch (err) {
    log.error('security-events', `could not record ${event.kind}`, err);
  }
}

export const ZSecurityEvent = z.object({
  id: z.uuid(),
  kind: z.string(),
  label: z.string(),
  workspace: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  member: z.string().nullable(),
  actor: z.string().nullable(),
  email: z.string().nullable(),
  address: z.string().nullable(),
  userAgent: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  createdAt: ZTimestamp,
});
export type SecurityEventDto = z.infer<typeof ZSecurityEvent>;

export const ZListSecurityEventsInput = z
  .strictObject({ before: ZTimestamp.optional(), limit: z.number().int().min(1).max(200).default(50) })
  .optional()
  .default({ limit: 50 });

/** The agencies a member owns, with their clients: the workspaces whose events they read. */
async function ownedScope(userId: string): Promise<Map<string, string>> {
  const owned = await db.membership.findMany({
    where: { userId, role: 'owner', workspace: { deletedAt: null, managedById: null } },
    select: { workspaceId: true },
  });
  const ids = owned.map((m) => m.workspaceId);
  if (ids.length === 0) return new Map();
  const workspaces = await db.workspace.findMany({ where: { OR: [{ id: { in: ids } }, { managedById: { in: ids } }] }, select: { id: true, name: true } });
  return new Map(workspaces.map((w) => [w.id, w.name]));
}

type Named = { userId: string | null; actorUserId: string | null; actorKeyId: string | null };

/**
 * The people and keys a page of events names, read in two statements: a member by their
 * email, a key as `key <name>` (or its id's start, once deleted).
 */
export async function namesIn(rows: Named[]): Promise<{ email(id: string): string | null; actor(r: Named): string | null }> {
  const userIds = [...new Set(rows.flatMap((r) => [r.userId, r.actorUserId]).filter((id): id is string => id !== null))];
  const keyIds = [...new Set(rows.map((r) => r.actorKeyId).filter((id): id is string => id !== null))];
  const [users, keys] = await Promise.all([
    db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true, releasedEmail: true } }),
    db.apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, name: true } }),
  ]);
  // A released account is named by the address it had, not its placeholder.
  const email = new Map(users.map((u) => [u.id, u.releasedEmail ?? u.email]));
  const keyName = new Map(keys.map((k) => [k.id, k.name]));
  return {
    email: (id) => email.get(id) ?? null,
    actor: (r) => (r.actorUserId ? (email.get(r.actorUserId) ?? null) : r.actorKeyId ? `key ${keyName.get(r.actorKeyId) ?? r.actorKeyId.slice(0, 8)}` : null),
  };
}

/** Events of the agencies the member owns and their clients, newest first. Owners only. */
export async function listSecurityEvents(userId: string, input: z.output<typeof ZListSecurityEventsInput>): Promise<SecurityEventDto[]> {
  const scope = await ownedScope(userId);
  if (scope.size === 0) throw new AppError('FORBIDDEN', 'Only an agency owner reads its security events');
  const rows = await db.securityEvent.findMany({
    where: { workspaceId: { in: [...scope.keys()] }, ...(input.before ? { createdAt: { lt: new Date(input.before) } } : {}) },
    orderBy: { createdAt: 'desc' },
    take: input.limit,
  });
  const names = await namesIn(rows);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    label: SECURITY_EVENT_LABELS[r.kind as SecurityEventKind] ?? r.kind,
    workspace: r.workspaceId && scope.has(r.workspaceId) ? { id: r.workspaceId, name: scope.get(r.workspaceId)! } : null,
    member: r.userId ? names.email(r.userId) : null,
    actor: names.actor(r),
    email: r.email,
    address: r.address,
    userAgent: r.userAgent,
    detail: (r.detail ?? {}) as Record<string, unknown>,
    createdAt: r.createdAt.toISOString(),
  }));
}
