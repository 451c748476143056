// What a member reads on the Assistant screen instead of a staged call's raw JSON.
import { describe, expect, it } from 'vitest';
import { plainArguments } from './plain-arguments';

const accounts = new Map([
  ['c-1', 'Harbor Bakery (LinkedIn)'],
  ['c-2', 'Harbor Bakery (Instagram)'],
]);

describe('plainArguments', () => {
  it('names accounts, times in the workspace zone, flags and files in words', () => {
    expect(
      plainArguments(
        'posts_create',
        {
          content: 'Autumn menu',
          connectionIds: ['c-1', 'c-2', 'c-9'],
          scheduledAt: '2026-11-26T15:00:00.000Z',
          requireApproval: false,
          mediaIds: ['m-1', 'm-2'],
        },
        { accounts, timeZone: 'Europe/Berlin' },
      ),
    ).toEqual([
      { label: 'Text', value: 'Autumn menu' },
      { label: 'Accounts', value: 'Harbor Bakery (LinkedIn), Harbor Bakery (Instagram), an account not in this workspace (c-9)' },
      { label: 'When', value: 'Thu 26 Nov 2026, 16:00 CET' },
      { label: 'Needs approval', value: 'No' },
      { label: 'Media', value: '2 files' },
    ]);
  });

  it('says what an id is by the tool, and humanises keys it does not know', () => {
    expect(plainArguments('workspaces_detach', { id: 'w-1' }, { accounts, timeZone: 'UTC' })).toEqual([{ label: 'Workspace', value: 'w-1' }]);
    expect(plainArguments('posts_publish', { id: 'p-1' }, { accounts, timeZone: 'UTC' })).toEqual([{ label: 'Post', value: 'p-1' }]);
    expect(plainArguments('webhooks_create', { maxRetries: 3, scheduledAt: null, expiresAt: null }, { accounts, timeZone: 'UTC' })).toEqual([
      { label: 'Max retries', value: '3' },
      { label: 'When', value: 'Not scheduled (a draft)' },
      { label: 'Expires', value: 'Never' },
    ]);
  });

  it('reads per-platform text as text and settings as the composer words them, by network name', () => {
    expect(
      plainArguments(
        'posts_update',
        {
          variants: { twitter: { content: 'Short one' } },
          platformSettings: {
            linkedin: { visibility: 'CONNECTIONS' },
            google_business: { topicType: 'OFFER', callToAction: { actionType: 'LEARN_MORE', url: 'https://bakery.example' } },
            bluesky: { linkCard: false },
          },
        },
        { accounts, timeZone: 'UTC' },
      ),
    ).toEqual([
      { label: 'Per-platform text', value: 'X (Twitter): “Short one”' },
      {
        label: 'Platform settings',
        value:
          'LinkedIn: Who sees it: Connections only; Google Business Profile: Post type: Offer, Button: (What it says: Learn more, Link: https://bakery.example); Bluesky: Show a card for the first link: no',
      },
    ]);
  });

  it('shows what it cannot word as JSON', () => {
    expect(plainArguments('posts_update', { platformSettings: { myspace: { mood: 'HAPPY' } } }, { accounts, timeZone: 'UTC' })).toEqual([
      { label: 'Platform settings', value: 'myspace: {"mood":"HAPPY"}' },
    ]);
  });
});
