// From a link token to its live link, or the contract's error: a revoked or unknown token is
// CONNECT_TOKEN_INVALID (404), an expired one CONNECT_TOKEN_EXPIRED (410). Review links
// answer the same codes: they are the same kind of credential (docs/decisions.md).
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import type { ClientLinkKind } from './client-links.schemas';
import { hashLinkToken, isWellFormedLinkToken } from './link-tokens';

export interface LiveClientLink {
  id: string;
  kind: ClientLinkKind;
  workspace: { id: string; name: string; timeZone: string };
  brand: { name: string; logoUrl: string | null };
  expiresAt: Date;
  /** The workspace that sent the link (the agency, or the workspace itself): told of what the client does with it. */
  issuedById: string;
  /** A report link's range and title (days in the workspace's zone); null for other kinds. */
  report: { from: string; to: string; title: string | null } | null;
  /** Whether the workspace allows demo accounts (its setting; the deployment may still offer none). */
  demoAccounts: boolean;
}

const NAMES: Record<ClientLinkKind, string> = { connect: 'connect link', review: 'review link', report: 'report link' };

export async function resolveClientLink(token: string, kind: ClientLinkKind): Promise<LiveClientLink> {
  const invalid = () => new AppError('CONNECT_TOKEN_INVALID', `This ${NAMES[kind]} does not exist or was revoked`);
  if (!isWellFormedLinkToken(token)) throw invalid();
  const link = await db.clientLink.findUnique({
    where: { tokenHash: hashLinkToken(token) },
    include: { workspace: { select: { id: true, name: true, managedById: true, timeZone: true, demoAccounts: true } } },
  });
  // A link whose workspace is no longer managed by its issuer is dead even if a revocation was
  // missed: the link speaks for the agency's relationship with the client. A link the
  // workspace issued itself (a member connecting from the app) speaks for nobody else.
  const issuerStillSpeaks = link !== null && (link.issuedById === link.workspace.id || link.workspace.managedById === link.issuedById);
  if (!link || link.kind !== kind || link.revokedAt || !issuerStillSpeaks) throw invalid();
  if (link.expiresAt.getTime() <= Date.now()) throw new AppError('CONNECT_TOKEN_EXPIRED', `This ${NAMES[kind]} expired at ${link.expiresAt.toISOString()}`);
  return {
    id: link.id,
    kind,
    workspace: { id: link.workspace.id, name: link.workspace.name, timeZone: link.workspace.timeZone },
    brand: { name: link.brandName, logoUrl: link.brandLogoUrl },
    expiresAt: link.expiresAt,
    issuedById: link.issuedById,
    report:
      link.reportFrom && link.reportTo
        ? { from: link.reportFrom.toISOString().slice(0, 10), to: link.reportTo.toISOString().slice(0, 10), title: link.reportTitle }
        : null,
    demoAccounts: link.workspace.demoAccounts,
  };
}
