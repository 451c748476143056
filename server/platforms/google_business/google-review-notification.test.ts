// Google's review notifications as Pub/Sub pushes them, from payloads shaped as the pages show
// them, and from junk.
//   https://cloud.google.com/pubsub/docs/push#receive_push (the push envelope)
//   https://developers.google.com/my-business/content/notification-setup
//   https://developers.google.com/my-business/reference/notifications/rest/v1/NotificationSetting#NotificationType
import { describe, expect, it } from 'vitest';
import { parseGoogleReviewNotification } from './google-review-notification';

const LOCATION = 'accounts/106324317373465838493/locations/8143792401563712436';
const REVIEW = `${LOCATION}/reviews/AbFvOqnC0wYbA5Pq4nHkz2mXl9T1_Rg-7sVd`;

const push = (notification: unknown, encoding: BufferEncoding = 'base64') => ({
  message: {
    attributes: {},
    data: Buffer.from(typeof notification === 'string' ? notification : JSON.stringify(notification)).toString(encoding),
    messageId: '2070443601311540',
    message_id: '2070443601311540',
    publishTime: '2026-11-27T12:00:00.123Z',
    publish_time: '2026-11-27T12:00:00.123Z',
  },
  subscription: 'projects/herald-prod/subscriptions/business-profile-reviews',
});
const readLocation = [{ accountId: LOCATION, platforms: ['google_business'], messages: [], reviews: [], readReviews: true }];

describe('Google review notifications', () => {
  it('asks for the location’s reviews on a new or an updated review', () => {
    expect(parseGoogleReviewNotification(push({ type: 'NEW_REVIEW', review: REVIEW, location: LOCATION }))).toEqual(readLocation);
    expect(parseGoogleReviewNotification(push({ type: 'UPDATED_REVIEW', review: REVIEW, location: LOCATION }))).toEqual(readLocation);
  });

  it('reads the field names the reference pages use, and the location from the review’s name alone', () => {
    expect(parseGoogleReviewNotification(push({ type: 'NEW_REVIEW', reviewName: REVIEW, locationName: LOCATION }))).toEqual(readLocation);
    expect(parseGoogleReviewNotification(push({ type: 'NEW_REVIEW', review_name: REVIEW, location_name: LOCATION }))).toEqual(readLocation);
    expect(parseGoogleReviewNotification(push({ type: 'UPDATED_REVIEW', review: REVIEW }))).toEqual(readLocation);
    // base64url (no padding) decodes as well.
    expect(parseGoogleReviewNotification(push({ type: 'NEW_REVIEW', review: REVIEW, location: LOCATION }, 'base64url'))).toEqual(readLocation);
  });

  it('leaves out the other notification types', () => {
    for (const type of ['GOOGLE_UPDATE', 'NEW_QUESTION', 'NEW_CUSTOMER_MEDIA', 'VOICE_OF_MERCHANT_UPDATED', 'NOTIFICATION_TYPE_UNSPECIFIED']) {
      expect(parseGoogleReviewNotification(push({ type, location: LOCATION }))).toEqual([]);
    }
  });

  it('returns nothing for what it does not understand, and never throws', () => {
    const junk: unknown[] = [
      undefined,
      null,
      'NEW_REVIEW',
      [],
      {},
      { message: null },
      { message: { data: 42 } },
      { message: { data: '' } },
      { message: { data: '%%% not base64 %%%' } },
      { message: { data: 'A'.repeat(20_000) } },
      push('not json'),
      push('"NEW_REVIEW"'),
      push([{ type: 'NEW_REVIEW', location: LOCATION }]),
      push({ type: 'NEW_REVIEW' }),
      push({ type: 'NEW_REVIEW', location: 'locations/8143792401563712436' }),
      push({ type: 'NEW_REVIEW', location: `${LOCATION}/extra` }),
      push({ type: 'NEW_REVIEW', location: 42, review: 'reviews/x' }),
      push({ type: ['NEW_REVIEW'], location: LOCATION }),
      { message: { type: 'NEW_REVIEW', location: LOCATION } },
      { type: 'NEW_REVIEW', location: LOCATION },
    ];
    for (const body of junk) expect(parseGoogleReviewNotification(body)).toEqual([]);
  });
});
