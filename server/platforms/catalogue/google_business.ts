// Google Business Profile local posts: https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts
// (LocalPost: summary, callToAction, event, offer, media, topicType),
// https://developers.google.com/my-business/content/posts-data (event, call to action and offer
// posts; an offer carries an event for its title and dates), https://support.google.com/business/answer/7342169
// (1,500 characters), https://developers.google.com/my-business/reference/rest/v4/accounts.locations.media
// (photos: 10 KB to 5 MB).
import { z } from 'zod';
import { storableText, ZText } from '@/server/shared/schemas';
import { MB, type PlatformCatalogueEntry } from './entry';
import { withOptionWords } from './option-words';
import { codePointLength } from './text-length';
import { noComments } from './comments';
import { noMessages } from './conversations';

const date = ZText.regex(/^\d{4}-\d{2}-\d{2}$/, 'a date written YYYY-MM-DD, e.g. 2026-12-05');
const time = ZText.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time of day written HH:MM, e.g. 09:30');
const httpsUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .check(storableText);

export const GOOGLE_BUSINESS_ACTIONS = ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL'] as const;

export const google_business = {
  label: 'Google Business Profile',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 1500, count: codePointLength },
  // One photo, which Google fetches from its URL; no videos through local posts.
  media: { maxImages: 1, maxVideos: 0, maxItems: 1, mixed: false, required: false, maxVideoSeconds: 0, maxVideoBytes: 0, maxImageBytes: 5 * MB },
  settings: z
    .strictObject({
      topicType: withOptionWords(z.enum(['STANDARD', 'EVENT', 'OFFER']), { STANDARD: 'Update', EVENT: 'Event', OFFER: 'Offer' })
        .optional()
        .describe('The kind of post: an update, an event or an offer')
        .meta({ default: 'STANDARD' }),
      callToAction: z
        .strictObject({
          // The captions the buttons carry on the post.
          actionType: withOptionWords(z.enum(GOOGLE_BUSINESS_ACTIONS), {
            BOOK: 'Book',
            ORDER: 'Order online',
            SHOP: 'Buy',
            LEARN_MORE: 'Learn more',
            SIGN_UP: 'Sign up',
            CALL: 'Call now (the profile’s phone number)',
          }).describe('What the button says; Call now dials the profile’s phone number'),
          url: httpsUrl.optional().describe('Where the button leads; none for Call now'),
        })
        .refine((cta) => (cta.actionType === 'CALL') === (cta.url === undefined), 'Call now takes no link; every other button needs one')
        .optional()
        .describe('A button under the post'),
      event: z
        .strictObject({
          title: ZText.trim().min(1).max(300).describe('The event’s or offer’s title'),
          startDate: date.describe('First day, YYYY-MM-DD, in the location’s time zone'),
          startTime: time.optional().describe('Start time on the first day, HH:MM; the whole day when left out'),
          endDate: date.describe('Last day, YYYY-MM-DD'),
          endTime: time.optional().describe('End time on the last day, HH:MM'),
        })
        .optional()
        .describe('Title and dates: needed for an event or an offer'),
      offer: z
        .strictObject({
          couponCode: ZText.trim().min(1).max(300).optional().describe('The code to use in store or online'),
          redeemOnlineUrl: httpsUrl.optional().describe('Where to redeem the offer online'),
          termsConditions: ZText.trim().min(1).max(5000).optional().describe('The offer’s terms'),
        })
        .optional()
        .describe('Details of an offer'),
      languageCode: ZText.regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a language code, e.g. en or en-US')
        .optional()
        .describe('The language of the post, as a language code such as en or en-US; Google detects it when left out'),
    })
    .refine((s) => !(s.topicType === 'EVENT' || s.topicType === 'OFFER') || s.event !== undefined, {
      message: 'An event or an offer needs its title and dates',
      path: ['event'],
    })
    .refine((s) => s.offer === undefined || s.topicType === 'OFFER', { message: 'Offer details are for an offer only', path: ['offer'] }),
  // What Herald reads of a published post (its reader: server/platforms/google_business/), and why not the rest.
  postMetrics: {
    impressions: { reads: 'LOCAL_POST_VIEWS_SEARCH' },
    reach: { none: 'Google Business Profile does not report reach of a post' },
    views: { none: 'Google Business Profile reports views of the post on Search (impressions), not video views' },
    reactions: { none: 'Google Business Profile posts take no reactions' },
    comments: { none: 'Google Business Profile posts take no comments' },
    shares: { none: 'Google Business Profile does not report shares of a post' },
    saves: { none: 'Google Business Profile does not report saves of a post' },
    linkClicks: { reads: 'LOCAL_POST_ACTIONS_CALL_TO_ACTION' },
    videoWatchSeconds: { none: 'Google Business Profile does not report watch time' },
  },
  // Comments under its posts (the inbox): none for an app.
  comments: noComments('Business Profile posts take no comments (a location’s reviews are another matter)'),
  // A location's reviews (Business Profile API v4 reviews, Pub/Sub notifications).
  messages: noMessages('Google retired Business Messages in 2024: a Business Profile has no messages an app can read'),
  reviews: {
    scale: 'stars',
    read: {
      call: 'GET https://mybusiness.googleapis.com/v4/accounts/{account}/locations/{location}/reviews',
      docs: 'https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews/list',
    },
    reply: {
      call: 'PUT …/reviews/{review}/reply with comment',
      docs: 'https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews/updateReply',
      note: 'One answer per review; up to 4,096 bytes',
      maxChars: 4_096,
    },
    editReply: {
      call: 'PUT …/reviews/{review}/reply (the same call replaces the answer)',
      docs: 'https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews/updateReply',
    },
    deleteReply: {
      call: 'DELETE …/reviews/{review}/reply',
      docs: 'https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews/deleteReply',
    },
    push: {
      call: 'Pub/Sub push of NEW_REVIEW and UPDATED_REVIEW (accounts/{account}/notificationSetting) to POST /hooks/google?token=…',
      docs: 'https://developers.google.com/my-business/content/notification-setup',
    },
  },
  // How an interrupted publish is settled (server/platforms/google_business/google-business-reconcile.ts).
  reconcile: {
    ask: 'GET /v4/{location}/localPosts matched on the summary, topic type, event title and createTime',
    docs: 'https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts/list',
  },
} satisfies PlatformCatalogueEntry;
