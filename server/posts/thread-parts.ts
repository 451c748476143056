// A thread: the parts a post carries after its content, each posted as a reply to the one
// before on the networks that chain replies (the catalogue's THREAD_POSTING). Part 1 is the
// post itself (content, media, variants); parts 2… are stored on the post (`Post.parts`) and
// delivered by delivery/thread-parts.ts once part 1 landed. One rule for what a part holds, for
// create and edit alike.
import { AppError } from '@/server/errors/app-error';
import { db } from '@/server/db/client';
import { resolveMedia, toStoredMedia, type StoredMedia } from './post-inputs';
import type { CreatePostInput } from './posts.schemas';

export type PartInput = NonNullable<CreatePostInput['parts']>[number];

/** A part as stored on the post: its text, what platforms are sent, and the resolved media. */
export interface StoredPart {
  content: string;
  mediaUrls: string[];
  media: StoredMedia[];
}

/** The stored parts of a post row (`[]` for a single post, or a row written before threads). */
export function storedParts(value: unknown): StoredPart[] {
  if (!Array.isArray(value)) return [];
  return value.map((p: Partial<StoredPart>) => ({ content: p.content ?? '', mediaUrls: p.mediaUrls ?? [], media: p.media ?? [] }));
}

/** Resolved parts, with every asset they hold named by its field (for the hold and for cleanup on refusal). */
export interface ResolvedParts {
  parts: StoredPart[];
  /** Every part's media together: fetched ones are deleted again if the write is refused. */
  media: StoredMedia[];
  refs: { assetId: string; field: string }[];
}

/** Each part's media resolved (ids from the library, URLs fetched into it), in order. */
export async function resolveParts(workspaceId: string, input: readonly PartInput[] | undefined): Promise<ResolvedParts> {
  const resolved: ResolvedParts = { parts: [], media: [], refs: [] };
  for (const [index, part] of (input ?? []).entries()) {
    const media = part.mediaIds?.length || part.mediaUrls?.length ? await resolveMedia(workspaceId, part) : [];
    resolved.media.push(...media);
    resolved.refs.push(...media.map((m) => ({ assetId: m.assetId, field: `parts[${index}].${m.origin}` })));
    resolved.parts.push({ content: part.content, mediaUrls: media.map((m) => m.url), media: toStoredMedia(media) });
  }
  return resolved;
}

/**
 * Parts cannot change once the thread began on an account: the parts it posted, and those it
 * still owes, are the ones it started with.
 */
export async function assertThreadNotStarted(postId: string): Promise<void> {
  const started = await db.postThreadPart.count({ where: { target: { postId } } });
  if (started > 0) {
    throw new AppError('POST_NOT_EDITABLE', 'The thread has begun on at least one account: its parts can no longer change', { field: 'parts' });
  }
}
