// The comments registry and the catalogue say the same thing: a network whose catalogue offers
// reading comments has a live client (and only those), and every client, live or demo,
// implements exactly the actions its catalogue entry offers, so the inbox never shows a button
// the network would refuse nor hides one it allows.
import { describe, expect, it } from 'vitest';
import { PLATFORMS } from '@/server/shared/platforms';
import { PLATFORM_CATALOGUE } from './catalogue';
import { offeredCommentActions } from './catalogue/comments';
import { implementedCommentActions } from './comments';
import { commentsClientFor, liveCommentsClients } from './comments-clients';

describe('comments clients', () => {
  it('exist for exactly the networks whose catalogue offers reading comments', () => {
    const readable = PLATFORMS.filter((p) => 'call' in PLATFORM_CATALOGUE[p].comments.read);
    expect(Object.keys(liveCommentsClients).sort()).toEqual([...readable].sort());
  });

  it.each(PLATFORMS)('%s: live and demo clients implement exactly the offered actions', (platform) => {
    const offered = offeredCommentActions(PLATFORM_CATALOGUE[platform].comments);
    for (const provider of ['live', 'sandbox']) {
      const client = commentsClientFor({ provider, platform });
      if (!offered.includes('read')) {
        expect(client, `${provider} ${platform}`).toBeNull();
        continue;
      }
      expect(implementedCommentActions(client!), `${provider} ${platform}`).toEqual(offered);
    }
  });
});
