// The composer's settings fields come from the catalogue's schemas, and what the form holds
// converts to what the API validates (and back, for editing a stored post).
import { describe, expect, it } from 'vitest';
import { validatePlatformSettings } from '@/server/posts/platform-settings';
import { settingFields, settingsFromForm, settingsToForm } from './setting-fields';

describe('settingFields', () => {
  it('reads kinds, labels and help from the schema', () => {
    const youtube = Object.fromEntries(settingFields('youtube').map((f) => [f.key, f]));
    expect(youtube.title).toMatchObject({ kind: 'text', label: 'Title' });
    expect(youtube.privacy).toMatchObject({ kind: 'enum', options: ['public', 'unlisted', 'private'] });
    expect(youtube.tags).toMatchObject({ kind: 'list', label: 'Tags, one per line' });
    expect(youtube.madeForKids).toMatchObject({ kind: 'boolean', label: 'Made for kids' });
    expect(youtube.privacy!.help).toMatch(/Who can watch/);
    const business = Object.fromEntries(settingFields('google_business').map((f) => [f.key, f]));
    expect(business.event!.kind).toBe('group');
    expect(business.event!.fields!.map((f) => f.key)).toEqual(['title', 'startDate', 'startTime', 'endDate', 'endTime']);
  });
});

describe('settingsFromForm / settingsToForm', () => {
  it('turns lines into lists and nested groups into objects the API accepts, leaving out what is empty', () => {
    const youtube = settingsFromForm('youtube', { title: 'Launch', tags: 'bakery\n  bread \n\n', madeForKids: false, privacy: '' });
    expect(youtube).toEqual({ title: 'Launch', tags: ['bakery', 'bread'] });
    const business = settingsFromForm('google_business', {
      topicType: 'EVENT',
      event: { title: 'Open day', startDate: '2026-12-05', endDate: '2026-12-05', startTime: '' },
      offer: { couponCode: '', termsConditions: '' },
    });
    expect(business).toEqual({ topicType: 'EVENT', event: { title: 'Open day', startDate: '2026-12-05', endDate: '2026-12-05' } });
    expect(validatePlatformSettings({ youtube, google_business: business }, ['youtube', 'google_business'])).toEqual({ youtube, google_business: business });
    expect(settingsToForm({ youtube, mastodon: { altTexts: ['A loaf', 'A cake'] } })).toEqual({
      youtube: { title: 'Launch', tags: 'bakery\nbread' },
      mastodon: { altTexts: 'A loaf\nA cake' },
    });
  });
});
