// Instagram with Instagram Login: the same Instagram professional account and the same
// content-publishing API as the Page-linked Instagram (instagram.ts), on graph.instagram.com
// with an Instagram user token, so the same limits and settings:
// https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/content-publishing
// (image, carousel of up to 10, reel, story; media required) and the IG User media reference.
// What differs: the token lasts 60 days and is extended (tokensExpire), and the pages cited.
import type { PlatformCatalogueEntry } from './entry';
import { instagram } from './instagram';
import { noReviews, META_WINDOW_HOURS } from './conversations';

const LOGIN_DOCS = 'https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login';

export const instagram_login = {
  label: 'Instagram (Instagram Login)',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: instagram.text,
  media: instagram.media,
  // One schema for both: a post written for either publishes the same way.
  settings: instagram.settings,
  tokensExpire: true,
  // Media insights with instagram_business_manage_insights: the same metrics as with Facebook Login.
  postMetrics: instagram.postMetrics,
  comments: {
    read: { call: 'GET /{ig-media-id}/comments', docs: `${LOGIN_DOCS}/comment-moderation` },
    reply: {
      call: 'POST /{ig-comment-id}/replies (on the media itself: POST /{ig-media-id}/comments)',
      docs: `${LOGIN_DOCS}/comment-moderation`,
      note: 'Replies go under top-level comments: a reply to a reply is added to its top-level comment',
    },
    hide: { call: 'POST /{ig-comment-id}?hide=true', docs: `${LOGIN_DOCS}/comment-moderation` },
    delete: { call: 'DELETE /{ig-comment-id}', docs: `${LOGIN_DOCS}/comment-moderation` },
    like: { none: 'Instagram’s API does not let an app like a comment' },
  },
  // Instagram direct messages through Instagram Login (graph.instagram.com).
  messages: {
    read: {
      call: 'GET /me/conversations?fields=participants,messages{id,from,to,message,created_time,attachments}',
      docs: 'https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/conversations-api',
    },
    reply: {
      call: 'POST /{ig-user-id}/messages with recipient.id',
      docs: 'https://developers.facebook.com/docs/instagram-platform/instagram-api-with-instagram-login/messaging-api',
      note: 'Text up to 1,000 bytes; an image goes as attachment.payload.url. Outside 24 hours after the person’s last message the account may not answer',
      maxChars: 1_000,
      images: true,
      windowHours: META_WINDOW_HOURS,
    },
    push: {
      call: 'Meta webhooks, object instagram, field messages (POST /hooks/meta, signed X-Hub-Signature-256)',
      docs: 'https://developers.facebook.com/docs/instagram-platform/webhooks',
    },
  },
  reviews: noReviews('Instagram accounts have no reviews'),
  // How an interrupted publish is settled (server/platforms/instagram/instagram-reconcile.ts, on graph.instagram.com).
  reconcile: {
    ask: 'GET graph.instagram.com/{ig-container-id}?fields=status_code,status for the container Herald recorded before media_publish (PUBLISHED: found; ERROR, EXPIRED or never published: absent); without it, GET /{ig-user-id}/media?fields=id,caption,timestamp,permalink matched on the caption and time (a story only through its container)',
    docs: `${LOGIN_DOCS}/content-publishing`,
  },
} satisfies PlatformCatalogueEntry;
