// Which messages and reviews clients serve a connection: the sandbox's for provider `sandbox`,
// the network's otherwise. A network whose catalogue offers no messages (or reviews) has no
// client: nothing is read, an answer is refused with the catalogue's reason. Adding one is a
// file in its folder and a line here.
import type { Platform } from '@/server/shared/platforms';
import type { MessagesClient, MessagesClients, ReviewsClient, ReviewsClients } from './conversations';
import { sandboxMessagesClient, sandboxReviewsClient } from './sandbox/sandbox-conversations';
import { createFacebookReviewsClient } from './facebook/facebook-reviews';
import { createFacebookMessagesClient } from './facebook/facebook-messages';
import { createInstagramMessagesClient } from './instagram/instagram-messages';
import { createInstagramLoginMessagesClient } from './instagram_login/instagram-login-messages';
import { createTwitterMessagesClient } from './twitter/twitter-messages';
import { createBlueskyMessagesClient } from './bluesky/bluesky-messages';
import { createGoogleBusinessReviewsClient } from './google_business/google-business-reviews';

export const liveMessagesClients: MessagesClients = {
  facebook: createFacebookMessagesClient(),
  instagram: createInstagramMessagesClient(),
  instagram_login: createInstagramLoginMessagesClient(),
  twitter: createTwitterMessagesClient(),
  bluesky: createBlueskyMessagesClient(),
};

export const liveReviewsClients: ReviewsClients = {
  google_business: createGoogleBusinessReviewsClient(),
  facebook: createFacebookReviewsClient(),
};

export const platformsWithMessages = (): Platform[] => Object.keys(liveMessagesClients) as Platform[];
export const platformsWithReviews = (): Platform[] => Object.keys(liveReviewsClients) as Platform[];

export function messagesClientFor(connection: { provider: string; platform: Platform }): MessagesClient | null {
  if (connection.provider === 'sandbox') return sandboxMessagesClient(connection.platform);
  return liveMessagesClients[connection.platform] ?? null;
}

export function reviewsClientFor(connection: { provider: string; platform: Platform }): ReviewsClient | null {
  if (connection.provider === 'sandbox') return sandboxReviewsClient(connection.platform);
  return liveReviewsClients[connection.platform] ?? null;
}
