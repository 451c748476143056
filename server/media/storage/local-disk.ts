// The local disk store (embedded default): objects are files under `<DATA_DIR>/blobs`, served
// at `<HERALD_BASE_URL>/media/files/<key>` and uploaded to signed `/media/upload/<token>` URLs
// (server/media/http/). Writes go to a temp file and are renamed into place, so a reader
// never sees half an object.
import { randomUUID } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { contentTypeOfKey } from '../media-rules';
import { BodyLengthError, ObjectNotFoundError, storageUnavailable, type MediaStorage, type PresignedUpload, type PutOptions, type StoredObject } from './port';
import { createUploadToken, verifyUploadToken, type TokenCheck } from './upload-token';

export interface LocalDiskOptions {
  /** Directory holding the objects. */
  root: string;
  /** Public base URL of the app (HERALD_BASE_URL). */
  baseUrl: string;
  /** Secret the upload URLs are signed with. */
  secret: string;
}

// Keys are `<workspaceId>/<assetId>.<ext>`; anything else (dot segments, hidden names,
// separators, encoded tricks) never maps to a path.
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function isSafeKey(key: string): boolean {
  const segments = key.split('/');
  return segments.length >= 1 && segments.length <= 4 && segments.every((s) => SEGMENT.test(s) && !s.includes('..'));
}

function errorCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}

export class LocalDiskStorage implements MediaStorage {
  readonly kind = 'local' as const;
  readonly root: string;

  constructor(private readonly opts: LocalDiskOptions) {
    this.root = path.resolve(opts.root);
  }

  /** Absolute path of a key, or null when the key could point outside the store. */
  pathOf(key: string): string | null {
    if (!isSafeKey(key)) return null;
    const full = path.resolve(this.root, ...key.split('/'));
    return full.startsWith(this.root + path.sep) ? full : null;
  }

  private mustPath(key: string): string {
    const full = this.pathOf(key);
    if (!full) throw new TypeError(`Not a valid media storage key: ${key}`);
    return full;
  }

  /** The store is "reachable" when its directory exists (or can be created) and is writable. */
  async ensureAvailable(): Promise<void> {
    try {
      await mkdir(path.join(this.root, '.tmp'), { recursive: true });
      await access(this.root, constants.W_OK);
    } catch (e) {
      throw storageUnavailable(`the local media directory ${this.root} is not writable`, e);
    }
  }

  async put(key: string, body: Readable | Uint8Array, opts: PutOptions): Promise<void> {
    const target = this.mustPath(key);
    if (contentTypeOfKey(key) !== opts.contentType) throw new TypeError(`Key ${key} does not carry the extension of ${opts.contentType}`);
    await this.ensureAvailable();
    const tmp = path.join(this.root, '.tmp', randomUUID());
    const source = body instanceof Uint8Array ? Readable.from([Buffer.from(body)]) : body;
    let bodyError: unknown;
    source.once('error', (e) => (bodyError ??= e));
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        received += chunk.length;
        if (opts.bytes !== undefined && received > opts.bytes) done(new BodyLengthError(opts.bytes, received));
        else done(null, chunk);
      },
    });
    try {
      await pipeline(source, counter, createWriteStream(tmp, { flags: 'wx' }));
      if (opts.bytes !== undefined && received !== opts.bytes) throw new BodyLengthError(opts.bytes, received);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(tmp, target);
    } catch (e) {
      await rm(tmp, { force: true }).catch(() => undefined);
      if (bodyError !== undefined) throw bodyError;
      if (e instanceof BodyLengthError) throw e;
      throw storageUnavailable('writing to the local media directory failed', e);
    }
  }

  async head(key: string): Promise<StoredObject | null> {
    const full = this.pathOf(key);
    if (!full) return null;
    try {
      const s = await stat(full);
      return s.isFile() ? { bytes: s.size, contentType: contentTypeOfKey(key) ?? 'application/octet-stream' } : null;
    } catch (e) {
      if (errorCode(e) === 'ENOENT' || errorCode(e) === 'ENOTDIR') return null;
      throw storageUnavailable('the local media directory cannot be read', e);
    }
  }

  async read(key: string, opts: { start?: number; end?: number } = {}): Promise<Readable> {
    const found = await this.head(key);
    if (!found) throw new ObjectNotFoundError(key);
    const start = opts.start ?? 0;
    if (start >= found.bytes) return Readable.from([]);
    return createReadStream(this.mustPath(key), { start, end: opts.end });
  }

  async delete(key: string): Promise<void> {
    const full = this.pathOf(key);
    if (!full) return;
    try {
      await rm(full, { force: true });
    } catch (e) {
      if (errorCode(e) === 'ENOTDIR') return; // a parent is not a directory: nothing stored there
      throw storageUnavailable('deleting from the local media directory failed', e);
    }
  }

  publicUrl(key: string): string {
    return `${this.opts.baseUrl}/media/files/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  /** Checks a token of an upload URL this store handed out. */
  checkUploadToken(token: string): TokenCheck {
    return verifyUploadToken(this.opts.secret, token);
  }

  async presignUpload(opts: { key: string; contentType: string; bytes: number; expiresAt: Date }): Promise<PresignedUpload> {
    this.mustPath(opts.key);
    await this.ensureAvailable();
    const token = createUploadToken(this.opts.secret, opts);
    return {
      url: `${this.opts.baseUrl}/media/upload/${token}`,
      method: 'PUT',
      headers: { 'Content-Type': opts.contentType, 'Content-Length': String(opts.bytes) },
    };
  }
}
