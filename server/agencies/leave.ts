// Leaving Herald: an agency's owner takes its data with them (an export without any token or
// secret) and deletes the agency. Deletion closes every door at once, in one transaction —
// keys (OAuth grants included) revoked, client links revoked, platform and ad tokens erased,
// webhooks paused, scheduled posts cancelled, tool sessions ended, and the members who have
// nowhere else to go signed out and their email released for a new sign-up
// (released-accounts.ts) — and the rows themselves are purged after a grace period
// (`agencies.purge`), in case the owner wrote to support the next morning.
import type { Actor } from '@/server/auth/actor';
import { actorFields, recordSecurityEvent } from '@/server/security-events/security-events';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { unscheduleDelivery } from '@/server/posts/delivery/schedule';
import { log } from '@/server/observability/log';
import { releaseAccount } from './released-accounts';

/** Days between a deletion and the purge of its rows. */
export const PURGE_AFTER_DAYS = 30;

/** The agency the owner acts for: their own workspace, not a client's, and they own it. */
async function ownAgency(actor: Actor): Promise<{ id: string; name: string }> {
  if (actor.kind !== 'staff' || !actor.userId) throw new AppError('FORBIDDEN', 'An agency is exported or deleted by its owner in the app');
  const agency = await db.workspace.findFirst({ where: { id: actor.workspaceId, managedById: null, deletedAt: null }, select: { id: true, name: true } });
  if (!agency) throw new AppError('FORBIDDEN', 'Switch to the agency itself (not a client) to export or delete it');
  const owner = await db.membership.findFirst({ where: { userId: actor.userId, workspaceId: agency.id, role: 'owner' }, select: { id: true } });
  if (!owner) throw new AppError('FORBIDDEN', 'Only an owner of the agency can export or delete it');
  return agency;
}

/** The agency and its clients. */
async function agencyWorkspaceIds(agencyId: string): Promise<string[]> {
  const clients = await db.workspace.findMany({ where: { managedById: agencyId, deletedAt: null }, select: { id: true } });
  return [agencyId, ...clients.map((c) => c.id)];
}

/**
 * Everything the agency would want to keep, as JSON: its workspaces and members, connected
 * accounts (never their tokens), posts with each account's result, webhook endpoints (never
 * their secrets), API keys (prefix and scopes only).
 */
export async function exportAgency(actor: Actor): Promise<Record<string, unknown>> {
  const agency = await ownAgency(actor);
  const ids = await agencyWorkspaceIds(agency.id);
  const [workspaces, members, connections, posts, webhooks, apiKeys] = await Promise.all([
    db.workspace.findMany({
      where: { id: { in: ids } },
      select: { id: true, name: true, slug: true, managedById: true, timeZone: true, requireApproval: true, createdAt: true },
    }),
    db.membership.findMany({ where: { workspaceId: { in: ids } }, select: { workspaceId: true, role: true, user: { select: { email: true, name: true } } } }),
    db.connection.findMany({
      where: { workspaceId: { in: ids } },
      select: {
        id: true,
        workspaceId: true,
        platform: true,
        provider: true,
        externalId: true,
        accountName: true,
        displayName: true,
        status: true,
        createdAt: true,
      },
    }),
    db.post.findMany({
      where: { workspaceId: { in: ids } },
      orderBy: { createdAt: 'asc' },
      select: {
        id: true,
        workspaceId: true,
        content: true,
        variants: true,
        status: true,
        approvalStatus: true,
        scheduledAt: true,
        publishedAt: true,
        media: true,
        createdAt: true,
        targets: {
          select: {
            connectionId: true,
            platform: true,
            status: true,
            postedId: true,
            permalink: true,
            error: true,
            attempts: true,
            publishedAt: true,
            engagement: true,
          },
        },
      },
    }),
    db.webhookEndpoint.findMany({
      where: { workspaceId: { in: ids } },
      select: { id: true, workspaceId: true, name: true, url: true, events: true, active: true, createdAt: true },
    }),
    db.apiKey.findMany({
      where: { workspaceId: { in: ids } },
      select: { workspaceId: true, name: true, prefix: true, scopes: true, createdAt: true, revokedAt: true, expiresAt: true },
    }),
  ]);
  return {
    format: 'herald-export/1',
    exportedAt: new Date().toISOString(),
    agency: { id: agency.id, name: agency.name },
    workspaces,
    members: members.map((m) => ({ workspaceId: m.workspaceId, role: m.role, email: m.user.email, name: m.user.name })),
    connections,
    posts,
    webhooks,
    apiKeys,
  };
}

/**
 * Deletes the agency and its clients (`confirmName` must be the agency's name, as typed by the
 * owner). Returns when nothing of it can be used any more; the rows go at `purgeAfter`.
 * `accountReleased`: the owner belonged nowhere else, so their email is free for a new
 * sign-up now (otherwise their account stays, for the agencies they still work for).
 */
