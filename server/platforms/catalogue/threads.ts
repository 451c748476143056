// Threads: https://developers.facebook.com/docs/threads/posts (text, carousels, media specifications)
import { z } from 'zod';
import { GB, type PlatformCatalogueEntry } from './entry';
import { threadsLength } from './text-length';

export const threads = {
  label: 'Threads',
  // The network documents no window in which it refuses a text it already published.
  duplicateWindowDays: null,
  text: { maxChars: 500, count: threadsLength },
  // A carousel takes 2 to 20 images, videos, or a mix.
  media: { maxImages: 20, maxVideos: 20, maxItems: 20, mixed: true, required: false, maxVideoSeconds: 5 * 60, maxVideoBytes: 1 * GB },
  settings: z.strictObject({}),
  // What Herald reads of a published post (its reader: server/platforms/threads/), and why not the rest.
  postMetrics: {
    impressions: { none: 'Threads reports views, not impressions' },
    reach: { none: 'Threads does not report reach per post' },
    views: { reads: 'views' },
    reactions: { reads: 'likes' },
    comments: { reads: 'replies' },
    shares: { reads: 'reposts+quotes+shares' },
    saves: { none: 'Threads does not report saves' },
    linkClicks: { none: 'Threads does not report link clicks per post' },
    videoWatchSeconds: { none: 'Threads does not report watch time' },
  },
  // What an app may do with the comments under its posts (the inbox), and the pages each call follows.
  comments: {
    read: { call: 'GET /{threads-media-id}/conversation', docs: 'https://developers.facebook.com/documentation/threads/reference/reply-management' },
    reply: {
      call: 'POST /{threads-user-id}/threads (reply_to_id), then /threads_publish',
      docs: 'https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies/create-replies',
      // A reply is a Threads post: 500 characters (https://developers.facebook.com/docs/threads/posts).
      maxChars: 500,
    },
    hide: {
      call: 'POST /{threads-reply-id}/manage_reply (hide=true)',
      docs: 'https://developers.facebook.com/documentation/threads/reply-management',
      note: 'Top-level replies only; their nested replies are hidden with them',
    },
    delete: { none: 'Threads lets an app delete only the account’s own posts; someone else’s reply can be hidden, not deleted' },
    like: { none: 'The Threads API has no way to like a reply' },
  },
  // How an interrupted publish is settled (server/platforms/threads/threads-reconcile.ts).
  reconcile: {
    ask: 'GET /{threads-container-id}?fields=status,error_message for the container Herald recorded before threads_publish (PUBLISHED: found; ERROR, EXPIRED or never published: absent); without it, GET /{threads-user-id}/threads?fields=id,text,timestamp,permalink matched on the text and time',
    docs: 'https://developers.facebook.com/documentation/threads/retrieve-and-discover-posts/retrieve-posts',
  },
} satisfies PlatformCatalogueEntry;
