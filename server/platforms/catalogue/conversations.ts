// What each network lets an app do with the account's direct messages and its reviews, and
// whether the network pushes them as they happen (its webhook) or Herald has to read them. Part
// of each network's catalogue entry (`messages`, `reviews`), like `comments`: the inbox, its API,
// its screen and docs/inbox.md read one table (conversations.test.ts keeps the page in step). A
// network without an entry offers neither, for the reason `noMessages`/`noReviews` give.
import type { CommentCapability } from './comments';

type Offered = { call: string; docs: string; note?: string };
type Capability = Offered | { none: string };

export interface NetworkMessages {
  /** Reading the account's conversations and their messages. */
  read: Capability;
  /**
   * Answering a conversation: the network's limit for the text, whether an image may ride with
   * it, and the network's reply window in hours after the customer's last message (Meta's 24
   * hours); null where the network has none.
   */
  reply: (Offered & { maxChars: number; images: boolean; windowHours: number | null }) | { none: string };
  /** The network's webhook for new messages (else Herald reads them every few minutes). */
  push: Capability;
}

export interface NetworkReviews {
  /** How the network rates: stars (1 to 5) or recommends / does not recommend. */
  scale: 'stars' | 'recommendation';
  read: Capability;
  /** Answering a review (one public answer per review where the network allows only one). */
  reply: (Offered & { maxChars: number }) | { none: string };
  /** Changing the answer. */
  editReply: Capability;
  /** Taking the answer down. */
  deleteReply: Capability;
  /** The network's notification of a new or changed review (else Herald reads them every 15 minutes). */
  push: Capability;
}

export const MESSAGE_ACTIONS = ['read', 'reply'] as const;
export const REVIEW_ACTIONS = ['read', 'reply', 'editReply', 'deleteReply'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

export const noMessages = (reason: string): NetworkMessages => ({ read: { none: reason }, reply: { none: reason }, push: { none: reason } });
export const noReviews = (reason: string): NetworkReviews => ({
  scale: 'stars',
  read: { none: reason },
  reply: { none: reason },
  editReply: { none: reason },
  deleteReply: { none: reason },
  push: { none: reason },
});

export const offered = (capability: Capability | CommentCapability): capability is Offered => 'call' in capability;

/** Meta's documented window: a Page or Instagram account answers within 24 hours of the person's last message. */
export const META_WINDOW_HOURS = 24;