export async function deleteAgency(actor: Actor, confirmName: string): Promise<{ purgeAfter: string; accountReleased: boolean }> {
  const agency = await ownAgency(actor);
  if (confirmName.trim() !== agency.name) {
    throw new AppError('VALIDATION_FAILED', `Type the agency's name, ${agency.name}, to delete it`, { field: 'confirmName' });
  }
  const now = new Date();
  const purgeAfter = new Date(now.getTime() + PURGE_AFTER_DAYS * 86_400_000);
  const { scheduled, released } = await db.$transaction(async (tx) => {
    const ids = [agency.id, ...(await tx.workspace.findMany({ where: { managedById: agency.id, deletedAt: null }, select: { id: true } })).map((c) => c.id)];
    await tx.workspace.updateMany({ where: { id: { in: ids } }, data: { deletedAt: now, purgeAfter } });
    // Keys and OAuth grants (a grant is a key): refused from the next request, on every instance.
    const keys = await tx.apiKey.findMany({ where: { workspaceId: { in: ids }, revokedAt: null }, select: { id: true, workspaceId: true, prefix: true } });
    const links = await tx.clientLink.findMany({ where: { workspaceId: { in: ids }, revokedAt: null }, select: { id: true, workspaceId: true, kind: true } });
    await tx.apiKey.updateMany({ where: { id: { in: keys.map((k) => k.id) } }, data: { revokedAt: now } });
    await tx.clientLink.updateMany({ where: { id: { in: links.map((l) => l.id) } }, data: { revokedAt: now } });
    // Each door closed is a security event, like one revoked by hand, with why.
    const by = actorFields(actor);
    for (const k of keys)
      await recordSecurityEvent(
        { kind: 'key.revoked', workspaceId: k.workspaceId, ...by, detail: { keyId: k.id, prefix: k.prefix, reason: 'agency_deleted' } },
        tx,
      );
    for (const l of links)
      await recordSecurityEvent(
        { kind: 'link.revoked', workspaceId: l.workspaceId, ...by, detail: { linkId: l.id, kind: l.kind, reason: 'agency_deleted' } },
        tx,
      );
    // Tokens erased now, not at the purge: the agency asked Herald to stop holding them.
    await tx.connection.updateMany({ where: { workspaceId: { in: ids } }, data: { accessToken: null, refreshToken: null, status: 'inactive' } });
    await tx.adAccount.updateMany({ where: { workspaceId: { in: ids } }, data: { accessToken: null } });
    await tx.webhookEndpoint.updateMany({ where: { workspaceId: { in: ids } }, data: { active: false } });
    await tx.mcpSession.updateMany({ where: { workspaceId: { in: ids }, endedAt: null }, data: { endedAt: now } });
    const posts = await tx.post.findMany({ where: { workspaceId: { in: ids }, status: { in: ['scheduled', 'draft'] } }, select: { id: true } });
    await tx.post.updateMany({ where: { id: { in: posts.map((p) => p.id) } }, data: { status: 'cancelled', scheduleVersion: { increment: 1 } } });
    // Members with nowhere else to go are signed out everywhere and their email is released
    // (released-accounts.ts): the owner, or anyone of the team, can sign up again at once. A
    // member who still works for another agency keeps their account, sessions and email.
    const members = await tx.membership.findMany({ where: { workspaceId: { in: ids } }, select: { user: { select: { id: true, email: true } } } });
    let released = false;
    for (const user of new Map(members.map((m) => [m.user.id, m.user])).values()) {
      const elsewhere = await tx.membership.count({ where: { userId: user.id, workspace: { deletedAt: null } } });
      if (elsewhere > 0) continue;
      await releaseAccount(tx, user, { reason: 'agency_deleted', workspaceId: agency.id, now });
      if (user.id === actor.userId) released = true;
    }
    return { scheduled: posts.map((p) => p.id), released };
  });
  // The scheduled jobs of cancelled posts find them changed and do nothing; dropping them is tidiness.
  await Promise.all(scheduled.map((id) => unscheduleDelivery(id)));
  log.info('agencies', `agency ${agency.id} deleted by its owner; rows purged after ${purgeAfter.toISOString()}`);
  return { purgeAfter: purgeAfter.toISOString(), accountReleased: released };
}

/** The purge job: deleted workspaces whose grace period ended, clients before their agency. */
export async function purgeDeletedAgencies(now = new Date()): Promise<number> {
  const due = await db.workspace.findMany({ where: { deletedAt: { not: null }, purgeAfter: { lte: now } }, select: { id: true, managedById: true } });
  const ordered = [...due.filter((w) => w.managedById !== null), ...due.filter((w) => w.managedById === null)];
  for (const w of ordered) {
    // Posts' targets keep their connections (Restrict): both go with the workspace's cascade,
    // targets first.
    await db.$transaction([
      db.postTarget.deleteMany({ where: { post: { workspaceId: w.id } } }),
      db.workspace.updateMany({ where: { managedById: w.id }, data: { managedById: null } }),
      db.workspace.delete({ where: { id: w.id } }),
    ]);
  }
  // Users left without any workspace have no account to come back to; released ones never do.
  await db.user.deleteMany({ where: { memberships: { none: {} }, OR: [{ signedUpAt: { not: null } }, { releasedAt: { not: null } }] } });
  return ordered.length;
}
