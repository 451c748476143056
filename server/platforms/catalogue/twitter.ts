// X (Twitter): https://docs.x.com/fundamentals/counting-characters,
// https://docs.x.com/x-api/media/quickstart/best-practices, https://docs.x.com/x-api/media/introduction
import { z } from 'zod';
import { ZText } from '@/server/shared/schemas';
import { MB, type PlatformCatalogueEntry } from './entry';
import { twitterWeightedLength } from './text-length';
import { noReviews } from './conversations';

const tweetId = ZText.regex(/^\d{1,20}$/, 'a post id: the digits at the end of the post’s address');

export const twitter = {
  label: 'X (Twitter)',
  // X refuses a post whose text repeats one the account already posted: POST /2/tweets answers
  // 403 "You are not allowed to create a Tweet with duplicate content."
  // (https://docs.x.com/x-api/posts/create-post; the automation rules,
  // https://help.x.com/en/rules-and-policies/x-automation, forbid duplicative posts). X does not
  // document how long the refusal lasts: 30 days is Herald's own cautious bound, not X's.
  duplicateWindowDays: 30,
  text: { maxChars: 280, count: twitterWeightedLength },
  // Up to 4 photos, or 1 animated GIF, or 1 video; never mixed. "512 MB" is read as MiB, the
  // larger reading: X itself refuses the rare file in between.
  media: { maxImages: 4, maxVideos: 1, maxItems: 4, mixed: false, required: false, maxVideoSeconds: 140, maxVideoBytes: 512 * MB },
  settings: z.strictObject({
    replyTo: tweetId
      .optional()
      .describe('Posts as a reply to this post on X: its id, the digits at the end of its address')
      .meta({ example: '1858000000000000000' }),
    quoteTweet: tweetId.optional().describe('Quotes this post on X: its id, the digits at the end of its address').meta({ example: '1858000000000000001' }),
  }),
  // What Herald reads of a published post (its reader: server/platforms/twitter/), and why not the rest.
  postMetrics: {
    impressions: { reads: 'public_metrics.impression_count' },
    reach: { none: 'X does not report reach' },
    views: { none: 'X reports impressions, not separate views' },
    reactions: { reads: 'public_metrics.like_count' },
    comments: { reads: 'public_metrics.reply_count' },
    shares: { reads: 'public_metrics.retweet_count+quote_count' },
    saves: { reads: 'public_metrics.bookmark_count' },
    linkClicks: { reads: 'non_public_metrics.url_link_clicks' },
    videoWatchSeconds: { none: 'X does not report watch time through the posts lookup' },
  },
  // What an app may do with the comments under its posts (the inbox), and the pages each call follows.
  comments: {
    read: {
      call: 'GET /2/tweets/search/recent?query=conversation_id:{id}',
      docs: 'https://docs.x.com/x-api/posts/search/introduction',
      note: 'Recent search covers the last 7 days and needs a paid access tier',
    },
    reply: { call: 'POST /2/tweets (reply.in_reply_to_tweet_id)', docs: 'https://docs.x.com/x-api/posts/manage-tweets/introduction', maxChars: 280 },
    hide: {
      call: 'PUT /2/tweets/{id}/hidden',
      docs: 'https://docs.x.com/x-api/posts/hide-replies/introduction',
      note: 'Replies in conversations the account started; up to 725 per conversation',
    },
    delete: { none: 'X lets an app delete only the account’s own posts; someone else’s reply can be hidden' },
    like: { call: 'POST /2/users/{id}/likes', docs: 'https://docs.x.com/x-api/posts/likes/introduction' },
  },
  // Direct messages (X API v2) and the Account Activity API's pushes.
  messages: {
    read: {
      call: 'GET /2/dm_events?dm_event.fields=id,text,event_type,dm_conversation_id,created_at,sender_id,attachments&expansions=sender_id',
      docs: 'https://docs.x.com/x-api/direct-messages/get-recent-direct-message-events',
    },
    reply: {
      call: 'POST /2/dm_conversations/{dm_conversation_id}/messages',
      docs: 'https://docs.x.com/x-api/direct-messages/send-a-new-message-to-a-dm-conversation',
      note: 'Up to 10,000 characters; an image must first be uploaded as media (not sent by Herald yet). X sets no reply window',
      maxChars: 10_000,
      images: false,
      windowHours: null,
    },
    push: {
      call: 'Account Activity API webhook (GET /hooks/x answers the CRC, POST /hooks/x signed x-twitter-webhooks-signature)',
      docs: 'https://docs.x.com/x-api/account-activity/introduction',
    },
  },
  reviews: noReviews('X accounts have no reviews'),
  // How an interrupted publish is settled (reconcile.ts): X takes no idempotency key, so it is asked.
  reconcile: {
    ask: 'GET /2/users/:id/tweets (start_time: the attempt, tweet.fields=created_at): the account’s posts since the attempt, matched on the text sent',
    docs: 'https://docs.x.com/x-api/posts/timelines/introduction',
  },
} satisfies PlatformCatalogueEntry;
