'use client';
// Direct upload of one file: the presigned URL from media.uploadUrl, a PUT whose progress is
// reported as it goes (XMLHttpRequest: fetch has no upload progress), then media.complete,
// which inspects the bytes (kind, size, duration) the platform limits are checked against.
import { acceptedType, UPLOAD_MAX_BYTES, MB } from '@/server/media/media-rules';
import type { MediaAssetDto } from '@/server/media/media.schemas';
import { trpc } from '../../_lib/trpc';

/** Type and size refused before anything is sent (the same table the upload route checks). */
export function precheckFile(file: File): string | null {
  const type = acceptedType(file.type);
  if (!type) return `${file.name}: ${file.type || 'this file type'} is not accepted (JPEG, PNG, GIF, WebP, MP4 or QuickTime)`;
  if (file.size > UPLOAD_MAX_BYTES[type.kind]) return `${file.name}: ${type.kind}s are limited to ${UPLOAD_MAX_BYTES[type.kind] / MB} MB`;
  return null;
}

export async function uploadFile(file: File, onProgress: (fraction: number) => void): Promise<MediaAssetDto> {
  const kind = acceptedType(file.type)!.kind;
  const created = (await trpc.media.uploadUrl.mutate({ kind, contentType: file.type, bytes: file.size, filename: file.name })).data;
  await new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(created.upload.method, created.upload.url);
    for (const [name, value] of Object.entries(created.upload.headers)) {
      // The browser sets Content-Length itself.
      if (name.toLowerCase() !== 'content-length') xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new Error(uploadError(xhr.responseText, xhr.status))));
    xhr.onerror = () => reject(new Error('The upload was interrupted'));
    xhr.send(file);
  });
  onProgress(1);
  return (await trpc.media.complete.mutate({ id: created.id })).data;
}

function uploadError(text: string, status: number): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: string } };
    if (body.error?.message) return body.error.message;
  } catch {
    // not JSON
  }
  return `The upload failed (${status})`;
}
