// mediaIds on a post: completed assets of this workspace only.
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { isUuid } from '@/server/shared/schemas';
import type { ResolvedMedia } from './media.types';

export async function resolveMediaIds(workspaceId: string, ids: readonly string[]): Promise<ResolvedMedia[]> {
  if (ids.length === 0) return [];
  const unique = [...new Set(ids)];
  const rows = await db.mediaAsset.findMany({ where: { workspaceId, id: { in: unique.filter(isUuid) } } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return unique.map((id) => {
    const row = byId.get(id);
    const field = `mediaIds[${ids.indexOf(id)}]`;
    if (!row) throw new AppError('MEDIA_NOT_FOUND', `No media asset ${id} in this workspace`, { field });
    if (row.status !== 'ready' || !row.url) {
      throw new AppError('MEDIA_NOT_READY', `Media asset ${id} is not completed: PUT the file, then POST /media/${id}/complete`, { field });
    }
    return {
      assetId: row.id,
      url: row.url,
      kind: row.kind as ResolvedMedia['kind'],
      contentType: row.contentType,
      bytes: row.bytes,
      durationMs: row.durationMs,
    };
  });
}
