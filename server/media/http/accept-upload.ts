// PUT /media/upload/<token>: the local store's presigned upload target. The token (see
// storage/upload-token.ts) fixes the object key, content type, exact length and expiry; the
// request must match it exactly. The body streams to a temp file that is renamed into place
// only once every byte arrived, so nothing half-written is ever visible.
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors/app-error';
import { mediaErrorResponse } from './error-response';
import { normaliseContentType, parseStorageKey } from '../media-rules';
import { BodyLengthError, LocalDiskStorage, mediaStorage } from '../storage';

export const UPLOAD_PREFIX = '/media/upload/';

function refusal(message: string): AppError {
  return new AppError('FORBIDDEN', message);
}

async function accept(req: Request): Promise<Response> {
  const storage = mediaStorage();
  if (!(storage instanceof LocalDiskStorage)) throw new AppError('ROUTE_NOT_FOUND', 'Uploads go straight to the configured object store');
  const token = new URL(req.url).pathname.slice(UPLOAD_PREFIX.length);
  const check = storage.checkUploadToken(token);
  if (!check.ok && check.reason === 'expired') {
    throw refusal(`This upload URL expired at ${check.grant!.expiresAt.toISOString()}: request a new one with POST /media/upload-url`);
  }
  if (!check.ok) throw refusal('This upload URL is not valid: its signature does not match (use the URL exactly as it was handed out)');
  const { grant } = check;

  // Bound to one asset: once it is completed (or deleted) its bytes can no longer be replaced.
  const owner = parseStorageKey(grant.key);
  const asset = owner ? await db.mediaAsset.findFirst({ where: { id: owner.assetId, workspaceId: owner.workspaceId } }) : null;
  if (!asset || asset.storageKey !== grant.key) throw new AppError('MEDIA_NOT_FOUND', 'The media asset of this upload URL no longer exists');
  if (asset.status !== 'awaiting_upload') {
    throw new AppError('VALIDATION_FAILED', `Media asset ${asset.id} is already completed; its file cannot be replaced`, { status: 409 });
  }

  const sentType = normaliseContentType(req.headers.get('content-type'));
  if (sentType !== grant.contentType) {
    throw new AppError('VALIDATION_FAILED', `This upload URL takes Content-Type: ${grant.contentType}; the request sent ${sentType || 'none'}`, {
      field: 'Content-Type',
    });
  }
  const sentLength = req.headers.get('content-length');
  if (sentLength === null || !/^\d+$/.test(sentLength)) {
    throw new AppError('VALIDATION_FAILED', `Send the file with Content-Length: ${grant.bytes}`, { field: 'Content-Length' });
  }
  if (Number(sentLength) !== grant.bytes) {
    throw new AppError(
      'VALIDATION_FAILED',
      `This upload URL takes exactly ${grant.bytes} bytes (Content-Length: ${grant.bytes}); the request declared ${sentLength}`,
      { field: 'Content-Length' },
    );
  }

  const body = req.body ? Readable.fromWeb(req.body as NodeReadableStream<Uint8Array>) : Readable.from([]);
  try {
    await storage.put(grant.key, body, { contentType: grant.contentType, bytes: grant.bytes });
  } catch (err) {
    if (!(err instanceof BodyLengthError)) throw err;
    throw new AppError('VALIDATION_FAILED', `${err.message}; nothing was stored`, { field: 'Content-Length' });
  }
  return Response.json({ data: { id: asset.id, contentType: grant.contentType, bytes: grant.bytes } }, { status: 200 });
}

export async function handleMediaUpload(req: Request): Promise<Response> {
  if (req.method !== 'PUT') return new Response(null, { status: 405, headers: { allow: 'PUT' } });
  try {
    return await accept(req);
  } catch (err) {
    return mediaErrorResponse(err);
  }
}
