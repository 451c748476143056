// The reconcile port: how an interrupted publish is settled by asking the network what
// happened, instead of leaving a person to look. An attempt is interrupted when Herald crashed,
// lost its lease or timed out after the request left: the network may or may not have the post.
//
// Each network's catalogue entry says which of three classes it is in (`delivery.reconcile`,
// catalogue/reconcile.ts): `idempotent` (sending again with the same key cannot duplicate:
// Mastodon's Idempotency-Key, Bluesky's record key derived from the target), `ask` (the network
// can be asked: a container or upload status, or the account's own recent posts matched on
// what was sent), or `none` (it cannot be asked; the reason is stated). A network in the first
// two classes has a reconciler (`<network>-reconcile.ts`, listed in reconcilers.ts).
//
// A reconciler never creates anything: it reads. It answers `found` (the post is there: its id
// and permalink, and what proved it), `absent` (the network says it is not there: sending again
// is safe), or `unknown` (the network could not be asked or did not answer in time: a person
// decides, with the evidence). A refused token is `unknown` with the network's words: the
// account needs reconnecting before anything else.
import type { PublishableConnection, PublishContext, PublishResult } from './publisher';

/**
 * What Herald recorded before the platform call (the attempt's intent), so a crash at any
 * instant leaves enough to settle the attempt.
 */
export interface AttemptIntent {
  /** The target's id: the key every attempt of this target hands the network where it takes one. */
  idempotencyKey: string;
  /** The text as it was sent to this network (the variant, when there is one). */
  content: string;
  mediaUrls: readonly string[];
  /** The post's platformSettings for this network. */
  settings: Readonly<Record<string, unknown>>;
  /** When the interrupted attempt began: a post the network created before it is not this one. */
  startedAt: Date;
  /**
   * What the adapter recorded while publishing, before the call that creates the post (a media
   * container's id, a resumable upload's session address), where the network has one.
   */
  checkpoint?: Readonly<Record<string, string>>;
}

export type Reconciled =
  /** The network has the post: settle the target published with it. */
  | { outcome: 'found'; result: PublishResult; evidence: string }
  /** The network says the post is not there: one more attempt (with the same key) is safe. */
  | { outcome: 'absent'; evidence: string }
  /** Herald cannot tell: a person decides, with this evidence. */
  | { outcome: 'unknown'; evidence: string };

export interface ReconcileContext extends PublishContext {
  now: Date;
}

export interface Reconciler {
  reconcile(connection: PublishableConnection, intent: AttemptIntent, ctx: ReconcileContext): Promise<Reconciled>;
}

/** How many of the account's recent posts a reconciler reads at most when it matches on content. */
export const RECENT_POSTS_TO_READ = 50;

/**
 * Whether a post the network returned is the one this attempt sent: created no earlier than a
 * minute before the attempt began (clocks differ) and with the same text, compared without
 * the whitespace and link rewriting networks apply (a shortened link, a trailing newline).
 */
export function matchesIntent(
  intent: Pick<AttemptIntent, 'content' | 'startedAt'>,
  post: { text: string | null | undefined; createdAt: Date | null },
): boolean {
  if (post.createdAt && post.createdAt.getTime() < intent.startedAt.getTime() - 60_000) return false;
  return normaliseText(post.text ?? '') === normaliseText(intent.content);
}

/** Text as networks return it, made comparable: links dropped (networks rewrite them), whitespace collapsed. */
export function normaliseText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/https?:\/\/\S+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
