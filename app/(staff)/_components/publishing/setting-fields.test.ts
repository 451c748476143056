// The composer's settings fields come from the catalogue's schemas, and what the form holds
// converts to what the API validates (and back, for editing a stored post).
import { describe, expect, it } from 'vitest';
import { validatePlatformSettings } from '@/server/posts/platform-settings';
import { PLATFORMS } from '@/server/shared/platforms';
import { settingFields, settingsFromForm, settingsToForm } from './setting-fields';

describe('settingFields', () => {
  it('reads kinds, labels and help from the schema', () => {
    const youtube = Object.fromEntries(settingFields('youtube').map((f) => [f.key, f]));
    expect(youtube.title).toMatchObject({ kind: 'text', label: 'Title' });
    expect(youtube.privacy).toMatchObject({ kind: 'enum', default: 'public' });
    expect(youtube.privacy!.options!.map((o) => o.value)).toEqual(['public', 'unlisted', 'private']);
    expect(youtube.tags).toMatchObject({ kind: 'list', label: 'Tags, one per line' });
    expect(youtube.madeForKids).toMatchObject({ kind: 'boolean', label: 'Made for kids' });
    expect(youtube.privacy!.help).toMatch(/Who can watch/);
    const business = Object.fromEntries(settingFields('google_business').map((f) => [f.key, f]));
    expect(business.event!.kind).toBe('group');
    expect(business.event!.fields!.map((f) => f.key)).toEqual(['title', 'startDate', 'startTime', 'endDate', 'endTime']);
  });

  it('shows words for an enum’s values and keeps the values as what is sent', () => {
    const [visibility] = settingFields('linkedin');
    expect(visibility).toMatchObject({
      key: 'visibility',
      default: 'PUBLIC',
      options: [
        { value: 'PUBLIC', label: 'Anyone' },
        { value: 'CONNECTIONS', label: 'Connections only' },
      ],
    });
    expect(settingsFromForm('linkedin', { visibility: 'CONNECTIONS' })).toEqual({ visibility: 'CONNECTIONS' });
    const action = settingFields('google_business')
      .find((f) => f.key === 'callToAction')!
      .fields!.find((f) => f.key === 'actionType')!;
    expect(action.options!.find((o) => o.value === 'LEARN_MORE')!.label).toBe('Learn more');
  });

  it('reads every help text as words for people, not the API’s field names', () => {
    const all = PLATFORMS.flatMap((p) =>
      settingFields(p)
        .flatMap((f) => [f, ...(f.fields ?? [])])
        .map((f) => `${p}.${f.key}: ${f.help ?? ''}`),
    );
    for (const line of all) {
      expect(line).not.toMatch(
        /\((alt|alt_text|langs|description|visibility|language|username|thread_name|spoiler_text|sensitive)\b|flags:|_[a-z]+\)|default: yes|omitted|\b[A-Z]{2,}_[A-Z]+\b/,
      );
    }
  });
});

describe('a yes/no setting whose default is yes', () => {
  it('starts ticked, sends nothing while ticked and no once unticked', () => {
    const linkCard = settingFields('bluesky').find((f) => f.key === 'linkCard')!;
    expect(linkCard).toMatchObject({ kind: 'boolean', default: true });
    expect(settingsToForm(null).bluesky).toEqual({ linkCard: true });
    expect(settingsToForm({ bluesky: { linkCard: false } }).bluesky).toEqual({ linkCard: false });
    expect(settingsFromForm('bluesky', { linkCard: true })).toEqual({});
    expect(settingsFromForm('bluesky', { linkCard: false })).toEqual({ linkCard: false });
    expect(settingsToForm(null).instagram).toEqual({ shareToFeed: true });
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
      // Every network's defaults, for a network picked later.
      bluesky: { linkCard: true },
      instagram: { shareToFeed: true },
      devto: { published: true },
      ghost: { published: true },
      instagram_login: { shareToFeed: true },
      listmonk: { send: true },
      hashnode: { published: true },
      medium: { published: true },
      wordpress: { published: true },
      wordpress_com: { published: true },
    });
  });
});
