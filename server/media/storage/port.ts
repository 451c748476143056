// The media storage port: where asset bytes live and how clients upload them directly.
// Two adapters: the local disk store (embedded default) and Vercel Blob (production).
// Every adapter passes the same contract suite (storage-contract.test.ts).
import type { Readable } from 'node:stream';
import { AppError } from '@/server/errors/app-error';
import { log } from '@/server/observability/log';

export interface StoredObject {
  bytes: number;
  contentType: string;
}

export interface PresignedUpload {
  url: string;
  method: 'PUT';
  /** Every header the PUT must carry, exactly (Content-Type and Content-Length always among them). */
  headers: Record<string, string>;
}

export interface PutOptions {
  contentType: string;
  /** When given, a body of any other length stores nothing and rejects with BodyLengthError. */
  bytes?: number;
}

export interface MediaStorage {
  readonly kind: 'local' | 'vercel-blob';
  /** Resolves when the store answers and accepts writes; throws MEDIA_STORAGE_UNAVAILABLE otherwise. */
  ensureAvailable(): Promise<void>;
  /**
   * Stores the body under `key`; the object appears whole or not at all. An error raised by
   * the body itself (a size cap, a failed download) is rethrown unchanged.
   */
  put(key: string, body: Readable | Uint8Array, opts: PutOptions): Promise<void>;
  /** Size and type of a stored object, or null when nothing is stored under `key`. */
  head(key: string): Promise<StoredObject | null>;
  /** The bytes from `start` to `end` (inclusive; default: the end). Throws ObjectNotFoundError. */
  read(key: string, opts?: { start?: number; end?: number }): Promise<Readable>;
  /** Removes the object; a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Where platforms and browsers fetch the object. Built from configuration, never from a request. */
  publicUrl(key: string): string;
  /** A URL the client PUTs the bytes to directly, bound to this key, type and length until `expiresAt`. */
  presignUpload(opts: { key: string; contentType: string; bytes: number; expiresAt: Date }): Promise<PresignedUpload>;
}

export class ObjectNotFoundError extends Error {
  readonly name = 'ObjectNotFoundError';
  constructor(readonly key: string) {
    super(`No object is stored under ${key}`);
  }
}

export class BodyLengthError extends Error {
  readonly name = 'BodyLengthError';
  constructor(
    readonly expected: number,
    readonly received: number,
  ) {
    super(`The body was ${received > expected ? 'longer' : 'shorter'} than the ${expected} bytes declared`);
  }
}

/** The one way adapters report a store that is missing, refusing or unreachable. */
export function storageUnavailable(detail: string, cause?: unknown): AppError {
  if (cause !== undefined) log.warn('media', `storage unavailable: ${detail}`, cause);
  return new AppError('MEDIA_STORAGE_UNAVAILABLE', `Media storage is not available (${detail}); nothing was written`);
}
