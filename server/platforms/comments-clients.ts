// Which comments client serves a connection: the sandbox's for provider `sandbox`, the
// network's otherwise. A network whose catalogue offers no comments has no client (nothing is
// collected, every action is refused with the catalogue's reason); adding one is a file in its
// folder and a line here.
import type { Platform } from '@/server/shared/platforms';
import type { CommentsClient, CommentsClients } from './comments';
import { createBlueskyCommentsClient } from './bluesky/bluesky-comments';
import { createFacebookCommentsClient } from './facebook/facebook-comments';
import { createInstagramCommentsClient } from './instagram/instagram-comments';
import { createInstagramLoginCommentsClient } from './instagram_login/instagram-login';
import { createLinkedInCommentsClient } from './linkedin/linkedin-comments';
import { createMastodonCommentsClient } from './mastodon/mastodon-comments';
import { createRedditCommentsClient } from './reddit/reddit-comments';
import { sandboxCommentsClient } from './sandbox/sandbox-comments';
import { createThreadsCommentsClient } from './threads/threads-comments';
import { createTwitterCommentsClient } from './twitter/twitter-comments';
import { createYouTubeCommentsClient } from './youtube/youtube-comments';

export const liveCommentsClients: CommentsClients = {
  instagram: createInstagramCommentsClient(),
  facebook: createFacebookCommentsClient(),
  threads: createThreadsCommentsClient(),
  linkedin: createLinkedInCommentsClient(),
  twitter: createTwitterCommentsClient(),
  youtube: createYouTubeCommentsClient(),
  bluesky: createBlueskyCommentsClient(),
  mastodon: createMastodonCommentsClient(),
  reddit: createRedditCommentsClient(),
  instagram_login: createInstagramLoginCommentsClient(),
};

const sandboxClients = new Map<Platform, CommentsClient | null>();

/** The platforms whose live connections' comments are collected. */
export function platformsWithComments(): Platform[] {
  return Object.keys(liveCommentsClients) as Platform[];
}

export function commentsClientFor(connection: { provider: string; platform: Platform }): CommentsClient | null {
  if (connection.provider === 'sandbox') {
    if (!sandboxClients.has(connection.platform)) sandboxClients.set(connection.platform, sandboxCommentsClient(connection.platform));
    return sandboxClients.get(connection.platform) ?? null;
  }
  return liveCommentsClients[connection.platform] ?? null;
}
