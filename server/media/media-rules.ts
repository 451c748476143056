// What Herald accepts as media, and how big it may be (docs/decisions.md → Media).
export type MediaKind = 'image' | 'video';

/** 1 MB = 1024 × 1024 bytes: the generous reading, so nothing the contract allows is refused. */
export const MB = 1024 * 1024;

interface AcceptedType {
  kind: MediaKind;
  /** Extension of the stored object: storage keys carry it so files are served with the right type. */
  ext: string;
}

export const ACCEPTED_TYPES = {
  'image/jpeg': { kind: 'image', ext: 'jpg' },
  'image/png': { kind: 'image', ext: 'png' },
  'image/gif': { kind: 'image', ext: 'gif' },
  'image/webp': { kind: 'image', ext: 'webp' },
  'video/mp4': { kind: 'video', ext: 'mp4' },
  'video/quicktime': { kind: 'video', ext: 'mov' },
} as const satisfies Record<string, AcceptedType>;

export type AcceptedContentType = keyof typeof ACCEPTED_TYPES;
export const ACCEPTED_CONTENT_TYPES = Object.keys(ACCEPTED_TYPES) as AcceptedContentType[];

/** Largest upload through POST /media/upload-url. */
export const UPLOAD_MAX_BYTES: Record<MediaKind, number> = { image: 15 * MB, video: 500 * MB };
/** Largest download for mediaUrls (the contract caps video by URL far lower than by upload). */
export const URL_IMPORT_MAX_BYTES: Record<MediaKind, number> = { image: 15 * MB, video: 25 * MB };
/** How long a presigned upload URL may be used. */
export const UPLOAD_URL_TTL_MS = 60 * 60 * 1000;

/** `Image/PNG; charset=x` → `image/png`: the bare media type, as compared everywhere. */
export function normaliseContentType(value: string | null | undefined): string {
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}

export function acceptedType(contentType: string): (typeof ACCEPTED_TYPES)[AcceptedContentType] | undefined {
  return Object.hasOwn(ACCEPTED_TYPES, contentType) ? ACCEPTED_TYPES[contentType as AcceptedContentType] : undefined;
}

/** The content type a storage key's extension stands for (keys are always built by storageKey()). */
export function contentTypeOfKey(key: string): AcceptedContentType | undefined {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return ACCEPTED_CONTENT_TYPES.find((t) => ACCEPTED_TYPES[t].ext === ext);
}

/** `<workspaceId>/<assetId>.<ext>`: one object per asset, never reused, so it can be cached forever. */
export function storageKey(workspaceId: string, assetId: string, contentType: AcceptedContentType): string {
  return `${workspaceId}/${assetId}.${ACCEPTED_TYPES[contentType].ext}`;
}

export function megabytes(bytes: number): string {
  return `${Math.round((bytes / MB) * 10) / 10} MB`;
}

const KEY = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.[a-z0-9]+$/;

/** The workspace and asset a key built by storageKey() belongs to. */
export function parseStorageKey(key: string): { workspaceId: string; assetId: string } | null {
  const m = KEY.exec(key);
  return m ? { workspaceId: m[1]!, assetId: m[2]! } : null;
}
