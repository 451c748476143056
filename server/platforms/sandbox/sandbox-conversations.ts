// Demo (sandbox) messages and reviews: filled in below.
import type { Platform } from '@/server/shared/platforms';
import type { MessagesClient, ReviewsClient } from '../conversations';

export function sandboxMessagesClient(_platform: Platform): MessagesClient | null {
  return null;
}

export function sandboxReviewsClient(_platform: Platform): ReviewsClient | null {
  return null;
}
