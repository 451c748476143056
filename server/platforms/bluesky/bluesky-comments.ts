// Bluesky comments: the replies under the account's own posts, read from the thread the AppView
// builds (asked through the account's PDS), and the reply, hide and like the catalogue offers.
//
// Sources:
//   https://docs.bsky.app/docs/api/app-bsky-feed-get-post-thread
//     GET /xrpc/app.bsky.feed.getPostThread?uri=<at-uri>&depth=<0..1000>&parentHeight=<0..1000>
//     → { thread: threadViewPost | notFoundPost | blockedPost, threadgate?: threadgateView }
//     threadViewPost: { post: postView, parent?, replies?: (threadViewPost | notFoundPost | blockedPost)[] }
//     notFoundPost { uri, notFound: true } is a deleted reply; blockedPost { uri, blocked: true }
//     one the viewer may not see. A post that is gone answers 400 { error: "NotFound" }.
//   https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/defs.json (postView,
//     threadgateView { uri, cid, record }) and …/feed/post.json (record.reply.root/parent strong refs)
//   https://docs.bsky.app/docs/api/app-bsky-feed-get-posts (the cid a strong ref needs)
//   https://docs.bsky.app/docs/api/com-atproto-repo-create-record (a reply: app.bsky.feed.post with
//     reply { root, parent }; a like: app.bsky.feed.like with subject { uri, cid })
//   https://docs.bsky.app/docs/api/com-atproto-repo-put-record and …/feed/threadgate.json (the
//     threadgate: record key = the root post's, hiddenReplies at most 300 at-uris, allow kept as is;
//     swapRecord so a concurrent change is not overwritten)
//   https://docs.bsky.app/docs/api/com-atproto-repo-get-record (the current threadgate; 400
//     RecordNotFound when there is none; read when getPostThread leaves the threadgate out, which
//     it does at times: https://github.com/bluesky-social/atproto/issues/3153)
//
// Comment ids are at-uris; parentId is the reply's record.reply.parent.uri (null when it answers
// the post). Bluesky posts cannot be edited, so there is no editedAt. A deleted reply (notFoundPost)
// is left out, its replies keep their parentId; a blocked one makes the list incomplete, as does a
// reply whose own replies the AppView did not include. Record keys of a reply and of a like are
// derived (bluesky-richtext.ts recordKeyFor) from ctx.idempotencyKey and from the liked uri, so a
// retry meets the record already written instead of writing a second one.
import { randomUUID } from 'node:crypto';
import { callApi, defaultFetch, isSuccess, jsonString, withQuery, type AdapterOptions, type ApiResponse } from '../http';
import { networkDate, type CommentsClient, type NetworkComment } from '../comments';
import { PlatformError, TokenExpiredError, type PublishableConnection, type TokenStore } from '../publisher';
import { withAccessToken } from '../token-refresh';
import { blueskyError, blueskyRefresher, blueskyRetryAfter, xrpcClient, type XrpcClient } from './bluesky-api';
import { accountOf } from './bluesky-publisher';
import { detectFacets, recordKeyFor } from './bluesky-richtext';
import { GONE, replyRefs, strongRef, type PostView } from './bluesky-refs';

const MAX_DEPTH = '1000';
const MAX_HIDDEN_REPLIES = 300;
interface ThreadNode {
  post?: PostView;
  replies?: ThreadNode[];
  notFound?: boolean;
  blocked?: boolean;
}

interface Account {
  did: string;
  handle: string;
  pds: string;
}

interface Session {
  account: Account;
  api: XrpcClient;
  /** A query whose refusal the caller reads itself (NotFound, RecordNotFound). */
  get(nsid: string, params: Record<string, string>): Promise<ApiResponse>;
}

