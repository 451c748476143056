// Google's notification of a new or changed review, as Pub/Sub pushes it to Herald: it names the
// review without carrying it, so what it gives is the location whose reviews are read at once.
//
// Sources:
//   https://cloud.google.com/pubsub/docs/push#receive_push
//     POST { message: { attributes?, data: <base64>, messageId, publishTime }, subscription }
//     (the same fields also as message_id and publish_time).
//   https://developers.google.com/my-business/content/notification-setup
//   https://developers.google.com/my-business/reference/notifications/rest/v1/NotificationSetting#NotificationType
//     NEW_REVIEW: "A new review has been added to the location"; UPDATED_REVIEW: "A review on
//     the location has been updated". The data is the notification as JSON: { type, review:
//     accounts/{a}/locations/{l}/reviews/{r}, location: accounts/{a}/locations/{l} }. The
//     reference pages name the two fields review_name / location_name (v1) and reviewName /
//     locationName (v4); every spelling is read.
// The account is the location's full name, the form the connect flow stores as the connection's
// externalId (google-business-api.ts LOCATION_NAME). A location reached through two Business
// Profile accounts has two such names; the notification uses the one of the account whose
// notification setting sent it, which is the account Herald set it up for. Whether the push is
// Herald's (the subscription's token) is checked before it comes here
// (network-webhook-signatures.ts googlePushTokenValid); this reads it, and anything it does not
// recognise is left out, never thrown.
import type { PushedItems } from '../conversations';
import { LOCATION_NAME } from './google-business-api';

const REVIEW_TYPES = new Set(['NEW_REVIEW', 'UPDATED_REVIEW']);
/** A notification is a few hundred bytes; anything far larger is not one. */
const MAX_DATA_CHARS = 16_384;
const REVIEW_NAME = /^(accounts\/[^/]+\/locations\/[^/]+)\/reviews\/[^/]+$/;

export function parseGoogleReviewNotification(body: unknown): PushedItems[] {
  const message = field(body, 'message');
  const data = field(message, 'data');
  if (typeof data !== 'string' || data.length === 0 || data.length > MAX_DATA_CHARS) return [];
  const notification = decode(data);
  const type = field(notification, 'type');
  if (typeof type !== 'string' || !REVIEW_TYPES.has(type)) return [];

  const review = firstString(notification, ['review', 'reviewName', 'review_name']);
  const location = firstString(notification, ['location', 'locationName', 'location_name']) ?? (review ? REVIEW_NAME.exec(review)?.[1] : undefined);
  if (!location || !LOCATION_NAME.test(location)) return [];
  return [{ accountId: location, platforms: ['google_business'], messages: [], reviews: [], readReviews: true }];
}

/** The notification inside Pub/Sub's base64 `data`, or null when it is not a JSON object. */
function decode(data: string): unknown {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(data)) return null;
  try {
    return JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function firstString(value: unknown, keys: string[]): string | undefined {
  for (const key of keys) {
    const found = field(value, key);
    if (typeof found === 'string' && found) return found;
  }
  return undefined;
}
