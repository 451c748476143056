// Agency features: client workspaces managed by the caller's workspace.
import { revokeLinks } from '@/server/client-links/issue-client-link';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { isUuid } from '@/server/shared/schemas';
import { Prisma } from '@/server/generated/prisma/client';
import { slugify, withSuffix } from './slug';
import { toWorkspaceDto, type CreateWorkspaceInput, type WorkspaceDto } from './workspaces.schemas';

export async function listManagedWorkspaces(agencyId: string): Promise<WorkspaceDto[]> {
  const rows = await db.workspace.findMany({ where: { managedById: agencyId }, orderBy: { createdAt: 'desc' } });
  return rows.map(toWorkspaceDto);
}

/** The managed workspace, or WORKSPACE_NOT_FOUND for anything this agency does not manage. */
export async function getManagedWorkspace(agencyId: string, id: string): Promise<WorkspaceDto> {
  const row = isUuid(id) ? await db.workspace.findFirst({ where: { id, managedById: agencyId } }) : null;
  if (!row) throw new AppError('WORKSPACE_NOT_FOUND', 'No managed workspace with that id under this workspace', { field: 'id' });
  return toWorkspaceDto(row);
}

function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}

/**
 * Creates a client workspace managed by the agency. It is owned by the agency's owners
 * (they become its owners too), so it appears under their clients in the app.
 */
export async function createManagedWorkspace(agencyId: string, input: CreateWorkspaceInput): Promise<WorkspaceDto> {
  const explicit = input.slug !== undefined;
  let slug = input.slug ?? slugify(input.name);
  for (let attempt = 0; ; attempt++) {
    try {
      const created = await db.$transaction(async (tx) => {
        const ws = await tx.workspace.create({ data: { name: input.name, slug, managedById: agencyId, timeZone: input.timeZone ?? 'UTC' } });
        const owners = await tx.membership.findMany({ where: { workspaceId: agencyId, role: 'owner' }, select: { userId: true } });
        if (owners.length) {
          await tx.membership.createMany({ data: owners.map((o) => ({ userId: o.userId, workspaceId: ws.id, role: 'owner' })) });
        }
        return ws;
      });
      return toWorkspaceDto(created);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (explicit) throw new AppError('VALIDATION_FAILED', `The slug "${slug}" is taken`, { status: 409, field: 'slug' });
      if (attempt >= 4) throw err;
      slug = withSuffix(slugify(input.name));
    }
  }
}

/**
 * Detaches a managed workspace: nothing is deleted, keys minted for it keep working, and
 * its hosted connect and review links are revoked (they answer CONNECT_TOKEN_INVALID).
 */
export async function detachManagedWorkspace(agencyId: string, id: string): Promise<void> {
  await getManagedWorkspace(agencyId, id);
  await db.$transaction(async (tx) => {
    await tx.workspace.updateMany({ where: { id, managedById: agencyId }, data: { managedById: null } });
    await revokeLinks(tx, { workspaceId: id });
  });
}
