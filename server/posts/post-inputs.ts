// Checks shared by create and edit: the target connections, variants and media of a post.
import { Prisma, type Connection } from '@/server/generated/prisma/client';
import type { Platform } from '@/server/shared/platforms';
import { isUsable } from '@/server/connections/token-health';
import { sqlRows } from '@/server/db/sql';
import { AppError } from '@/server/errors/app-error';
import { isUuid } from '@/server/shared/schemas';
import { importMediaUrls } from '@/server/media/import-media-urls';
import { deleteMediaAsset } from '@/server/media/media-assets';
import type { ResolvedMedia } from '@/server/media/media.types';
import { resolveMediaIds } from '@/server/media/resolve-media-ids';
import { log } from '@/server/observability/log';
import { platformName } from '@/server/platforms/catalogue';

export type StoredMedia = ResolvedMedia & { origin: 'mediaIds' | 'mediaUrls' };

/** The post's connections, in request order, each in this workspace and usable now. */
export async function loadTargetConnections(workspaceId: string, ids: readonly string[]): Promise<Connection[]> {
  const unique = [...new Set(ids)];
  const rows = await sqlRows<Connection>(
    Prisma.sql`SELECT * FROM "Connection" WHERE "workspaceId" = ${workspaceId}::uuid AND "id" = ANY(${unique.filter(isUuid)}::uuid[])`,
  );
  return pickTargetConnections(ids, new Map(rows.map((r) => [r.id, r])));
}

/**
 * The rule of loadTargetConnections on connections already read (`byId`: the workspace's,
 * by id): each id one of them, and usable now. The import reads a workspace's connections
 * once and applies it to every row.
 */
export function pickTargetConnections(ids: readonly string[], byId: ReadonlyMap<string, Connection>): Connection[] {
  const unique = [...new Set(ids)];
  return unique.map((id) => {
    const field = `connectionIds[${ids.indexOf(id)}]`;
    const row = byId.get(id);
    if (!row) throw new AppError('CONNECTION_NOT_FOUND', `No connection ${id} in this workspace`, { field });
    if (!isUsable(row)) {
      throw new AppError(
        'CONNECTION_EXPIRED',
        `The ${platformName(row.platform)} account "${row.displayName}" is not active or its access expired: reconnect it in the app`,
        { field },
      );
    }
    return row;
  });
}

/** The workspace's "every scheduled post needs approval" setting. */
export async function workspaceRequiresApproval(workspaceId: string): Promise<boolean> {
  const [workspace] = await sqlRows<{ requireApproval: boolean }>(Prisma.sql`SELECT "requireApproval" FROM "Workspace" WHERE "id" = ${workspaceId}::uuid`);
  if (!workspace) throw new Error(`workspace ${workspaceId} does not exist`);
  return workspace.requireApproval;
}

export function platformsOf(connections: readonly Connection[]): Platform[] {
  return [...new Set(connections.map((c) => c.platform as Platform))];
}

/** A variant for a platform the post does not target would never be used: refuse it. */
export function checkVariants(variants: Partial<Record<Platform, unknown>> | null | undefined, platforms: readonly Platform[]): void {
  for (const platform of Object.keys(variants ?? {})) {
    if (!platforms.includes(platform as Platform)) {
      throw new AppError('VALIDATION_FAILED', `There is a variant for ${platform}, which the post does not target`, { field: `variants.${platform}` });
    }
  }
}

export async function resolveMedia(workspaceId: string, input: { mediaIds?: readonly string[]; mediaUrls?: readonly string[] }): Promise<StoredMedia[]> {
  const byId = (await resolveMediaIds(workspaceId, input.mediaIds ?? [])).map((m) => ({ ...m, origin: 'mediaIds' as const }));
  const byUrl = (await importMediaUrls(workspaceId, input.mediaUrls ?? [])).map((m) => ({ ...m, origin: 'mediaUrls' as const }));
  return [...byId, ...byUrl];
}

/** The assets a post's media hold while it is written (media-usage.ts), each named by the field it came from. */
export function mediaRefs(media: readonly StoredMedia[]): { assetId: string; field: string }[] {
  return media.map((m) => ({ assetId: m.assetId, field: m.origin }));
}

/** What is stored on the post: the resolution, without the per-call `imported` marker. */
export function toStoredMedia(media: readonly StoredMedia[]): StoredMedia[] {
  return media.map(({ imported: _imported, ...m }) => m);
}

/**
 * Runs the rest of a create/edit after media were resolved; if it fails, the assets this
 * request fetched from mediaUrls are deleted again (rows and stored objects), so a refused
 * post leaves nothing behind.
 */
export async function withImportedMedia<T>(workspaceId: string, media: readonly StoredMedia[], rest: () => Promise<T>): Promise<T> {
  try {
    return await rest();
  } catch (err) {
    const fresh = media.filter((m) => m.imported);
    const results = await Promise.allSettled(fresh.map((m) => deleteMediaAsset(workspaceId, m.assetId)));
    for (const r of results) if (r.status === 'rejected') log.warn('posts', 'could not discard an imported media asset', r.reason);
    throw err;
  }
}
