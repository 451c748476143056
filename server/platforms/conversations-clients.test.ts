// The messages and reviews registries and the catalogue say the same thing: a network whose
// catalogue offers reading messages (or reviews) has a live client, and only those; a demo
// account has one exactly where its network does, so the inbox never reads what the network
// would not give.
import { describe, expect, it } from 'vitest';
import { PLATFORMS } from '@/server/shared/platforms';
import { messagesOf, reviewsOf } from './catalogue';
import { offered } from './catalogue/conversations';
import { liveMessagesClients, liveReviewsClients, messagesClientFor, reviewsClientFor } from './conversations-clients';

describe('messages and reviews clients', () => {
  it('exist live for exactly the networks whose catalogue offers reading them', () => {
    expect(Object.keys(liveMessagesClients).sort()).toEqual(PLATFORMS.filter((p) => offered(messagesOf(p).read)).sort());
    expect(Object.keys(liveReviewsClients).sort()).toEqual(PLATFORMS.filter((p) => offered(reviewsOf(p).read)).sort());
  });

  it.each(PLATFORMS)('%s: a demo account has a client exactly where its network does', (platform) => {
    expect(messagesClientFor({ provider: 'sandbox', platform }) !== null).toBe(offered(messagesOf(platform).read));
    expect(reviewsClientFor({ provider: 'sandbox', platform }) !== null).toBe(offered(reviewsOf(platform).read));
  });
});