export function createBlueskyCommentsClient(options: AdapterOptions = {}): CommentsClient {
  /** Runs `call` with the account's PDS and a usable access JWT (refreshed when refused). */
  const session = <T>(connection: PublishableConnection, tokens: TokenStore, call: (s: Session) => Promise<T>): Promise<T> => {
    const fetch = options.fetch ?? defaultFetch();
    // Each account lives on its own PDS: options.baseUrl (tests) stands in for it.
    const account = accountOf(connection, options.baseUrl);
    return withAccessToken(connection, blueskyRefresher(fetch, account.pds, options.timeoutMs), tokens, (accessJwt) =>
      call({
        account,
        api: xrpcClient(fetch, account.pds, accessJwt, options.timeoutMs),
        get: (nsid, params) =>
          callApi(fetch, withQuery(`${account.pds}/xrpc/${nsid}`, params), {
            headers: { authorization: `Bearer ${accessJwt}` },
            timeoutMs: options.timeoutMs,
            retryAfter: blueskyRetryAfter,
          }),
      }),
    );
  };

  return {
    source: 'bluesky',

    readComments: (connection, post, { tokens, now }) =>
      session(connection, tokens, async ({ account, get }) => {
        const response = await get('app.bsky.feed.getPostThread', { uri: post.postedId, depth: MAX_DEPTH, parentHeight: '0' });
        if (!isSuccess(response)) {
          if (jsonString(response.json, 'error') === 'NotFound') return { ok: false, reason: jsonString(response.json, 'message') || GONE };
          throw blueskyError(response);
        }
        const body = response.json as { thread?: ThreadNode; threadgate?: { record?: Record<string, unknown> } } | null;
        const root = body?.thread;
        if (!root?.post) return { ok: false, reason: root?.blocked ? 'Bluesky reports this post blocked for the account' : GONE };

        // The AppView does not always include the threadgate (atproto issue #3153): the account's
        // own repository has the record itself.
        const gate = body?.threadgate?.record ?? (await threadgate(get, account.did, post.postedId)).value;
        const hidden = new Set(hiddenRepliesOf(gate));
        const comments: NetworkComment[] = [];
        let complete = true;
        const walk = (node: ThreadNode, treeParent: string) => {
          if (node.post?.replyCount && node.replies === undefined) complete = false; // below the depth asked
          for (const child of node.replies ?? []) {
            if (child.blocked) complete = false;
            const view = child.post;
            if (!view?.uri) continue; // deleted (notFoundPost) or blocked: nothing to show
            const parent = view.record?.reply?.parent?.uri ?? treeParent;
            comments.push(commentOf(view, parent === post.postedId ? null : parent, account, hidden, now));
            walk(child, view.uri);
          }
        };
        walk(root, post.postedId);
        return { ok: true, comments, complete };
      }),

    reply: (connection, target, text, { tokens, idempotencyKey }) =>
      session(connection, tokens, async ({ account, api }) => {
        const reply = await replyRefs(api, target.commentId ?? target.postedId);
        const rkey = recordKeyFor(idempotencyKey ?? randomUUID());
        const facets = await detectFacets(text, async (handle) => {
          try {
            return jsonString((await api.query('com.atproto.identity.resolveHandle', { handle })).json, 'did') ?? null;
          } catch (error) {
            if (error instanceof TokenExpiredError) throw error;
            return null;
          }
        });
        const record = {
          $type: 'app.bsky.feed.post',
          text,
          createdAt: new Date().toISOString(),
          reply,
          ...(facets.length ? { facets } : {}),
        };
        await createOnce(api, account.did, 'app.bsky.feed.post', rkey, record);
        return { id: `at://${account.did}/app.bsky.feed.post/${rkey}`, permalink: `https://bsky.app/profile/${account.handle}/post/${rkey}` };
      }),

    hide: (connection, { postedId, commentId }, hidden, { tokens }) =>
      session(connection, tokens, async ({ account, api, get }) => {
        // The threadgate shares its record key with the thread's root post: the published post.
        const rkey = rkeyOf(postedId);
        const { value: current, cid } = await threadgate(get, account.did, postedId);
        const listed = hiddenRepliesOf(current);
        if (listed.includes(commentId) === hidden) return;
        const hiddenReplies = hidden ? [...listed, commentId] : listed.filter((uri) => uri !== commentId);
        if (hiddenReplies.length > MAX_HIDDEN_REPLIES) throw new PlatformError(`Bluesky hides at most ${MAX_HIDDEN_REPLIES} replies under one post`);
        await api.procedure('com.atproto.repo.putRecord', {
          repo: account.did,
          collection: 'app.bsky.feed.threadgate',
          rkey,
          // Whatever else the threadgate says (who may reply: allow) stays as it is.
          record: { ...current, $type: 'app.bsky.feed.threadgate', post: postedId, createdAt: current?.createdAt ?? new Date().toISOString(), hiddenReplies },
          ...(cid ? { swapRecord: cid } : {}),
        });
      }),

    like: (connection, { commentId }, { tokens }) =>
      session(connection, tokens, async ({ account, api }) => {
        const liked = await strongRef(api, commentId);
        const record = { $type: 'app.bsky.feed.like', subject: liked.ref, createdAt: new Date().toISOString() };
        await createOnce(api, account.did, 'app.bsky.feed.like', recordKeyFor(`like:${commentId}`), record);
      }),
  };
}

