// The workspace-selection header rules (contract: Authentication → 5).
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { HEADERS } from '@/server/shared/headers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Decides the workspace a request acts on.
 * - no header → the caller's own workspace;
 * - header on a route that forbids it (/workspaces/*) → 400 WORKSPACE_HEADER_NOT_ALLOWED;
 * - header that is not a single uuid → 400 WORKSPACE_NOT_MANAGED;
 * - header naming a workspace the caller's workspace does not manage (and is not its own) → 403.
 */
export async function selectWorkspace(opts: { homeWorkspaceId: string; headerValue: string | null | undefined; headerForbidden: boolean }): Promise<string> {
  const raw = opts.headerValue;
  if (raw === null || raw === undefined) return opts.homeWorkspaceId;
  if (opts.headerForbidden) {
    throw new AppError(
      'WORKSPACE_HEADER_NOT_ALLOWED',
      `The ${HEADERS.workspace} header is not accepted on /workspaces routes: they always act on the key's own workspace`,
    );
  }
  const value = raw.trim();
  if (!UUID.test(value)) {
    throw new AppError('WORKSPACE_NOT_MANAGED', `The ${HEADERS.workspace} header must be a single workspace uuid`, { status: 400, field: HEADERS.workspace });
  }
  const id = value.toLowerCase();
  if (id === opts.homeWorkspaceId) return id;
  const managed = await db.workspace.findFirst({ where: { id, managedById: opts.homeWorkspaceId }, select: { id: true } });
  if (!managed) {
    throw new AppError('WORKSPACE_NOT_MANAGED', 'This key cannot act for that workspace', { status: 403, field: HEADERS.workspace });
  }
  return managed.id;
}
