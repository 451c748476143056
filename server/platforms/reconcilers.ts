// Which reconciler settles an interrupted publish to a live account (reconcile.ts): one per
// network whose catalogue entry says it can be asked or is idempotent; none where it says the
// network cannot be asked (a person decides, with what Herald recorded). Adding one is a file
// in the network's folder and a line here; reconcilers.test.ts holds this list to the catalogue.
import type { Platform } from '@/server/shared/platforms';
import type { Reconciler } from './reconcile';
import { sandboxReconciler } from './sandbox/sandbox-reconcile';
import { createBlueskyReconciler } from './bluesky/bluesky-reconcile';
import { createDevtoReconciler } from './devto/devto-reconcile';
import { createGhostReconciler } from './ghost/ghost-reconcile';
import { createHashnodeReconciler } from './hashnode/hashnode-reconcile';
import { createWordpressReconciler } from './wordpress/wordpress-reconcile';
import { createWordpressComReconciler } from './wordpress_com/wordpress-com';
import { createFacebookReconciler } from './facebook/facebook-reconcile';
import { createGoogleBusinessReconciler } from './google_business/google-business-reconcile';
import { createInstagramReconciler } from './instagram/instagram-reconcile';
import { createInstagramLoginReconciler } from './instagram_login/instagram-login';
import { createLinkedInReconciler } from './linkedin/linkedin-reconcile';
import { createMastodonReconciler } from './mastodon/mastodon-reconcile';
import { createLemmyReconciler } from './lemmy/lemmy-reconcile';
import { createListmonkReconciler } from './listmonk/listmonk-reconcile';
import { createTumblrReconciler } from './tumblr/tumblr-reconcile';
import { createNostrReconciler } from './nostr/nostr-reconcile';
import { createVkReconciler } from './vk/vk-reconcile';
import { createDribbbleReconciler } from './dribbble/dribbble-reconcile';
import { createFarcasterReconciler } from './farcaster/farcaster-reconcile';
import { createPinterestReconciler } from './pinterest/pinterest-reconcile';
import { createRedditReconciler } from './reddit/reddit-reconcile';
import { createThreadsReconciler } from './threads/threads-reconcile';
import { createTikTokReconciler } from './tiktok/tiktok-reconcile';
import { createTwitterReconciler } from './twitter/twitter-reconcile';
import { createYouTubeReconciler } from './youtube/youtube-reconcile';

export const liveReconcilers: Partial<Record<Platform, Reconciler>> = {
  instagram: createInstagramReconciler(),
  facebook: createFacebookReconciler(),
  threads: createThreadsReconciler(),
  linkedin: createLinkedInReconciler(),
  pinterest: createPinterestReconciler(),
  google_business: createGoogleBusinessReconciler(),
  tiktok: createTikTokReconciler(),
  twitter: createTwitterReconciler(),
  youtube: createYouTubeReconciler(),
  bluesky: createBlueskyReconciler(),
  mastodon: createMastodonReconciler(),
  reddit: createRedditReconciler(),
  devto: createDevtoReconciler(),
  ghost: createGhostReconciler(),
  instagram_login: createInstagramLoginReconciler(),
  lemmy: createLemmyReconciler(),
  listmonk: createListmonkReconciler(),
  hashnode: createHashnodeReconciler(),
  wordpress: createWordpressReconciler(),
  wordpress_com: createWordpressComReconciler(),
  tumblr: createTumblrReconciler(),
  nostr: createNostrReconciler(),
  vk: createVkReconciler(),
  dribbble: createDribbbleReconciler(),
  farcaster: createFarcasterReconciler(),
};

/** The reconciler of a connection: the demo network's for a demo account, the network's otherwise (null: it cannot be asked). */
export function reconcilerFor(connection: { provider: string; platform: Platform }): Reconciler | null {
  if (connection.provider === 'sandbox') return sandboxReconciler;
  return liveReconcilers[connection.platform] ?? null;
}
