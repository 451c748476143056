// The Google Business Profile adapter against the documented requests and answers:
//   https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/create
//   https://developers.google.com/my-business/content/posts-data (the offer example)
//   https://developers.google.com/identity/protocols/oauth2/web-server#offline (refresh)
import { describe, expect, it } from 'vitest';
import { TokenExpiredError, type PublishRequest, type TokenStore } from '../publisher';
import { failure, liveConnection, publishing, storedConnection, useFakePlatformApi } from '../testing/adapter-tests';
import { fixture } from '../testing/fake-platform-api';
import { createGoogleBusinessPublisher, type GoogleBusinessOptions } from './google-business-publisher';

const f = (name: string) => fixture(import.meta.dirname, name);
const LOCATION = 'accounts/109876543210987654321/locations/1234567890123456789';
const POSTS_PATH = `/v4/${LOCATION}/localPosts`;

const api = useFakePlatformApi();
const connection = liveConnection('google_business', { externalId: LOCATION, accountName: 'Herald Coffee Soho', accessToken: 'ya29.current' });

const publisher = (extra: Partial<GoogleBusinessOptions> = {}, tokens?: TokenStore) =>
  publishing(createGoogleBusinessPublisher({ fetch: api.fetch, baseUrl: api.baseUrl, clientId: '', clientSecret: '', ...extra }), tokens);

const update = (extra: Partial<PublishRequest<'google_business'>> = {}): PublishRequest<'google_business'> => ({
  content: 'New winter blend in store today.',
  mediaUrls: [],
  settings: {},
  ...extra,
});

describe('google business profile publishing', () => {
  it('creates an offer post with its event, offer and one photo by URL, and links its searchUrl', async () => {
    api.on('POST', POSTS_PATH, { json: f('local-post-created') });

    const result = await publisher().publish(connection, {
      content: 'Buy one Google jetpack, get a second one free!!',
      mediaUrls: ['https://cdn.herald.example/m/jetpack.jpg'],
      mediaKinds: ['image'],
      settings: {
        topicType: 'OFFER',
        languageCode: 'en-US',
        event: { title: 'Jetpack week', startDate: '2026-12-01', startTime: '09:00', endDate: '2026-12-07', endTime: '17:00' },
        offer: {
          couponCode: 'BOGO-JET-CODE',
          redeemOnlineUrl: 'https://www.google.com/redeem',
          termsConditions: 'Offer only valid if you can prove you are a time traveler',
        },
      },
    });

    expect(result).toEqual({ postedId: f('local-post-created').name, permalink: f('local-post-created').searchUrl });
    const [post] = api.calls('POST', POSTS_PATH);
    expect(post!.headers.authorization).toBe('Bearer ya29.current');
    expect(post!.json()).toEqual({
      languageCode: 'en-US',
      summary: 'Buy one Google jetpack, get a second one free!!',
      event: {
        title: 'Jetpack week',
        schedule: {
          startDate: { year: 2026, month: 12, day: 1 },
          startTime: { hours: 9, minutes: 0, seconds: 0, nanos: 0 },
          endDate: { year: 2026, month: 12, day: 7 },
          endTime: { hours: 17, minutes: 0, seconds: 0, nanos: 0 },
        },
      },
      offer: {
        couponCode: 'BOGO-JET-CODE',
        redeemOnlineUrl: 'https://www.google.com/redeem',
        termsConditions: 'Offer only valid if you can prove you are a time traveler',
      },
      media: [{ mediaFormat: 'PHOTO', sourceUrl: 'https://cdn.herald.example/m/jetpack.jpg' }],
      topicType: 'OFFER',
    });
  });

  it('creates a STANDARD update with a call to action by default', async () => {
    api.on('POST', POSTS_PATH, { json: { name: `${LOCATION}/localPosts/1`, state: 'PROCESSING', topicType: 'STANDARD' } });
    const result = await publisher().publish(connection, update({ settings: { callToAction: { actionType: 'ORDER', url: 'https://herald.example/order' } } }));
    // No searchUrl while Google still processes the post: no permalink.
    expect(result).toEqual({ postedId: `${LOCATION}/localPosts/1`, permalink: null });
    expect(api.calls('POST', POSTS_PATH)[0]!.json()).toEqual({
      summary: 'New winter blend in store today.',
      callToAction: { actionType: 'ORDER', url: 'https://herald.example/order' },
      topicType: 'STANDARD',
    });
  });

  it('waits out a 429 with Retry-After, then posts', async () => {
    api.on('POST', POSTS_PATH, { status: 429, headers: { 'retry-after': '1' }, json: f('error-rate-limit') }, { json: f('local-post-created') });
    const result = await publisher().publish(connection, update());
    expect(result.postedId).toBe(f('local-post-created').name);
    expect(api.calls('POST', POSTS_PATH)).toHaveLength(2);
  });
});

