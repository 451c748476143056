// Sandbox accounts publish in-process, without network, so demos and tests show every
// outcome end to end. Behaviour per connection (Connection.sandboxBehavior):
//   ok             → a platform-style post id after a realistic short delay, and a permalink
//                    to Herald's own page of the demo post (never the real network's address)
//   rejects_posts  → fails with a platform-style error text
//   expired        → refused before publishing (token expired)
// SANDBOX_LOST_ANSWERS_PERCENT makes a demo network lose the answer to some of the posts it
// accepted, as a deadline would (the chaos run's second mode).
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEMO_POST_PATH } from '@/server/shared/demo-post';
import type { Platform } from '@/server/shared/platforms';
import {
  PlatformError,
  TokenExpiredError,
  type PublishableConnection,
  type PublishContext,
  type PublishRequest,
  type PublishResult,
  type Publisher,
} from '../publisher';
import { env } from '@/server/config/env';
import { OutboundFailedError } from '@/server/outbound';
import { catalogueEntry } from '../catalogue';

export const SANDBOX_BEHAVIOURS = ['ok', 'rejects_posts', 'expired'] as const;
export type SandboxBehaviour = (typeof SANDBOX_BEHAVIOURS)[number];

/** Platform-style refusals, worded as each platform's API words them. */
const REJECTIONS: Record<Platform, string> = {
  linkedin: 'Content is a duplicate of urn:li:share:7010000000000000000 (422 DUPLICATE_POST)',
  twitter: 'You are not allowed to create a Tweet with duplicate content. (403)',
  facebook: '(#200) The user hasn\u2019t authorized the application to perform this action',
  instagram: 'The media could not be fetched from this URI (code 9004, subcode 2207052)',
  threads: 'Param text must be at most 500 characters long. (code 100)',
  tiktok: 'spam_risk_too_many_posts: The user has posted too many times in the last 24 hours',
  youtube: 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
  google_business: 'Request contains an invalid argument. (summary: The post contains a phone number, which is not allowed)',
  pinterest: 'Sorry! We blocked this link because it may lead to spam. (code 2783)',
  reddit: "SUBREDDIT_NOEXIST: that subreddit doesn't exist",
  telegram: 'Bad Request: message caption is too long',
  discord: 'Invalid Form Body (content: Must be 2000 or fewer in length.)',
  slack: 'invalid_blocks',
  mastodon: 'Validation failed: Text character limit of 500 exceeded',
  bluesky: 'Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes',
  devto: 'Tag list exceed the maximum of 4 tags',
  ghost: 'Validation error, cannot save post. Value in [posts.title] exceeds maximum length of 255 characters.',
  lemmy: 'couldnt_create_post',
  listmonk: 'Invalid length for `subject`',
  instagram_login: 'The aspect ratio is not supported. (code 36003, subcode 2207009)',
  hashnode: 'Publication does not have an active Pro plan. Upgrade in your dashboard to access this via the API.',
  medium: 'Required fields were invalid, not specified.',
  wordpress: 'Sorry, you are not allowed to publish posts as this user.',
  tumblr: "'content' must be an array'",
  nostr: 'wss://relay.example: blocked: you are banned from posting here',
  wordpress_com: 'Sorry, you are not allowed to publish posts as this user.',
  vk: 'Access to adding post denied',
  twitch: 'Your message is identical to the one you sent within the last 30 seconds.',
  kick: 'content: must be no more than 500 characters',
  dribbble: 'Validation failed: image must be exactly 400x300 or 1600x1200',
  farcaster: 'Text is too long (text)',
};

/**
 * Where a demo post can be seen: a page of Herald's that shows the demo post, never an address
 * on the real network (it would open someone else's account, or nothing). Null where the real
 * network gives no link either (a Slack incoming webhook answers "ok" and nothing else).
 */
export function sandboxPermalink(platform: Platform, postedId: string): string | null {
  if (platform === 'slack') return null;
  return `${env.baseUrl()}${DEMO_POST_PATH}/${platform}/${encodeURIComponent(postedId)}`;
}

function latencyMs(): number {
  return env.sandboxLatencyMs() ?? 120 + Math.floor(Math.random() * 280);
}

function postId(platform: Platform): string {
  // Numeric ids like the platforms', except LinkedIn's URN-ish and the shortcodes of
  // Instagram and YouTube (11 characters of base64url).
  if (platform === 'instagram' || platform === 'instagram_login' || platform === 'youtube') return randomBytes(8).toString('base64url').slice(0, 11);
  // A cast is named by its hash: 0x and 40 hex digits.
  if (platform === 'farcaster') return `0x${randomBytes(20).toString('hex')}`;
  return (BigInt('0x' + randomBytes(7).toString('hex')) + 1_000_000_000_000_000n).toString();
}

/**
 * A demo publish: the request travels (half the latency), the demo network accepts the post
 * (recorded in its memory, the context's `sandbox`, and in the chaos run's journal), and the
 * answer travels back (the other half). A crash on the way back leaves a post the demo network
 * has and Herald has not recorded, as on a real network.
 */
export const sandboxPublisher: Publisher = {
  async publish(connection: PublishableConnection, request: PublishRequest, context: PublishContext): Promise<PublishResult> {
    const behaviour = (connection.sandboxBehavior ?? 'ok') as SandboxBehaviour;
    if (behaviour === 'expired') {
      throw new TokenExpiredError('Error validating access token: Session has expired (code 190, subcode 463)');
    }
    const latency = latencyMs();
    await sleep(latency / 2);
    if (behaviour === 'rejects_posts') throw new PlatformError(REJECTIONS[connection.platform], { status: 422 });
    const id = postId(connection.platform);
    let result: PublishResult = { postedId: id, permalink: sandboxPermalink(connection.platform, id) };
    if (context.sandbox && request.idempotencyKey) {
      // A network that takes a key answers a repeat with the post it made (Mastodon, Bluesky);
      // any other makes a second post, kept apart (the first is what asking finds).
      const idempotent = 'idempotent' in catalogueEntry(connection.platform).reconcile;
      const existing = await context.sandbox.find(connection.id, request.idempotencyKey);
      const key = existing && !idempotent ? `${request.idempotencyKey}#${id}` : request.idempotencyKey;
      const kept = await context.sandbox.receive({ connectionId: connection.id, idempotencyKey: key, ...result });
      result = { postedId: kept.postedId, permalink: kept.permalink };
    }
    const journal = env.sandboxJournal();
    if (journal) {
      // One line per post the demo network accepted, written synchronously so it survives
      // kill -9: the same content twice on one account would be a post published twice; a
      // thread's part names the post it answers.
      const content = createHash('sha256').update(request.content).digest('hex').slice(0, 16);
      appendFileSync(
        journal,
        `${JSON.stringify({ connectionId: connection.id, content, postedId: result.postedId, replyTo: request.replyTo ?? null, at: new Date().toISOString() })}\n`,
      );
    }
    await sleep(latency / 2);
    if (Math.random() * 100 < env.sandboxLostAnswersPercent()) {
      // The answer lost on its way back, as a deadline loses it: the post is on the demo
      // network, and Herald must ask to learn it (SANDBOX_LOST_ANSWERS_PERCENT).
      throw new OutboundFailedError('timeout', `${catalogueEntry(connection.platform).label} (demo) did not answer within ${latency} ms.`, {
        requestMayHaveArrived: true,
      });
    }
    return result;
  },
};
