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

/** Clocks differ: a post the network dates up to this long before the attempt began may still be its own. */
export const CLOCK_SLACK_MS = 60_000;

/**
 * Whether a post the network returned is the one this attempt sent: created no earlier than a
 * minute before the attempt began (clocks differ) and with the same text, compared without
 * the whitespace and link rewriting networks apply (a shortened link, a trailing newline).
 */
export function matchesIntent(
  intent: Pick<AttemptIntent, 'content' | 'startedAt'>,
  post: { text: string | null | undefined; createdAt: Date | null },
): boolean {
  if (post.createdAt && post.createdAt.getTime() < intent.startedAt.getTime() - CLOCK_SLACK_MS) return false;
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

/** How a network's list of recent posts is named in the evidence a person reads. */
export interface RecentPostsWording {
  /** The posts as a kind, e.g. "LinkedIn posts", "pins on board 123". */
  kind: string;
  /** The posts read, given how many: e.g. n => `the author's ${n} LinkedIn posts`. */
  items: (count: string) => string;
  /** What was compared, e.g. "commentary", "summary and topic". */
  sent: string;
}

/**
 * Settles an attempt from the account's recent posts as the network listed them, newest created
 * first, of which `matching` carry what the attempt sent: exactly one is found; several are for
 * a person to tell apart; none is absent when the list ended (`listEnded`: the network said so,
 * or the reader stopped at a post older than the attempt), or when the posts reached back past
 * the attempt's start (so the post would have been among those read); otherwise unknown, since
 * the post may be among those not read.
 */
export function settleFromRecentPosts<P extends { createdAt: Date | null }>(args: {
  intent: Pick<AttemptIntent, 'startedAt'>;
  posts: readonly P[];
  matching: readonly P[];
  listEnded: boolean;
  idOf: (post: P) => string;
  found: (post: P, since: string) => { result: PublishResult; evidence: string };
  wording: RecentPostsWording;
}): Reconciled {
  const { intent, posts, matching, wording } = args;
  const since = intent.startedAt.toISOString();
  if (matching.length === 1) return { outcome: 'found', ...args.found(matching[0]!, since) };
  if (matching.length > 1) {
    return {
      outcome: 'unknown',
      evidence: `${matching.length} ${wording.kind} created since the attempt began (${since}) carry the ${wording.sent} sent: ${matching.map(args.idOf).join(', ')}; a person must tell which is this one`,
    };
  }
  if (args.listEnded || reachedBack(posts, intent.startedAt)) {
    if (!posts.length) return { outcome: 'absent', evidence: `There are no ${wording.kind} at all: the attempt begun ${since} created none` };
    const oldest = posts.at(-1)!.createdAt;
    return {
      outcome: 'absent',
      evidence: `None of ${wording.items(`${posts.length} most recent`)}${oldest ? ` (read back to ${oldest.toISOString()})` : ''} carries the ${wording.sent} sent by the attempt begun ${since}`,
    };
  }
  return {
    outcome: 'unknown',
    evidence: `None of ${wording.items(String(posts.length))} read carries the ${wording.sent} sent, but they do not reach back to the attempt's start (${since}); older ones were not read`,
  };
}

/** Whether the posts, newest created first, went back past the attempt's start (the order is checked, not assumed). */
function reachedBack(posts: readonly { createdAt: Date | null }[], startedAt: Date): boolean {
  const times = posts.map((p) => p.createdAt?.getTime() ?? Number.NaN);
  if (times.some(Number.isNaN) || times.some((t, i) => i > 0 && t > times[i - 1]!)) return false;
  return times.length > 0 && times.at(-1)! < startedAt.getTime() - CLOCK_SLACK_MS;
}
