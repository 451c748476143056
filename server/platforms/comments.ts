// The comments port: how Herald reads the comments under the account's own published posts
// and acts on them (reply, hide, delete, like). One client per network that offers comments
// to an app (in that network's folder, listed in comments-clients.ts) plus the sandbox; what
// each network offers is its catalogue entry's `comments` (catalogue/comments.ts), and a
// client implements exactly the actions that entry names (comments-clients.test.ts checks it).
//
// Reading: a client is given one connection and one published post and pages through every
// comment under it, replies included, flattened, each with its parent's network id. It says
// whether the list is the whole conversation (`complete`): only then does the collector take
// a comment that is missing from it as deleted on the network. A failure of the whole
// connection (token refused, network down, a rate limit not waited out) is thrown as a
// PlatformError (TokenExpiredError for a refused token), as the publisher and insights do.
import type { Platform } from '@/server/shared/platforms';
import type { PostedRef, InsightsContext } from './insights';
import type { PublishableConnection } from './publisher';

export type { CommentAction } from './catalogue/comments';

/** One comment (or reply) as the network returned it. */
export interface NetworkComment {
  /** The comment's id on the network (what reply/hide/delete/like are given back). */
  id: string;
  /** The network id of the comment it answers; null for a comment on the post itself. */
  parentId: string | null;
  /** The author's id on the network, when the network gives one. */
  authorId: string | null;
  /** The author's display name (or handle when that is all there is). */
  authorName: string;
  /** The author's handle (`@name`, `u/name`), when the network has one. */
  authorHandle: string | null;
  /** The author's picture, when the network gives one (shown small; never fetched by the server). */
  authorAvatarUrl?: string | null;
  /** The comment's text as the network returned it. */
  text: string;
  createdAt: Date;
  /** When the network says it was edited, if it says so. */
  editedAt?: Date | null;
  /** The comment's own address on the network, when it has one. */
  permalink: string | null;
  /** Hidden from the public by the account (where the network reports it). */
  hidden?: boolean;
  /** The account itself wrote it (the client decides: it knows how the network names the account). */
  fromAccount: boolean;
}

/** Every comment under one post, or why there are none to read for it (deleted post, comments off). */
export type PostComments = { ok: true; comments: NetworkComment[]; complete: boolean } | { ok: false; reason: string };

/** What a reply posted through the network came back as. */
export interface PostedComment {
  id: string;
  permalink: string | null;
}

/** Where a reply goes: under the post itself, or under one of its comments. */
export interface ReplyTarget {
  /** The published post's id on the network (PostTarget.postedId). */
  postedId: string;
  /** The network id of the comment answered; null to comment on the post itself. */
  commentId: string | null;
}

/** A comment acted on, with the post it sits under (some networks address comments through their post). */
export interface CommentRef {
  postedId: string;
  commentId: string;
}

export interface CommentsContext extends InsightsContext {
  /**
   * Stable for one reply across retries (the reply's id in Herald): handed to the network's
   * own idempotency where it has one (Mastodon's Idempotency-Key), so a retry never answers twice.
   */
  idempotencyKey?: string;
}

export interface CommentsClient {
  /** The `source` of what it reads: the network's API, or `sandbox`. */
  source: string;
  readComments(connection: PublishableConnection, post: PostedRef, ctx: CommentsContext): Promise<PostComments>;
  reply?(connection: PublishableConnection, target: ReplyTarget, text: string, ctx: CommentsContext): Promise<PostedComment>;
  /** Hides (or shows again) a comment from the public. */
  hide?(connection: PublishableConnection, comment: CommentRef, hidden: boolean, ctx: CommentsContext): Promise<void>;
  delete?(connection: PublishableConnection, comment: CommentRef, ctx: CommentsContext): Promise<void>;
  like?(connection: PublishableConnection, comment: CommentRef, ctx: CommentsContext): Promise<void>;
}

/** The actions a client implements, for comparison with the catalogue. */
export function implementedCommentActions(client: CommentsClient): string[] {
  return ['read', ...(['reply', 'hide', 'delete', 'like'] as const).filter((a) => typeof client[a] === 'function')];
}

/** A date from a network's timestamp (ISO string or seconds), or `fallback` when unreadable. */
export function networkDate(value: unknown, fallback: Date): Date {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value < 1e12 ? value * 1000 : value);
  if (typeof value === 'string' && value) {
    const d = new Date(/^\d+$/.test(value) ? Number(value) * 1000 : value);
    if (!Number.isNaN(d.getTime())) return d;
  }
  return fallback;
}

/** Platforms whose comments a client reads (filled by comments-clients.ts). */
export type CommentsClients = Partial<Record<Platform, CommentsClient>>;
