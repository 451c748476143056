// Issuing and revoking the no-login links an agency sends its client: `connect` (the hosted
// connect page) and `review` (the approval page). A link acts on one managed workspace and
// is live until it expires, is rotated away, or the workspace is detached.
import { db } from '@/server/db/client';
import type { Actor } from '@/server/auth/actor';
import { actorFields, recordSecurityEvent } from '@/server/security-events/security-events';
import { AppError } from '@/server/errors/app-error';
import type { Prisma } from '@/server/generated/prisma/client';
import { env } from '@/server/config/env';
import { isUuid } from '@/server/shared/schemas';
import type { ClientLinkCreated, ClientLinkInput, ClientLinkKind, ReportLinkRange } from './client-links.schemas';
import { hashLinkToken, newLinkToken } from './link-tokens';
import { defaultBrand } from '@/server/workspaces/workspace-settings';

const DAY_MS = 86_400_000;

/** The path under the connect base each kind of link opens. */
const LINK_PATHS: Record<ClientLinkKind, string> = { connect: '/connect', review: '/review', report: '/report' };

export function linkUrl(kind: ClientLinkKind, token: string): string {
  return `${env.connectBaseUrl()}${LINK_PATHS[kind]}/${token}`;
}

export async function issueClientLink(args: {
  agencyWorkspaceId: string;
  workspaceId: string;
  kind: ClientLinkKind;
  input: ClientLinkInput;
  /** Required for (and only for) kind `report`. */
  report?: ReportLinkRange;
  by?: Actor;
}): Promise<ClientLinkCreated> {
  const { agencyWorkspaceId, workspaceId, kind, input, report } = args;
  if ((kind === 'report') !== (report !== undefined)) throw new Error('a report link, and only a report link, carries a range');
  const token = newLinkToken();
  const expiresAt = new Date(Date.now() + input.expiresInDays * DAY_MS);

  await db.$transaction(async (tx) => {
    // Locks the client's row: a concurrent detach or rotation waits, so no link outlives either.
    const [client] = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "Workspace" WHERE "id" = ${isUuid(workspaceId) ? workspaceId : null}::uuid AND "managedById" = ${agencyWorkspaceId}::uuid FOR UPDATE`;
    if (!client) throw new AppError('WORKSPACE_NOT_FOUND', 'No managed workspace with that id under this workspace', { field: 'id' });
    // The client's brand from its settings, else its agency's, else the agency's name.
    const brand = await defaultBrand(tx, workspaceId);
    if (input.rotate) await revokeLinks(tx, { workspaceId, kind });
    await recordSecurityEvent(
      { kind: 'link.issued', workspaceId, ...actorFields(args.by), detail: { kind, expiresAt: expiresAt.toISOString(), rotated: input.rotate } },
      tx,
    );
    await tx.clientLink.create({
      data: {
        workspaceId,
        issuedById: agencyWorkspaceId,
        kind,
        tokenHash: hashLinkToken(token),
        brandName: input.brand?.name ?? brand.name,
        brandLogoUrl: input.brand?.logoUrl ?? (input.brand?.name ? null : brand.logoUrl),
        ...(report ? { reportFrom: new Date(`${report.from}T00:00:00Z`), reportTo: new Date(`${report.to}T00:00:00Z`), reportTitle: report.title } : {}),
        expiresAt,
      },
    });
  });

  return { url: linkUrl(kind, token), expiresAt: expiresAt.toISOString(), rotated: input.rotate };
}

/** Revokes every live link of the workspace (of one kind, or all); used by rotation and detach. */
export async function revokeLinks(tx: Prisma.TransactionClient, where: { workspaceId: string; kind?: ClientLinkKind }): Promise<number> {
  const revoked = await tx.clientLink.updateMany({
    where: { workspaceId: where.workspaceId, ...(where.kind ? { kind: where.kind } : {}), revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return revoked.count;
}

/** How long a link a member opens from the app lives: long enough for one OAuth round trip. */
export const MEMBER_LINK_MS = 3_600_000;

/**
 * A connect link a member opens from the app's Connections screen to connect or reconnect an
 * account of the workspace they act in: the very page and OAuth flow a client uses, so there
 * is one way accounts get connected. It is issued by the workspace itself (any workspace, not
 * only a managed one), lives an hour, and is revoked with the others on rotation or detach.
 */
export async function issueMemberConnectLink(workspaceId: string, by?: Actor): Promise<ClientLinkCreated> {
  const token = newLinkToken();
  const expiresAt = new Date(Date.now() + MEMBER_LINK_MS);
  const brand = await defaultBrand(db, workspaceId);
  await recordSecurityEvent({
    kind: 'link.issued',
    workspaceId,
    ...actorFields(by),
    detail: { kind: 'connect', expiresAt: expiresAt.toISOString(), member: true },
  });
  await db.clientLink.create({
    data: {
      workspaceId,
      issuedById: workspaceId,
      kind: 'connect',
      tokenHash: hashLinkToken(token),
      brandName: brand.name,
      brandLogoUrl: brand.logoUrl,
      expiresAt,
    },
  });
  return { url: linkUrl('connect', token), expiresAt: expiresAt.toISOString(), rotated: false };
}
