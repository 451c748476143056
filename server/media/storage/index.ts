// Which store media goes to: Vercel Blob when BLOB_READ_WRITE_TOKEN is set, otherwise the
// local disk store under DATA_DIR. Read on every call (configuration may be set late, and
// tests switch stores); building an adapter is cheap.
import path from 'node:path';
import { env } from '@/server/config/env';
import { LocalDiskStorage } from './local-disk';
import { storageUnavailable, type MediaStorage } from './port';
import { mediaSigningSecret } from './upload-token';
import { VercelBlobStorage } from './vercel-blob';

export { BodyLengthError, ObjectNotFoundError, type MediaStorage, type PresignedUpload, type StoredObject } from './port';
export { LocalDiskStorage } from './local-disk';
export { VercelBlobStorage } from './vercel-blob';

let override: MediaStorage | undefined;

/** Tests pin a store (a local one in a temp directory, or Vercel Blob against a stand-in). */
export function setMediaStorageForTests(storage: MediaStorage | undefined): void {
  override = storage;
}

/** The configured store. Throws MEDIA_STORAGE_UNAVAILABLE when none can be configured. */
export function mediaStorage(): MediaStorage {
  if (override) return override;
  const token = env.blobReadWriteToken();
  if (token) return new VercelBlobStorage({ token });
  const secret = mediaSigningSecret();
  if (!secret) throw storageUnavailable('the local store needs MEDIA_SIGNING_SECRET or AUTH_SECRET to sign upload URLs');
  return new LocalDiskStorage({ root: path.join(env.dataDir(), 'blobs'), baseUrl: env.baseUrl(), secret });
}
