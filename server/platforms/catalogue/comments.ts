// What each network lets an app do with the comments under the account's own published posts:
// read them, reply, hide, delete and like. Part of each network's catalogue entry (`comments`),
// so the inbox, its API and its screen read one table: an action a network does not offer is
// `none` with why (the screen's tooltip, the API's refusal), one it offers names the call and
// the documentation page it follows. docs/inbox.md shows the same table (comments.test.ts
// keeps the two in step).

export const COMMENT_ACTIONS = ['read', 'reply', 'hide', 'delete', 'like'] as const;
export type CommentAction = (typeof COMMENT_ACTIONS)[number];

/**
 * One action on one network: the network's call and its documentation page (and what limits
 * it), or why an app cannot. On `reply`, `maxChars` is the network's documented limit for a
 * reply's text, where it is known (counted the post's way, catalogue `text.count`).
 */
export type CommentCapability = { call: string; docs: string; note?: string; maxChars?: number } | { none: string };

export type NetworkComments = Record<CommentAction, CommentCapability>;

/** A network that offers an app no comments at all: every action `none` for one reason. */
export function noComments(reason: string): NetworkComments {
  return Object.fromEntries(COMMENT_ACTIONS.map((a) => [a, { none: reason }])) as NetworkComments;
}

/** The actions a network offers, in the canonical order. */
export function offeredCommentActions(comments: NetworkComments): CommentAction[] {
  return COMMENT_ACTIONS.filter((a) => 'call' in comments[a]);
}
