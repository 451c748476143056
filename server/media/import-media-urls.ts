// mediaUrls on posts: each URL fetched server-side through the outbound guard into our storage
// and recorded as a ready asset (source `url`). A URL already in our storage is used as-is.
// All or nothing: if any URL fails, what this call stored is deleted and no row is written.
import { db } from '@/server/db/client';
import { fallbackName, nameFromUrl } from './asset-name';
import { AppError } from '@/server/errors/app-error';
import { downloadMediaUrl, type DownloadedMedia } from './download-media-url';
import type { ResolvedMedia } from './media.types';
import { mediaStorage, type MediaStorage } from './storage';
import { log } from '@/server/observability/log';

export const MAX_MEDIA_URLS = 10;
/** Downloads at once per call: bounded memory and connections, still faster than one by one. */
const CONCURRENCY = 3;

type Imported = { media: ResolvedMedia; download?: DownloadedMedia };

/** Our own public URL: the asset must be a completed one of this workspace. */
async function existingAsset(workspaceId: string, url: string, field: string): Promise<Imported> {
  const row = await db.mediaAsset.findFirst({ where: { workspaceId, url, status: 'ready' } });
  if (!row) throw new AppError('MEDIA_URL_REFUSED', `${url} is in Herald's media storage but is not a completed media asset of this workspace`, { field });
  return {
    media: { assetId: row.id, url, kind: row.kind as ResolvedMedia['kind'], contentType: row.contentType, bytes: row.bytes, durationMs: row.durationMs },
  };
}

/** Runs `task` over `items`, at most `limit` at once; stops starting new ones after a failure and rethrows the earliest failed item's error once all running ones settled. */
async function forEachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  const failures = new Map<number, unknown>();
  let next = 0;
  async function worker() {
    while (next < items.length && failures.size === 0) {
      const index = next++;
      await task(items[index]!).catch((e: unknown) => void failures.set(index, e));
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failures.size) throw failures.get(Math.min(...failures.keys()));
}

async function discard(storage: MediaStorage, keys: readonly string[]): Promise<void> {
  const results = await Promise.allSettled(keys.map((k) => storage.delete(k)));
  for (const r of results) if (r.status === 'rejected') log.warn('media', 'could not remove an imported object', r.reason);
}

export async function importMediaUrls(workspaceId: string, urls: readonly string[]): Promise<ResolvedMedia[]> {
  if (urls.length === 0) return [];
  if (urls.length > MAX_MEDIA_URLS) throw new AppError('VALIDATION_FAILED', `At most ${MAX_MEDIA_URLS} mediaUrls are allowed`, { field: 'mediaUrls' });
  const storage = mediaStorage();
  // Before any download: a store that is down would only make us throw the bytes away.
  await storage.ensureAvailable();
  const ownPrefix = storage.publicUrl('');
  const unique = [...new Set(urls)];
  const done = new Map<string, Imported>();
  const written: string[] = [];

  try {
    await forEachLimited(unique, CONCURRENCY, async (url) => {
      const field = `mediaUrls[${urls.indexOf(url)}]`;
      if (url.startsWith(ownPrefix)) return void done.set(url, await existingAsset(workspaceId, url, field));
      const download = await downloadMediaUrl({ storage, workspaceId, url, field, written });
      const media: ResolvedMedia = {
        assetId: download.id,
        url: storage.publicUrl(download.storageKey),
        kind: download.kind,
        contentType: download.contentType,
        bytes: download.bytes,
        durationMs: download.durationMs,
        imported: true,
      };
      done.set(url, { media, download });
    });
    const completedAt = new Date();
    const rows = unique.flatMap((url) => {
      const d = done.get(url)!.download;
      if (!d) return [];
      return [
        {
          id: d.id,
          workspaceId,
          name: nameFromUrl(url) ?? fallbackName(d.kind, d.id, d.storageKey),
          kind: d.kind,
          contentType: d.contentType,
          bytes: d.bytes,
          status: 'ready',
          source: 'url',
          sourceUrl: url,
          storageKey: d.storageKey,
          url: storage.publicUrl(d.storageKey),
          durationMs: d.durationMs,
          width: d.width,
          height: d.height,
          completedAt,
        },
      ];
    });
    if (rows.length) await db.mediaAsset.createMany({ data: rows });
  } catch (error) {
    await discard(storage, written);
    throw error;
  }
  return urls.map((url) => done.get(url)!.media);
}