describe('google business profile errors', () => {
  it('records Google’s message and its validation details verbatim, with the status', async () => {
    api.on('POST', POSTS_PATH, { status: 400, json: f('error-invalid-argument') });
    const error = await failure(publisher().publish(connection, update()));
    expect(error.message).toBe('Request contains an invalid argument. (summary: Summary is too long)');
    expect(error.opts).toEqual({ status: 400 });
  });

  it('refuses an event post without its event, and a video, before calling Google', async () => {
    const noEvent = await failure(publisher().publish(connection, update({ settings: { topicType: 'EVENT' } })));
    expect(noEvent.message).toBe('Google Business Profile event posts need an event title and dates (platformSettings.google_business.event)');
    const video = await failure(publisher().publish(connection, update({ mediaUrls: ['https://cdn.herald.example/m/v.mp4'], mediaKinds: ['video'] })));
    expect(video.message).toBe('A Google Business Profile post takes at most one photo');
    expect(api.requests).toHaveLength(0);
  });
});

describe('google business profile token refresh', () => {
  const google = { clientId: 'google-client.apps.googleusercontent.com', clientSecret: 'google-secret' };

  it('refreshes after a 401, retries with the new token and stores it', async () => {
    const { connection: row, tokens } = storedConnection('google_business', {
      externalId: LOCATION,
      accountName: 'Herald Coffee Soho',
      accessToken: 'ya29.old',
      refreshToken: '1//0gbusiness-refresh',
      tokenExpiresAt: new Date(Date.now() + 600_000),
    });
    api.on('POST', POSTS_PATH, { status: 401, json: f('error-invalid-credentials') }, { json: f('local-post-created') });
    api.on('POST', '/token', { json: f('token-refreshed') });

    const result = await publisher({ ...google, tokenUrl: `${api.baseUrl}/token` }, tokens).publish(row, update());

    expect(result.postedId).toBe(f('local-post-created').name);
    expect(api.calls('POST', POSTS_PATH).map((r) => r.headers.authorization)).toEqual(['Bearer ya29.old', 'Bearer ya29.a0business-refreshed']);
    expect(Object.fromEntries(api.calls('POST', '/token')[0]!.form())).toMatchObject({ grant_type: 'refresh_token', refresh_token: '1//0gbusiness-refresh' });
    expect(tokens.get(row.id)).toMatchObject({ accessToken: 'ya29.a0business-refreshed', refreshToken: '1//0gbusiness-refresh' });
  });

  it('raises TokenExpiredError when Google refuses the refresh token', async () => {
    const { connection: row, tokens } = storedConnection('google_business', {
      externalId: LOCATION,
      accountName: 'Herald Coffee Soho',
      accessToken: 'ya29.old',
      refreshToken: '1//revoked',
      tokenExpiresAt: new Date(Date.now() - 1000),
    });
    api.on('POST', '/token', { status: 400, json: f('token-refresh-refused') });
    const error = await failure(publisher({ ...google, tokenUrl: `${api.baseUrl}/token` }, tokens).publish(row, update()));
    expect(error).toBeInstanceOf(TokenExpiredError);
    expect(error.message).toBe('Token has been expired or revoked.');
  });
});
