// The live links of a managed workspace, as its agency sees them, and revoking one. Only the
// managing agency may (anything else is WORKSPACE_NOT_FOUND, like a workspace that never
// existed), and a link id of another workspace is CLIENT_LINK_NOT_FOUND.
import type { Actor } from '@/server/auth/actor';
import { actorFields, recordSecurityEvent } from '@/server/security-events/security-events';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { isUuid } from '@/server/shared/schemas';
import { getManagedWorkspace } from '@/server/workspaces/managed-workspaces';
import type { ClientLinkRecord, ClientLinkKind } from './client-links.schemas';

/** Links still live (not revoked, not expired), newest first. */
export async function listClientLinks(args: { agencyWorkspaceId: string; workspaceId: string }): Promise<ClientLinkRecord[]> {
  await getManagedWorkspace(args.agencyWorkspaceId, args.workspaceId);
  const rows = await db.clientLink.findMany({
    where: { workspaceId: args.workspaceId, revokedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: 'desc' },
  });
  return rows.map((l) => ({
    id: l.id,
    kind: l.kind as ClientLinkKind,
    brand: { name: l.brandName, logoUrl: l.brandLogoUrl },
    expiresAt: l.expiresAt.toISOString(),
    createdAt: l.createdAt.toISOString(),
  }));
}

/** Revokes one link: it answers CONNECT_TOKEN_INVALID from now on. Revoking twice is a no-op. */
export async function revokeClientLink(args: { agencyWorkspaceId: string; workspaceId: string; linkId: string; by?: Actor }): Promise<void> {
  const link = await findClientLink(args);
  const { count } = await db.clientLink.updateMany({ where: { id: link.id, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count) await recordSecurityEvent({ kind: 'link.revoked', workspaceId: args.workspaceId, ...actorFields(args.by), detail: { linkId: link.id } });
}

/** A link of a workspace the agency manages: WORKSPACE_NOT_FOUND or CLIENT_LINK_NOT_FOUND otherwise. */
export async function findClientLink(args: { agencyWorkspaceId: string; workspaceId: string; linkId: string }): Promise<{ id: string }> {
  await getManagedWorkspace(args.agencyWorkspaceId, args.workspaceId);
  const link = isUuid(args.linkId) ? await db.clientLink.findFirst({ where: { id: args.linkId, workspaceId: args.workspaceId }, select: { id: true } }) : null;
  if (!link) throw new AppError('CLIENT_LINK_NOT_FOUND', 'No client link with that id on that workspace', { field: 'linkId' });
  return link;
}