function commentOf(view: PostView, parentId: string | null, account: Account, hidden: Set<string>, now: Date): NetworkComment {
  const uri = view.uri!;
  const author = view.author ?? {};
  const handle = author.handle && author.handle !== 'handle.invalid' ? author.handle : null;
  return {
    id: uri,
    parentId,
    authorId: author.did ?? null,
    authorName: author.displayName?.trim() || handle || author.did || 'Bluesky account',
    authorHandle: handle ? `@${handle}` : null,
    authorAvatarUrl: author.avatar ?? null,
    text: view.record?.text ?? '',
    createdAt: networkDate(view.record?.createdAt, networkDate(view.indexedAt, now)),
    permalink: `https://bsky.app/profile/${handle ?? author.did}/post/${rkeyOf(uri)}`,
    hidden: hidden.has(uri),
    fromAccount: author.did === account.did,
  };
}

const rkeyOf = (uri: string) => uri.split('/').pop() ?? '';

/** The post's threadgate record in the account's repository (it shares the post's record key), if any. */
async function threadgate(get: Session['get'], did: string, postedId: string): Promise<{ value: Record<string, unknown> | null; cid?: string }> {
  const found = await get('com.atproto.repo.getRecord', { repo: did, collection: 'app.bsky.feed.threadgate', rkey: rkeyOf(postedId) });
  if (isSuccess(found)) return { value: (found.json as { value?: Record<string, unknown> } | null)?.value ?? null, cid: jsonString(found.json, 'cid') };
  if (jsonString(found.json, 'error') === 'RecordNotFound') return { value: null };
  throw blueskyError(found);
}

function hiddenRepliesOf(gate: { hiddenReplies?: unknown } | null | undefined): string[] {
  return Array.isArray(gate?.hiddenReplies) ? gate.hiddenReplies.filter((u): u is string => typeof u === 'string') : [];
}

/**
 * createRecord under a derived record key. A PDS refuses a taken key (its wording varies): when
 * an earlier attempt wrote the record, that record is the outcome.
 */
async function createOnce(api: XrpcClient, did: string, collection: string, rkey: string, record: Record<string, unknown>): Promise<void> {
  try {
    await api.procedure('com.atproto.repo.createRecord', { repo: did, collection, rkey, record });
  } catch (error) {
    if (error instanceof TokenExpiredError) throw error;
    const existing = await api.query('com.atproto.repo.getRecord', { repo: did, collection, rkey }).then(
      (r) => jsonString(r.json, 'uri'),
      () => undefined,
    );
    if (!existing) throw error;
  }
}
