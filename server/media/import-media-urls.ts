// mediaUrls on posts: fetched through the outbound guard into our storage.
import { AppError } from '@/server/errors/app-error';
import type { ResolvedMedia } from './media.types';

export async function importMediaUrls(_workspaceId: string, urls: readonly string[]): Promise<ResolvedMedia[]> {
  if (urls.length === 0) return [];
  throw new AppError('MEDIA_STORAGE_UNAVAILABLE', 'Media storage is not configured; nothing was written');
}
