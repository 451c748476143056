// What a reply or a like on Bluesky must name: a post's strong ref (its at-uri and cid), read
// with app.bsky.feed.getPosts, and for a reply the thread's root as well. Shared by the
// comments client (replies, likes) and the publisher (a thread's later parts).
//   https://docs.bsky.app/docs/advanced-guides/posts#replies
//   https://docs.bsky.app/docs/api/app-bsky-feed-get-posts
import { PlatformError } from '../publisher';
import type { XrpcClient } from './bluesky-api';

export const GONE = 'Bluesky did not return this post (deleted, or not visible to the account)';

export interface Author {
  did?: string;
  handle?: string;
  displayName?: string;
  avatar?: string;
}

export interface PostView {
  uri?: string;
  cid?: string;
  author?: Author;
  record?: { text?: string; createdAt?: string; reply?: { root?: StrongRef; parent?: StrongRef } };
  indexedAt?: string;
  replyCount?: number;
}

export interface StrongRef {
  uri?: string;
  cid?: string;
}

/** The post's view and its strong ref (uri + cid), which a reply or like must name. */
export async function strongRef(api: XrpcClient, uri: string): Promise<{ view: PostView; ref: { uri: string; cid: string } }> {
  const posts = (((await api.query('app.bsky.feed.getPosts', { uris: uri })).json as { posts?: PostView[] } | null)?.posts ?? []) as PostView[];
  const view = posts.find((p) => p.uri === uri);
  if (!view?.cid) throw new PlatformError(GONE, { status: 404 });
  return { view, ref: { uri, cid: view.cid } };
}

/** The `reply` of a post answering `uri`: its strong ref as the parent, and the thread's root (the parent itself when it answers nothing). */
export async function replyRefs(api: XrpcClient, uri: string): Promise<{ root: { uri: string; cid: string }; parent: { uri: string; cid: string } }> {
  const parent = await strongRef(api, uri);
  const root = parent.view.record?.reply?.root;
  return { root: root?.uri && root.cid ? { uri: root.uri, cid: root.cid } : parent.ref, parent: parent.ref };
}
